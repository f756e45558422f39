// Work models of the raw catalog against hand-computed counts, the ALU template expander, and the
// host twins and checks of the bandwidth kernels (no GPU: the checks are fed data directly, so
// each is seen to reject corrupted data).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "catalog/bandwidth/bandwidth.hpp"
#include "catalog/compute/alu.hpp"
#include "catalog/texture/texture.hpp"
#include "gpu/hash.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {
namespace {

using catalog::alu::find_probe;
using catalog::alu::probes;
namespace bw = catalog::bandwidth;

// Hand counts: metric units per invocation per loop trip.
//   FMA/MAD shapes: 256 FMAs (8 chains x 32, 4 vec4 x 16 x 4, 4 mat4 updates x 64, 8 matvec
//   updates x 2 vectors x 16) x 2 = 512; dot products: 8 ops each, 8 chains x 128 steps = 1,024 for
//   the dp4a chains (8192), 16 updates x 16 for the matvec (2048); one-result ops: 8 x 32 =
//   256; sincos and conversions: 2 per step = 512.
const std::map<std::string, double> kHandCounts = {
    {"f32-fma-scalar", 512}, {"f32-fma-vec4", 512}, {"f32-fma-mat4", 512}, {"f32-fma-matvec", 512},
    {"f16-fma-scalar", 512}, {"f16-fma-vec4", 512}, {"f16-fma-mat4", 512}, {"f16-fma-matvec", 512},
    {"i32-mad-scalar", 512}, {"i32-mad-vec4", 512}, {"i32-mad-mat4", 512}, {"i32-mad-matvec", 512},
    {"i8-dp4a", 8192},       {"i8-dp4a-matvec", 2048}, {"u8-dp4a", 8192},     {"u32-shift", 256},
    {"branch-none", 512},    {"branch-uniform", 512}, {"branch-coherent", 512}, {"branch-divergent", 512},
    {"f32-div", 256},        {"f32-sqrt", 256},       {"f32-rsqrt", 256},     {"f32-log", 256},
    {"f32-pow", 256},        {"f32-sincos", 512},     {"f16-div", 256},       {"f16-sqrt", 256},
    {"f16-rsqrt", 256},      {"f16-log", 256},        {"f16-pow", 256},       {"f16-sincos", 512},
    {"i32-f32-convert", 512}, {"f32-f16-convert", 512}, {"u32-countonebits", 256}, {"u32-reversebits", 256},
    {"u32-firstleadingbit", 256},
    // Counted as webgpu-bench-core counts the same ids: the explicit fma() 2 per FMA, a divide-add 2
    // (like a multiply-add), a byte unpack + repack of a u32 2, a select or a clamp 1, a min + max 2.
    {"f32-fma-builtin", 512}, {"i32-div", 512}, {"u32-packunpack", 512}, {"f32-select", 256},
    {"f32-clamp", 256},       {"f32-minmax", 512},
};

TEST(WorkModel, EveryAluProbeHasItsHandCount) {
  ASSERT_EQ(probes().size(), kHandCounts.size());
  for (const auto& [id, count] : kHandCounts) {
    const auto* p = find_probe(id);
    ASSERT_NE(p, nullptr) << id;
    EXPECT_DOUBLE_EQ(p->ops_per_iteration, count) << id;
    // 1000 invocations x 7 loop trips.
    EXPECT_DOUBLE_EQ(catalog::alu::work_model(*p, 1000, 7).operations, 7000.0 * count) << id;
    EXPECT_EQ(catalog::alu::work_model(*p, 1000, 7).bytes_read, 0) << id;
  }
  // An FMA counts 2, and the metric says so.
  EXPECT_NE(find_probe("f32-fma-vec4")->metric.name.find("FMA counts 2"), std::string::npos);
  EXPECT_NE(find_probe("i32-mad-mat4")->metric.name.find("multiply-add counts 2"), std::string::npos);
  EXPECT_EQ(find_probe("f32-fma-scalar")->metric.key, "flops");
}

// Texture probes: two rgba32float texels (32 bytes) per interpolated sample, 256 samples per
// invocation per loop trip, the same count for the sampler and the shader path.
TEST(WorkModel, TextureProbesCountTwoTexelsPerSample) {
  const auto w = catalog::texture::work_model(1000, 7);
  EXPECT_DOUBLE_EQ(w.bytes_read, 1000.0 * 7 * 256 * 32);
  EXPECT_EQ(w.bytes_written, 0);
  EXPECT_EQ(w.operations, 0);
  std::size_t found = 0;
  for (const auto& d : builtin_benchmarks()) {
    if (d.category != "texture") continue;
    ++found;
    EXPECT_EQ(d.metric.key, "bytes") << d.id;
    EXPECT_NE(d.description.find("32 bytes per sample"), std::string::npos) << d.id;
    EXPECT_EQ(d.source.find("template error"), std::string::npos) << d.id;
    EXPECT_EQ(d.source.find('$'), std::string::npos) << d.id;
  }
  EXPECT_EQ(found, 2u);
  // The host's interpolation: quarter-texel steps from the first texel's centre.
  const auto tex = catalog::texture::texels(catalog::texture::kWidth);
  for (float v : tex) {
    EXPECT_GE(v, -0.5f);
    EXPECT_LT(v, 0.5f);
  }
  auto p = catalog::texture::params(1, 1);
  EXPECT_FLOAT_EQ(p.inv, 1.0f / (4 * 4096));
  const auto one = catalog::texture::reference(p, tex, 0);
  p.iterations = 2;
  const auto two = catalog::texture::reference(p, tex, 0);
  EXPECT_NE(one.value, two.value);
  EXPECT_GT(two.scale, one.scale);
}

TEST(WorkModel, ScatterBytesScaleWithTheWindow) {
  constexpr std::uint64_t kMiB = 1 << 20;
  // Default size: 64 MiB. 16 KiB window: 4096 rounds; 4 MiB: 16; 64 MiB: 1. Always 64 MiB written.
  auto p = bw::scatter_plan(64 * kMiB, bw::kWindow16k);
  EXPECT_EQ(p.n, 1024u);
  EXPECT_EQ(p.rounds, 4096u);
  EXPECT_EQ(p.bytes_written, 64 * kMiB);
  p = bw::scatter_plan(64 * kMiB, bw::kWindow4m);
  EXPECT_EQ(p.n, 262144u);
  EXPECT_EQ(p.rounds, 16u);
  p = bw::scatter_plan(64 * kMiB, bw::kWindow64m);
  EXPECT_EQ(p.n, 4194304u);
  EXPECT_EQ(p.rounds, 1u);
  // 3 MiB: the 4 MiB and 64 MiB windows clamp to the largest power of two (2 MiB), one round.
  p = bw::scatter_plan(3 * kMiB, bw::kWindow64m);
  EXPECT_EQ(p.n, 131072u);
  EXPECT_EQ(p.rounds, 1u);
  EXPECT_EQ(p.bytes_written, 2 * kMiB);
  p = bw::scatter_plan(3 * kMiB, bw::kWindow16k);
  EXPECT_EQ(p.rounds, 192u);
  EXPECT_EQ(p.bytes_written, 3 * kMiB);
  EXPECT_EQ(bw::window_elements(bw::kWindow16k, 16), 1u);
}

TEST(WorkModel, RawCatalogIdsAreAllPresentWithMetrics) {
  std::set<std::string> ids;
  for (const auto& d : builtin_benchmarks()) {
    ids.insert(d.id);
    if (d.category == "bandwidth") {
      EXPECT_EQ(d.metric.key, "bytes") << d.id;
      EXPECT_EQ(d.statistic, Statistic::Median) << d.id;
    }
    if (d.category == "compute") {
      EXPECT_EQ(d.statistic, Statistic::Best) << d.id;
      EXPECT_NE(d.description.find("Counts results"), std::string::npos) << d.id;
      EXPECT_FALSE(d.source.empty()) << d.id;
      EXPECT_EQ(d.source.find("template error"), std::string::npos) << d.id << ": " << d.source.substr(0, 200);
    }
  }
  for (const char* id : {"texture-interp-builtin", "texture-interp-manual"}) EXPECT_TRUE(ids.count(id)) << id;
  for (const char* id : {"read-linear", "write-linear", "read-gather-16kb", "read-gather-4mb", "read-gather-64mb",
                         "write-scatter-16kb", "write-scatter-4mb", "write-scatter-64mb"}) {
    EXPECT_TRUE(ids.count(id)) << id;
  }
  for (const auto& [id, count] : kHandCounts) EXPECT_TRUE(ids.count(id)) << id;
}

TEST(AluTemplate, RepeatBlocksUnrollAndNest) {
  auto out = catalog::alu::expand("a\n//#repeat s 2\n//#repeat k 3\nx$k = f$s($OP);\n//#end\n//#end\nb\n",
                                  {{"OP", "y$k"}});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(*out,
            "a\nx0 = f0(y0);\nx1 = f0(y1);\nx2 = f0(y2);\nx0 = f1(y0);\nx1 = f1(y1);\nx2 = f1(y2);\nb\n");
}

TEST(AluTemplate, MalformedTemplatesFail) {
  EXPECT_FALSE(catalog::alu::expand("//#repeat k 2\nx\n", {}));       // no //#end
  EXPECT_FALSE(catalog::alu::expand("x\n//#end\n", {}));              // //#end without //#repeat
  EXPECT_FALSE(catalog::alu::expand("//#repeat k zero\nx\n//#end\n", {}));
  EXPECT_FALSE(catalog::alu::expand("x = $UNKNOWN;\n", {}));          // unresolved token
}

TEST(AluTemplate, GeneratedSourcesAreLongUnrolledBodies) {
  // Dawn's robustness adds a guard per pass of a loop: each pass must carry hundreds of operations.
  // fma_scalar/fma_vec4 run four trips per pass in f32, then single trips for the remainder;
  // f16-fma-scalar one trip per pass (a CPU driver converts around every f16 step).
  auto fma_statements = [](const std::string& src) {
    std::size_t fmas = 0;  // statements (comment lines excluded)
    std::istringstream lines(src);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("//") == std::string::npos && line.find("= fma(") != std::string::npos) ++fmas;
    }
    return fmas;
  };
  // f32-fma-scalar writes the multiply-add out (the compiler may contract it); f32-fma-builtin and
  // f16-fma-scalar call fma() by name. Same chains, same trips.
  auto mad_statements = [](const std::string& src) {
    std::size_t n = 0;
    std::istringstream lines(src);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("//") == std::string::npos && line.find(" * m + c;") != std::string::npos) ++n;
    }
    return n;
  };
  const std::string src = find_probe("f32-fma-builtin")->source();
  EXPECT_EQ(fma_statements(src), 4u * 256 + 256);   // 8 chains x (128 + 32) steps
  EXPECT_EQ(fma_statements(find_probe("f16-fma-scalar")->source()), 256u + 256);  // 8 chains x (32 + 32) steps
  EXPECT_EQ(mad_statements(find_probe("f32-fma-scalar")->source()), 4u * 256 + 256);
  EXPECT_EQ(fma_statements(find_probe("f32-fma-scalar")->source()), 0u);
  EXPECT_NE(find_probe("f32-clamp")->source().find("clamp(x7 * m + cn, 0.0, 1.0)"), std::string::npos);
  EXPECT_NE(find_probe("f32-minmax")->source().find("max(min(x7 * m + cn, 1.0), 0.0)"), std::string::npos);
  EXPECT_NE(find_probe("i32-div")->source().find("x7 = a / x7 + bn;"), std::string::npos);
  EXPECT_EQ(fma_statements(find_probe("f32-fma-vec4")->source()), 4u * 64 + 64);  // 2 chains x (128 + 32)
  // f16-fma-vec4 has two forms: four trips per pass with the addend read apart on GPUs, one trip per
  // pass with the addend built from the multiplier's values on CPU adapters.
  const catalog::alu::Probe& h4 = *find_probe("f16-fma-vec4");
  EXPECT_EQ(fma_statements(h4.source(catalog::alu::Form::Gpu)), 4u * 64 + 64);  // 4 chains x (64 + 16)
  EXPECT_EQ(fma_statements(h4.source(catalog::alu::Form::Cpu)), 4u * 16 + 64);  // 4 chains x (16 + 16)
  EXPECT_NE(h4.source(catalog::alu::Form::Gpu).find("let c = vec4<T>(T(p.f.w)"), std::string::npos);
  EXPECT_NE(h4.source(catalog::alu::Form::Cpu).find("let c = vec4<T>(b, a, b, a);"), std::string::npos);
  EXPECT_EQ(h4.source(), h4.source(catalog::alu::Form::Gpu));  // the definition's source is the GPU form
  // f32-f16-convert: a trip straight-line on GPUs, 32 passes of one step on CPU adapters.
  const catalog::alu::Probe& cv = *find_probe("f32-f16-convert");
  EXPECT_NE(cv.source(catalog::alu::Form::Gpu).find("g < 1u;"), std::string::npos);
  EXPECT_NE(cv.source(catalog::alu::Form::Cpu).find("g < 32u;"), std::string::npos);
  // Every other probe has one form.
  for (const auto& p : catalog::alu::probes()) {
    if (p.id == "f16-fma-vec4" || p.id == "f32-f16-convert") continue;
    EXPECT_TRUE(p.cpu_substitutions.empty()) << p.id;
    EXPECT_EQ(p.source(catalog::alu::Form::Gpu), p.source(catalog::alu::Form::Cpu)) << p.id;
  }
  // The unary probes run a trip's 32 steps in passes: of four in f32, of one in f16.
  EXPECT_NE(find_probe("f32-sincos")->source().find("g < 8u;"), std::string::npos);
  EXPECT_NE(find_probe("f16-sincos")->source().find("g < 32u;"), std::string::npos);
  EXPECT_EQ(src.find('$'), std::string::npos);
  EXPECT_TRUE(find_probe("f16-fma-vec4")->source().starts_with("enable f16;\nalias T = f16;"));
  EXPECT_TRUE(find_probe("f32-fma-vec4")->source().starts_with("alias T = f32;"));
  EXPECT_NE(find_probe("u8-dp4a")->source().find("dot4U8Packed"), std::string::npos);
  EXPECT_NE(find_probe("branch-divergent")->source().find("((n ^ lid) & 1u)"), std::string::npos);
}

