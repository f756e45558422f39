// The host definitions (definitions.hpp): peak FMA in f32 and f64, the four STREAM kernels, and
// dependent-load latency, each with its fixture, body, closed-form check, work model and curves.
#include "host/definitions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <type_traits>

#include "host/buffer.hpp"
#include "host/host.hpp"
#include "report/table.hpp"

namespace wgb::host {

using json = nlohmann::json;

std::uint64_t round_up(std::uint64_t v, std::uint64_t g) { return g == 0 ? v : (v + g - 1) / g * g; }

std::vector<std::uint64_t> size_points(std::uint64_t lo, std::uint64_t hi, int per_octave, std::uint64_t granule) {
  std::vector<std::uint64_t> out;
  granule = std::max<std::uint64_t>(1, granule);
  lo = std::max(lo, granule);
  hi = std::max(hi, lo);
  per_octave = std::max(1, per_octave);
  for (int k = 0; k < 10000; ++k) {
    const double v = static_cast<double>(lo) * std::pow(2.0, static_cast<double>(k) / per_octave);
    if (v > static_cast<double>(hi) * (1 + 1e-9)) break;
    const std::uint64_t r = std::max(granule, round_up(static_cast<std::uint64_t>(std::llround(v)), granule));
    if (out.empty() || r > out.back()) out.push_back(r);
  }
  const std::uint64_t last = round_up(hi, granule);
  if (out.empty() || out.back() < last) out.push_back(last);
  return out;
}

double Point::clock_mhz() const {
  std::vector<double> v;
  std::copy_if(member_mhz.begin(), member_mhz.end(), std::back_inserter(v), [](double m) { return m > 0; });
  return measure::median(v);
}

namespace {

const Metric kBytesMetric{"bytes", "B", "Bytes moved (STREAM counting: arrays read + written, no write-allocate)"};
const Metric kFlopsMetric{"flops", "FLOP", "Floating-point operations (an FMA counts 2)"};
const Metric kLoadsMetric{"loads", "load", "Dependent loads (one per 64-byte node)"};

HostDefinition named(std::string id, std::string label, std::string description, std::string family, Regime regime,
                     const Metric& metric) {
  HostDefinition d;
  d.id = std::move(id);
  d.label = std::move(label);
  d.description = std::move(description);
  d.family = std::move(family);
  d.regime = regime;
  d.metric = metric;
  return d;
}

std::string bytes_text(std::uint64_t bytes) { return report::format_bytes(static_cast<double>(bytes)); }

std::string huge_pages_text(const HostEnv& env) {
  return env.o.huge_pages ? "madvise(MADV_HUGEPAGE)" : "not requested (THP: " + env.thp + ")";
}

// ---- FMA ----------------------------------------------------------------------------------------

// Values stay finite and normal: x <- x*m + a contracts from [1, 2) towards a/(1-m) (40.96 in f32,
// 10.49 in f64). `a` has bits below x's last place, so a separate multiply and add (two roundings)
// would give different bits than the fused operation: the check can fail.
template <class T>
struct Fma;
template <>
struct Fma<float> {
  static constexpr float m = 1.0f - 0x1p-12f, a = 0.01f;
  static constexpr auto* run = &fma_f32;
  static constexpr auto* reference = &fma_reference_f32;
};
template <>
struct Fma<double> {
  static constexpr double m = 1.0 - 0x1p-20, a = 1e-5;
  static constexpr auto* run = &fma_f64;
  static constexpr auto* reference = &fma_reference_f64;
};

template <class T>
void fma_init(T* dst, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) dst[j] = static_cast<T>(1.0 + static_cast<double>(j) / static_cast<double>(n));
}

// One page per member (no sharing), and two more for the check against the reference.
struct FmaFixture : HostFixture {
  Buffer buf;
  std::size_t slot = 0, n = 0;
  template <class T>
  T* state(unsigned member) const {
    return reinterpret_cast<T*>(static_cast<unsigned char*>(buf.data()) + slot * member);
  }
};

template <class T>
HostDefinition fma_definition(std::string id, std::string label, std::string description) {
  constexpr bool f64 = std::is_same_v<T, double>;
  HostDefinition d = named(std::move(id), std::move(label), std::move(description), "fma", Regime::Compute, kFlopsMetric);
  d.curves = [](const HostEnv& env) {
    Curve c{"threads", "threads", "FMA rate over thread count (pinned as stated)", false, {}};
    for (unsigned t : env.thread_list) c.points.push_back({t, 0, fmt::format("threads {}", t)});
    return std::vector<Curve>{c};
  };
  d.fixture = [](const HostEnv& env, ThreadTeam& team, const PointSpec&) -> Expected<std::unique_ptr<HostFixture>> {
    auto f = std::make_unique<FmaFixture>();
    f->n = fma_shape(env.isa, f64).state();
    f->slot = round_up(f->n * sizeof(double), 4096);
    auto buf = Buffer::map(f->slot * (team.size() + 2), false);
    if (!buf) return std::move(buf).error();
    f->buf = std::move(*buf);
    return std::unique_ptr<HostFixture>(std::move(f));
  };
  d.kernel = [](HostFixture& fixture, const HostEnv& env, ThreadTeam& team, const PointSpec&) {
    auto& f = static_cast<FmaFixture&>(fixture);
    const unsigned members = team.size();
    const FmaShape shape = fma_shape(env.isa, f64);
    HostKernel k;
    k.body = [&f, isa = env.isa](unsigned t, std::uint64_t repeat) {
      T* st = f.state<T>(t);
      fma_init(st, f.n);  // every region starts from the same state, so every result can be compared
      Fma<T>::run(isa, st, Fma<T>::m, Fma<T>::a, repeat);
    };
    // Checks: (1) the timed results are finite and identical on every member; (2) the kernel
    // equals the scalar std::fma reference bit for bit over 2048 iterations (a mul+add pair would
    // round twice and differ), which also proves the instruction fuses.
    k.check = [&f, isa = env.isa, members, shape] {
      const std::size_t bytes = f.n * sizeof(T);
      bool same = true, finite = true;
      for (unsigned t = 0; t < members; ++t) {
        same = same && std::memcmp(f.state<T>(0), f.state<T>(t), bytes) == 0;
        finite = finite && std::all_of(f.state<T>(t), f.state<T>(t) + f.n, [](T v) { return std::isfinite(v); });
      }
      constexpr std::uint64_t kCheckIterations = 2048;
      T* kernel = f.state<T>(members);
      T* reference = f.state<T>(members + 1);
      fma_init(kernel, f.n);
      fma_init(reference, f.n);
      Fma<T>::run(isa, kernel, Fma<T>::m, Fma<T>::a, kCheckIterations);
      Fma<T>::reference(reference, f.n, Fma<T>::m, Fma<T>::a, kCheckIterations);
      const bool exact = std::memcmp(kernel, reference, bytes) == 0;
      return Check{same && finite && exact,
                   fmt::format("{} lanes x {} chains: timed results {} and {} on all {} members; {} iterations {} the "
                               "scalar std::fma reference bit for bit",
                               shape.lanes, shape.accumulators, finite ? "finite" : "NOT finite",
                               same ? "identical" : "DIFFERENT", members, kCheckIterations, exact ? "equal" : "DO NOT equal")};
    };
    k.work.operations = static_cast<double>(members) * shape.flops_per_iteration();
    k.x.threads = members;
    return k;
  };
  d.describe = [](const HostEnv& env, const Point&, std::vector<std::string>& notes, report::HostRowParameters& p) {
    const FmaShape shape = fma_shape(env.isa, f64);
    const char* isa = env.isa == FmaIsa::Avx512 ? "avx512" : env.isa == FmaIsa::Avx2 ? "avx2" : "scalar";
    p.input = {{"element_type", f64 ? "f64" : "f32"},
               {"shape", fmt::format("{} independent vector chains x {} lanes per member, in registers",
                                     shape.accumulators, shape.lanes)},
               {"alignment", "registers; the state is loaded from and stored to a page per member"},
               {"numerical_character",
                "x <- x*m + a from x0 in [1, 2); f32 m = 1 - 2^-12, a = 0.01; f64 m = 1 - 2^-20, a = 1e-5: "
                "finite, normal, no denormals, contracting towards a/(1-m)"},
               {"kernel_isa", to_string(env.isa)},
               {"kernel_symbol", fmt::format("wgb_host_fma_{}_{}", f64 ? "f64" : "f32", isa)},
               {"flops_per_iteration_per_member", shape.flops_per_iteration()}};
    if (env.isa == FmaIsa::Scalar) {
      p.note = "no vector FMA instruction set: the scalar fallback is not a peak";
      notes.push_back("scalar std::fma fallback: not a peak rate");
    }
  };
  return d;
}

// ---- STREAM -------------------------------------------------------------------------------------

// One mapping; a at a 2 MiB boundary, b and c after it, each array's start offset by a further
// 1 KiB so that a[i], b[i], c[i] never share address bits 0-11 (no 4K aliasing between the stores
// of one array and the loads of another). First touched by the team with the kernels' partition.
struct StreamFixture : HostFixture {
  Buffer buf;
  double* a = nullptr;
  double* b = nullptr;
  double* c = nullptr;
  std::size_t n = 0;
  std::size_t align = 8;
  StreamModel model;  // the scalar model of the kernels run so far on these arrays
  Block block(unsigned t, unsigned members) const { return block_of(n, t, members, align); }
};

Expected<std::unique_ptr<HostFixture>> stream_fixture(const HostEnv& env, ThreadTeam& team, const PointSpec& at) {
  auto s = std::make_unique<StreamFixture>();
  s->n = at.bytes / sizeof(double);
  const std::size_t slot = round_up(s->n * sizeof(double), 4096);
  auto buf = Buffer::map(3 * slot + 3 * 1024, env.o.huge_pages);
  if (!buf) return std::move(buf).error();
  s->buf = std::move(*buf);
  auto* base = static_cast<unsigned char*>(s->buf.data());
  s->a = reinterpret_cast<double*>(base);
  s->b = reinterpret_cast<double*>(base + slot + 1024);
  s->c = reinterpret_cast<double*>(base + 2 * slot + 2048);
  // Page-sized blocks (512 doubles) when blocks are large, so each page is first touched by the
  // member that uses it; cache-line blocks otherwise.
  const unsigned T = team.size();
  s->align = s->n / std::max(1u, T) >= 4096 ? 512 : 8;
  team.run([&s = *s, T](unsigned t) {
    const Block b = s.block(t, T);
    std::fill(s.a + b.begin, s.a + b.end, 1.0);
    std::fill(s.b + b.begin, s.b + b.end, 2.0);
    std::fill(s.c + b.begin, s.c + b.end, 0.0);
  });
  return std::unique_ptr<HostFixture>(std::move(s));
}

std::uint64_t stream_head_bytes(const HostEnv& env) { return round_up(env.array_bytes / sizeof(double), 8) * 8; }

std::vector<Curve> stream_curves(const HostEnv& env) {
  const std::uint64_t head = stream_head_bytes(env);
  std::vector<Curve> curves(1, Curve{"threads", "threads",
                                     "bandwidth over thread count at the headline array size; fresh arrays "
                                     "first-touched by each team",
                                     false,
                                     {}});
  for (unsigned t : env.thread_list) {
    curves[0].points.push_back({t, head, fmt::format("threads {} array {}", t, bytes_text(head))});
  }
  if (!env.o.size_sweep) return curves;
  curves.push_back({"working_set", "working_set_bytes",
                    "bandwidth over working-set size (all arrays the kernel touches) at the headline thread count; "
                    "fresh arrays per size",
                    true,
                    {}});
  const std::uint64_t hi = env.o.sweep_max_bytes ? env.o.sweep_max_bytes : env.array_bytes;
  for (std::uint64_t bytes : size_points(env.o.sweep_min_bytes, hi, env.o.points_per_octave, 64ull * env.threads)) {
    curves[1].points.push_back({env.threads, bytes, fmt::format("array {}", bytes_text(bytes))});
  }
  return curves;
}

json stream_input(const HostEnv& env) {
  const std::uint64_t bytes = stream_head_bytes(env);
  return {{"array_bytes", bytes},
          {"elements", bytes / sizeof(double)},
          {"element_type", "f64"},
          {"shape", "three 1-D contiguous arrays a, b, c of n doubles"},
          {"alignment",
           "a at a 2 MiB boundary (mmap); b and c follow at +1 KiB and +2 KiB modulo 4 KiB "
           "(64-byte aligned, no 4K aliasing between arrays)"},
          {"numerical_character",
           "uniform arrays: a=1, b=2, c=0 at first touch, scalar 3.0 (STREAM); every "
           "value a small exact integer, so the closed-form check is exact"},
          {"last_level_cache_bytes", env.llc},
          {"array_vs_llc", env.llc > 0 ? json(static_cast<double>(bytes) / static_cast<double>(env.llc)) : json(nullptr)},
          {"huge_pages", huge_pages_text(env)},
          {"stores", "regular (compiler-generated) stores; write-allocate traffic is not counted"},
          {"kernel_isa", stream_isa() + " (target_clones resolver)"}};
}

HostDefinition stream_definition(StreamOp op, std::string label, std::string description) {
  HostDefinition d = named(std::string("host-stream-") + to_string(op), std::move(label), std::move(description),
                           "stream", Regime::Memory, kBytesMetric);
  d.shares = "stream-arrays";
  d.curves = stream_curves;
  d.fixture = stream_fixture;
  d.kernel = [op](HostFixture& fixture, const HostEnv&, ThreadTeam& team, const PointSpec&) {
    auto& s = static_cast<StreamFixture&>(fixture);
    const unsigned T = team.size();
    HostKernel k;
    k.body = [&s, op, T](unsigned t, std::uint64_t repeat) {
      const Block b = s.block(t, T);
      stream_repeat(op, s.a + b.begin, s.b + b.begin, s.c + b.begin, b.size(), repeat);
    };
    // The closed-form STREAM check: every element of the array this kernel wrote must equal the
    // scalar model (repeats of one kernel are idempotent: it never reads what it writes).
    k.check = [&s, &team, op, T] {
      s.model.apply(op);
      const bool to_c = op == StreamOp::Copy || op == StreamOp::Add;
      const double* out = to_c ? s.c : op == StreamOp::Scale ? s.b : s.a;
      const double expected = to_c ? s.model.c : op == StreamOp::Scale ? s.model.b : s.model.a;
      std::vector<double> err(T, 0.0);
      team.run([&](unsigned t) {
        const Block b = s.block(t, T);
        err[t] = stream_relative_error(out + b.begin, b.size(), expected) * static_cast<double>(b.size());
      });
      double total = 0;
      for (double e : err) total += e;
      total /= static_cast<double>(s.n);
      return Check{total <= kStreamEpsilon,
                   fmt::format("STREAM check: {} of {} elements vs closed form {} (mean relative error {:.3g}, "
                               "epsilon {:g})",
                               to_string(op), s.n, expected, total, kStreamEpsilon)};
    };
    const double bytes = static_cast<double>(s.n) * sizeof(double);
    k.work.bytes_read = (arrays_touched(op) - 1) * bytes;
    k.work.bytes_written = bytes;
    k.work.operations = flops_per_element(op) * static_cast<double>(s.n);
    k.x = {.threads = T,
           .array_bytes = s.n * sizeof(double),
           .working_set_bytes = arrays_touched(op) * s.n * sizeof(double)};
    return k;
  };
  d.describe = [](const HostEnv& env, const Point&, std::vector<std::string>& notes, report::HostRowParameters& p) {
    const std::uint64_t head = stream_head_bytes(env);
    if (env.llc > 0 && head < 4 * env.llc) {
      notes.push_back(fmt::format("arrays are {} each, below 4x the last-level cache ({}): the headline is not a "
                                  "memory-bandwidth measurement",
                                  bytes_text(head), bytes_text(4 * env.llc)));
    }
    p.input = stream_input(env);
  };
  return d;
}

// ---- dependent-load latency ---------------------------------------------------------------------

// One random cycle (Sattolo) through nodes of one cache line, built by the one pinned member so
// the walk's pages are touched on its node.
struct ChainFixture : HostFixture {
  Buffer buf;
  std::size_t nodes = 0, length = 0;
  const void* cursor = nullptr;
  report::HostPointAt x;
};

HostDefinition latency_definition() {
  HostDefinition d = named("host-load-latency", "Host load latency",
                           "Dependent-load latency: a pointer chase through one random cycle of 64-byte nodes (value: "
                           "loads per second; ns_per_load in parameters)",
                           "latency", Regime::Latency, kLoadsMetric);
  d.curves = [](const HostEnv& env) {
    Curve c{"working_set", "working_set_bytes", "dependent-load latency over working-set size, one pinned thread",
            true, {}};
    const auto sizes = env.o.size_sweep
                           ? size_points(env.o.sweep_min_bytes, env.latency_max, env.o.points_per_octave, kNodeStride)
                           : std::vector<std::uint64_t>{round_up(env.latency_max, kNodeStride)};
    for (auto bytes : sizes) c.points.push_back({1, bytes, fmt::format("working set {}", bytes_text(bytes))});
    return std::vector<Curve>{c};
  };
  d.fixture = [](const HostEnv& env, ThreadTeam& team, const PointSpec& at) -> Expected<std::unique_ptr<HostFixture>> {
    auto f = std::make_unique<ChainFixture>();
    f->nodes = std::max<std::size_t>(2, at.bytes / kNodeStride);
    auto buf = Buffer::map(f->nodes * kNodeStride, env.o.huge_pages);
    if (!buf) return std::move(buf).error();
    f->buf = std::move(*buf);
    f->cursor = f->buf.data();
    team.run([&f = *f, seed = env.o.seed](unsigned) {
      build_cycle(f.buf.data(), f.nodes, kNodeStride, seed);
      f.length = cycle_length(f.buf.data(), f.nodes);  // one full walk: the check, and the first warm-up
    });
    f->x = {.working_set_bytes = f->nodes * kNodeStride, .nodes = f->nodes};
    // Whether huge pages were really used: the process's AnonHugePages now (the buffer dominates).
    if (env.o.huge_pages) f->x.anon_huge_pages_kib = proc_kib("/proc/self/smaps_rollup", "AnonHugePages");
    return std::unique_ptr<HostFixture>(std::move(f));
  };
  d.kernel = [](HostFixture& fixture, const HostEnv&, ThreadTeam&, const PointSpec&) {
    auto& f = static_cast<ChainFixture&>(fixture);
    HostKernel k;
    k.body = [&f](unsigned, std::uint64_t repeat) { f.cursor = chase(f.cursor, repeat); };
    k.check = [&f] {
      keep(f.cursor);
      const bool single = f.length == f.nodes;
      return Check{single, fmt::format("Sattolo cycle over {} nodes of {} B: the walk returns after {} hops ({})",
                                       f.nodes, kNodeStride,
                                       f.length > f.nodes ? fmt::format("more than {}", f.nodes)
                                                          : fmt::format("{}", f.length),
                                       single ? "one single cycle" : "NOT a single cycle")};
    };
    k.work.operations = 1;  // one pass = one hop
    k.x = f.x;
    k.after = [](Point& p) {
      p.x.ns_per_load = p.sum.time_ms * 1e6;
      p.x.cycles_per_load = p.clock_mhz() * 1e6 * p.sum.time_ms * 1e-3;
    };
    return k;
  };
  d.describe = [](const HostEnv& env, const Point& head, std::vector<std::string>&, report::HostRowParameters& p) {
    p.input = {{"working_set_bytes", head.x.working_set_bytes ? json(*head.x.working_set_bytes) : json(nullptr)},
               {"shape", "nodes of 64 B (one cache line), each holding the address of the next"},
               {"alignment", "buffer at a 2 MiB boundary; nodes 64-byte aligned"},
               {"numerical_character",
                fmt::format("one random cycle through all nodes (Sattolo), seed {:#x}; pointer values", env.o.seed)},
               {"huge_pages", huge_pages_text(env)},
               {"last_level_cache_bytes", env.llc}};
    p.ns_per_load = head.sum.time_ms * 1e6;
  };
  d.progress_value = [](const Point& p) { return fmt::format("{:.2f} ns/load", p.sum.time_ms * 1e6); };
  return d;
}

}  // namespace

const std::vector<HostDefinition>& host_benchmarks() {
  static const std::vector<HostDefinition> list = {
      fma_definition<float>("host-fma-f32", "Host FMA f32",
                            "Peak f32 FMA rate of the host CPU: independent vector FMA chains in registers on every "
                            "member thread (minimum time: compute-bound)"),
      fma_definition<double>("host-fma-f64", "Host FMA f64", "Peak f64 FMA rate of the host CPU, as host-fma-f32 in doubles"),
      stream_definition(StreamOp::Copy, "Host STREAM copy", "STREAM copy c = a (16 B per element)"),
      stream_definition(StreamOp::Scale, "Host STREAM scale", "STREAM scale b = q c (16 B per element)"),
      stream_definition(StreamOp::Add, "Host STREAM add", "STREAM add c = a + b (24 B per element)"),
      stream_definition(StreamOp::Triad, "Host STREAM triad",
                        "STREAM triad a = b + q c (24 B per element); with arrays >= 4x the last-level cache, the "
                        "host's measured stream bandwidth"),
      latency_definition(),
  };
  return list;
}

}  // namespace wgb::host
