// Unit tests for the host kernels: they compute the right values (STREAM against its closed form,
// every FMA instruction set bit for bit against the scalar std::fma reference, Sattolo's walk is
// one single cycle, the add chain adds), and the built FMA kernels really are vector FMA
// instructions (objdump of this test binary, which links the same objects as webgpu-bench).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "host/buffer.hpp"
#include "host/clock.hpp"
#include "host/kernels.hpp"

namespace wgb::host {
namespace {

struct Arrays {
  std::vector<double> a, b, c;
  explicit Arrays(std::size_t n) : a(n, 1.0), b(n, 2.0), c(n, 0.0) {}
};

TEST(HostStream, CanonicalSequenceMatchesClosedForm) {
  // McCalpin's check: copy, scale, add, triad, k times, against the same on scalars.
  for (std::size_t n : {1u, 7u, 8u, 1000u, 4099u}) {
    Arrays x(n);
    StreamModel m;
    for (int k = 0; k < 5; ++k) {
      for (auto op : {StreamOp::Copy, StreamOp::Scale, StreamOp::Add, StreamOp::Triad}) {
        stream_repeat(op, x.a.data(), x.b.data(), x.c.data(), n, 1);
        m.apply(op);
      }
    }
    EXPECT_LE(stream_relative_error(x.a.data(), n, m.a), kStreamEpsilon) << n;
    EXPECT_LE(stream_relative_error(x.b.data(), n, m.b), kStreamEpsilon) << n;
    EXPECT_LE(stream_relative_error(x.c.data(), n, m.c), kStreamEpsilon) << n;
    EXPECT_GT(m.a, 1.0);  // the sequence moved the values (the check is not vacuous)
  }
}

TEST(HostStream, RepeatsOfOneKernelAreIdempotentAndComputeIt) {
  const std::size_t n = 513;
  Arrays x(n);
  StreamModel m;
  stream_repeat(StreamOp::Copy, x.a.data(), x.b.data(), x.c.data(), n, 9);
  m.apply(StreamOp::Copy);
  stream_repeat(StreamOp::Scale, x.a.data(), x.b.data(), x.c.data(), n, 4);
  m.apply(StreamOp::Scale);
  stream_repeat(StreamOp::Add, x.a.data(), x.b.data(), x.c.data(), n, 3);
  m.apply(StreamOp::Add);
  stream_repeat(StreamOp::Triad, x.a.data(), x.b.data(), x.c.data(), n, 17);
  m.apply(StreamOp::Triad);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(x.a[i], m.a);
    ASSERT_EQ(x.b[i], m.b);
    ASSERT_EQ(x.c[i], m.c);
  }
  // a=1 b=2 c=0 -> copy c=1 -> scale b=3 -> add c=4 -> triad a=3+3*4=15
  EXPECT_EQ(m.a, 15.0);
  EXPECT_EQ(m.b, 3.0);
  EXPECT_EQ(m.c, 4.0);
}

TEST(HostStream, CheckDetectsAWrongElement) {
  std::vector<double> v(100, 4.0);
  EXPECT_EQ(stream_relative_error(v.data(), v.size(), 4.0), 0.0);
  v[37] = 4.0000001;
  EXPECT_GT(stream_relative_error(v.data(), v.size(), 4.0), kStreamEpsilon);
}

TEST(HostStream, CostModel) {
  EXPECT_EQ(arrays_touched(StreamOp::Copy), 2);
  EXPECT_EQ(arrays_touched(StreamOp::Triad), 3);
  EXPECT_EQ(flops_per_element(StreamOp::Copy), 0);
  EXPECT_EQ(flops_per_element(StreamOp::Triad), 2);
  EXPECT_FALSE(stream_isa().empty());
}

template <class T>
void check_fma(FmaIsa isa, bool f64) {
  const FmaShape shape = fma_shape(isa, f64);
  const std::size_t n = shape.state();
  std::vector<T> k(n), r(n), unfused(n);
  for (std::size_t j = 0; j < n; ++j) k[j] = r[j] = unfused[j] = static_cast<T>(1.0 + double(j) / double(n));
  const T m = f64 ? T(1.0 - 0x1p-20) : T(1.0f - 0x1p-12f);
  const T a = f64 ? T(1e-5) : T(0.01f);
  const std::uint64_t iters = 3001;
  if constexpr (sizeof(T) == 8) {
    fma_f64(isa, k.data(), m, a, iters);
    fma_reference_f64(r.data(), n, m, a, iters);
  } else {
    fma_f32(isa, k.data(), m, a, iters);
    fma_reference_f32(r.data(), n, m, a, iters);
  }
  EXPECT_EQ(std::memcmp(k.data(), r.data(), n * sizeof(T)), 0) << to_string(isa) << (f64 ? " f64" : " f32");
  // The check can fail: a separate multiply and add (two roundings) gives different bits.
  for (std::size_t j = 0; j < n; ++j) {
    volatile T x = unfused[j];
    for (std::uint64_t i = 0; i < iters; ++i) {
      volatile T p = x * m;
      x = p + a;
    }
    unfused[j] = x;
  }
  EXPECT_NE(std::memcmp(unfused.data(), r.data(), n * sizeof(T)), 0);
}

TEST(HostFma, EveryAvailableIsaEqualsTheScalarReferenceBitForBit) {
  const auto isas = available_fma_isas();
  ASSERT_FALSE(isas.empty());
  EXPECT_EQ(isas.back(), FmaIsa::Scalar);
  for (auto isa : isas) {
    check_fma<float>(isa, false);
    check_fma<double>(isa, true);
  }
}

TEST(HostFma, ShapesHaveEnoughIndependentChains) {
  // latency (4 cycles) x throughput (2 per cycle) = 8 chains needed to keep both pipes busy.
  EXPECT_GE(fma_shape(FmaIsa::Avx512, false).accumulators, 8u);
  EXPECT_GE(fma_shape(FmaIsa::Avx2, true).accumulators, 8u);
  EXPECT_EQ(fma_shape(FmaIsa::Avx512, false).lanes, 16u);
  EXPECT_EQ(fma_shape(FmaIsa::Avx512, true).lanes, 8u);
  EXPECT_EQ(fma_shape(FmaIsa::Avx2, false).flops_per_iteration(), 2.0 * 8 * 12);
}

std::string run_capture(const std::string& cmd) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
  if (!p) return out;
  std::array<char, 4096> buf{};
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p.get())) out.append(buf.data(), n);
  return out;
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t c = 0;
  for (auto pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, pos + 1)) ++c;
  return c;
}