TEST(BandwidthTwins, ScatterPermutationIsABijectionAtEveryWidth) {
  for (std::uint32_t bits = 0; bits <= 16; ++bits) {
    const auto shape = bw::scatter_shape(1u << bits, 0x1234u);
    for (std::uint32_t r : {0u, 1u, 77u}) {
      std::vector<bool> seen(shape.n, false);
      for (std::uint32_t i = 0; i < shape.n; ++i) {
        const std::uint32_t d = bw::scatter_perm(i, r, shape);
        ASSERT_LT(d, shape.n);
        ASSERT_FALSE(seen[d]) << "bits " << bits << " round " << r << " element " << i;
        seen[d] = true;
      }
    }
  }
}

// A one-round scatter result as the kernel leaves it: fill, then every element at its destination.
std::vector<std::uint32_t> scattered(const bw::ScatterShape& s, std::uint32_t fill_seed) {
  std::vector<std::uint32_t> words((s.n + bw::kSentinelElements) * 4);
  for (std::size_t w = 0; w < words.size(); ++w) words[w] = gpu::filled_word(w, fill_seed);
  for (std::uint32_t i = 0; i < s.n; ++i) {
    const auto v = bw::scatter_value(i, 0, i, s.seed);
    for (int c = 0; c < 4; ++c) words[bw::scatter_perm(i, 0, s) * 4 + c] = v[c];
  }
  return words;
}

TEST(BandwidthTwins, ScatterCheckRejectsMissedDoubleAndStrayWrites) {
  const auto shape = bw::scatter_shape(1024, 0xBEEFu);
  const auto good = scattered(shape, 7);
  EXPECT_TRUE(bw::check_scatter(good, shape, 7));
  // A destination written twice (element 5's value also lands on element 9's destination) means
  // element 9's destination lost its write.
  auto twice = good;
  const std::uint32_t d9 = bw::scatter_perm(9, 0, shape);
  const auto v5 = bw::scatter_value(5, 0, 5, shape.seed);
  for (int c = 0; c < 4; ++c) twice[d9 * 4 + c] = v5[c];
  EXPECT_FALSE(bw::check_scatter(twice, shape, 7));
  // A destination never written still holds the fill.
  auto missed = good;
  const std::uint32_t d3 = bw::scatter_perm(3, 0, shape);
  for (std::uint32_t c = 0; c < 4; ++c) missed[d3 * 4 + c] = gpu::filled_word(d3 * 4 + c, 7);
  EXPECT_FALSE(bw::check_scatter(missed, shape, 7));
  // A write just past the window.
  auto stray = good;
  stray[shape.n * 4] ^= 1;
  auto r = bw::check_scatter(stray, shape, 7);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("sentinel"), std::string::npos);
}