TEST(HostFma, DisassemblyUsesVectorFmaInstructions) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the disassembly check is written for x86-64";
#else
  if (std::system("objdump --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "objdump not installed";
  struct Expect {
    const char* symbol;
    const char* insn;
    const char* reg;
    std::size_t at_least;
  };
  // /proc/self/exe must be resolved here: inside popen's shell it would name objdump itself.
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  ASSERT_FALSE(ec) << ec.message();
  for (const auto& e :
       {Expect{"wgb_host_fma_f32_avx512", "vfmadd", "zmm", 16}, Expect{"wgb_host_fma_f64_avx512", "vfmadd", "zmm", 16},
        Expect{"wgb_host_fma_f32_avx2", "vfmadd", "ymm", 12}, Expect{"wgb_host_fma_f64_avx2", "vfmadd", "ymm", 12}}) {
    const auto dis = run_capture(std::string("objdump -d --no-show-raw-insn --disassemble=") + e.symbol + " '" +
                                 self.string() + "' 2>/dev/null");
    ASSERT_NE(dis.find(std::string("<") + e.symbol + ">:"), std::string::npos) << e.symbol << " not found";
    std::size_t fmas = 0;
    std::size_t pos = 0;
    while ((pos = dis.find('\n', pos)) != std::string::npos) {
      const auto next = dis.find('\n', pos + 1);
      const auto line = dis.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
      if (line.find(e.insn) != std::string::npos && line.find(e.reg) != std::string::npos) ++fmas;
      pos = pos + 1;
    }
    EXPECT_GE(fmas, e.at_least) << e.symbol << ":\n" << dis;
    // The chains live in registers: no loads or stores between the FMAs of the loop.
    EXPECT_EQ(count(dis, "call"), 0u) << e.symbol;
  }
#endif
}

TEST(HostLatency, SattoloBuildsOneCycleThroughEveryNode) {
  for (std::size_t nodes : {2u, 3u, 17u, 1000u, 4096u}) {
    for (std::uint64_t seed : {1ull, 0x5eedc0deull}) {
      auto buf = Buffer::map(nodes * kNodeStride, false);
      ASSERT_TRUE(buf);
      build_cycle(buf->data(), nodes, kNodeStride, seed);
      EXPECT_EQ(cycle_length(buf->data(), nodes), nodes) << nodes;
      // Every node is visited exactly once, and every pointer lands on a node boundary.
      std::vector<char> seen(nodes, 0);
      const auto* base = static_cast<const unsigned char*>(buf->data());
      const void* p = base;
      for (std::size_t i = 0; i < nodes; ++i) {
        const auto off = static_cast<std::size_t>(static_cast<const unsigned char*>(p) - base);
        ASSERT_EQ(off % kNodeStride, 0u);
        ASSERT_LT(off / kNodeStride, nodes);
        EXPECT_EQ(seen[off / kNodeStride], 0);
        seen[off / kNodeStride] = 1;
        p = chase(p, 1);
      }
      EXPECT_EQ(p, base);
      EXPECT_EQ(chase(base, 3 * nodes), base);
    }
  }
}

TEST(HostLatency, CycleLengthReportsANonCycle) {
  // Two nodes pointing at each other, the start not on the cycle: no return within the limit.
  std::array<const void*, 24> mem{};
  mem[0] = &mem[8];
  mem[8] = &mem[16];
  mem[16] = &mem[8];
  EXPECT_EQ(cycle_length(&mem[0], 10), 11u);
}

TEST(HostClock, AddChainAddsAndGivesAPlausibleClock) {
  EXPECT_EQ(add_chain(1000), 1000u * kAddsPerIteration);
  const double mhz = add_chain_mhz(0.5);
  EXPECT_GT(mhz, 100.0);    // slower than 100 MHz: the chain did not run one add per cycle
  EXPECT_LT(mhz, 10000.0);  // faster than 10 GHz: the adds were not dependent
  const auto t = probe_steady_clock();
  EXPECT_GT(t.resolution_ns, 0.0);
  EXPECT_LT(t.resolution_ns, 1e6);
}

}  // namespace
}  // namespace wgb::host