TEST(BandwidthTwins, WriteLinearCheckRejectsACorruptedWord) {
  std::vector<std::uint32_t> words(64 * 4);
  for (std::uint32_t i = 0; i < 64; ++i) {
    const auto v = bw::linear_value(i, 99);
    for (int c = 0; c < 4; ++c) words[i * 4 + c] = v[c];
  }
  EXPECT_TRUE(bw::check_write_linear(words, 99));
  EXPECT_FALSE(bw::check_write_linear(words, 98));
  words[37] ^= 0x100;
  EXPECT_FALSE(bw::check_write_linear(words, 99));
}

TEST(BandwidthTwins, GatherAddressesStayInTheWindow) {
  // With a window of one element every load reads element 0: the fold of `count` loads of the
  // same four words is their XOR over the parity of the load count.
  const bw::GatherStream one{.count = 6, .threads = 1, .seed = 3, .mask = 0, .shift = 0, .fill_seed = 11};
  const auto acc = bw::gather_fold(0, one);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(acc[c], 0u);  // six loads: an even count cancels
  const bw::GatherStream odd{.count = 5, .threads = 1, .seed = 3, .mask = 0, .shift = 0, .fill_seed = 11};
  const auto acc5 = bw::gather_fold(0, odd);
  for (std::uint32_t c = 0; c < 4; ++c) EXPECT_EQ(acc5[c], gpu::filled_word(c, 11));
  EXPECT_EQ(bw::gather_shift(10), 22u);
  EXPECT_EQ(bw::gather_shift(0), 0u);
}

TEST(BandwidthTwins, GatherPassesContinueTheStreams) {
  // Two passes of five loads from a one-element window: ten loads, an even count, cancel.
  const bw::GatherStream two{.count = 5, .threads = 1, .seed = 3, .mask = 0, .shift = 0, .fill_seed = 11,
                             .passes = 2};
  for (int c = 0; c < 4; ++c) EXPECT_EQ(bw::gather_fold(0, two)[c], 0u);
  // In a real window the second pass continues the LCG streams: not the first pass again.
  const bw::GatherStream one{.count = 64, .threads = 4, .seed = 3, .mask = 255, .shift = 24, .fill_seed = 11};
  bw::GatherStream again = one;
  again.passes = 2;
  EXPECT_NE(bw::gather_fold(1, again), (std::array<std::uint32_t, 4>{}));
}

// read-linear's blocks: a GPU block is one step of 1024 vec4 (16 KiB), a CPU block 64 steps; the
// last block of a size that is not a whole number of blocks is partial, and the fold of a lane
// covers exactly its own elements of its block.
TEST(BandwidthTwins, LinearBlocksCoverTheBufferOnce) {
  const auto gpu = bw::linear_plan(64ull << 20, bw::kGpuBlockSteps);
  EXPECT_EQ(gpu.count, 4194304u);
  EXPECT_EQ(gpu.blocks, 4096u);
  EXPECT_EQ(gpu.block_bytes(), 16384u);
  const auto cpu = bw::linear_plan(64ull << 20, bw::kCpuBlockSteps);
  EXPECT_EQ(cpu.blocks, 64u);
  EXPECT_EQ(cpu.block_bytes(), 1u << 20);
  const auto odd = bw::linear_plan(3 * 16384 + 48, 1);  // 3 whole blocks and 3 elements
  EXPECT_EQ(odd.blocks, 4u);

  // Every element is folded by exactly one (block, lane): the XOR of all folds is the XOR of the
  // buffer, and a lane past the end of the last block folds nothing.
  std::array<std::uint32_t, 4> all{}, want{};
  for (std::uint32_t b = 0; b < odd.blocks; ++b) {
    for (std::uint32_t lane = 0; lane < 256; ++lane) {
      const auto f = bw::block_fold(b, lane, odd, 5);
      for (int c = 0; c < 4; ++c) all[c] ^= f[c];
    }
  }
  for (std::uint64_t e = 0; e < odd.count; ++e) {
    for (std::uint32_t c = 0; c < 4; ++c) want[c] ^= gpu::filled_word(e * 4 + c, 5);
  }
  EXPECT_EQ(all, want);
  EXPECT_EQ(bw::block_fold(3, 3, odd, 5), (std::array<std::uint32_t, 4>{}));
  EXPECT_NE(bw::block_fold(3, 2, odd, 5), (std::array<std::uint32_t, 4>{}));
  // Lane 0 of block 1 loads elements 1024, 1280, 1536, 1792.
  std::array<std::uint32_t, 4> lane0{};
  for (std::uint64_t e : {1024, 1280, 1536, 1792}) {
    for (std::uint32_t c = 0; c < 4; ++c) lane0[c] ^= gpu::filled_word(e * 4 + c, 5);
  }
  EXPECT_EQ(bw::block_fold(1, 0, odd, 5), lane0);
  // Columns 8 wide (a CPU driver): lane 9 of block 0 at two steps per block owns column 1
  // (elements 64-127) and loads 65, 73, 81, 89, then 97, 105, 113, 121; every element still once.
  const auto cpu8 = bw::linear_plan(3 * 32768 + 48, 2, 8);
  std::array<std::uint32_t, 4> lane9{};
  for (std::uint64_t e : {65, 73, 81, 89, 97, 105, 113, 121}) {
    for (std::uint32_t c = 0; c < 4; ++c) lane9[c] ^= gpu::filled_word(e * 4 + c, 5);
  }
  EXPECT_EQ(bw::block_fold(0, 9, cpu8, 5), lane9);
  std::array<std::uint32_t, 4> all8{}, want8{};
  for (std::uint32_t b = 0; b < cpu8.blocks; ++b) {
    for (std::uint32_t lane = 0; lane < 256; ++lane) {
      const auto f = bw::block_fold(b, lane, cpu8, 5);
      for (int c = 0; c < 4; ++c) all8[c] ^= f[c];
    }
  }
  for (std::uint64_t e = 0; e < cpu8.count; ++e) {
    for (std::uint32_t c = 0; c < 4; ++c) want8[c] ^= gpu::filled_word(e * 4 + c, 5);
  }
  EXPECT_EQ(all8, want8);
}

TEST(BandwidthTwins, TicketsMustShowEveryBlockHandedOutOnce) {
  const auto plan = bw::linear_plan(64ull << 20, 1);
  EXPECT_TRUE(bw::check_tickets(2 * 4096 + 4096, plan, 2, 4096));
  auto short_by_one = bw::check_tickets(2 * 4096 + 4095, plan, 2, 4096);
  ASSERT_FALSE(short_by_one);
  EXPECT_NE(short_by_one.error().message.find("expected 12288"), std::string::npos) << short_by_one.error().message;
  // Tickets of a dispatch fit in 32 bits at the largest pass count.
  const std::uint32_t most = bw::max_passes(plan, 65535);
  EXPECT_LE(std::uint64_t{most} * plan.blocks + 65535, 0xffffffffull);
  EXPECT_EQ(bw::max_passes(bw::linear_plan(1 << 20, 64), 1), 1u << 20);  // capped
}

}  // namespace
}  // namespace wgb
