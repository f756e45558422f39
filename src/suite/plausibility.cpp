// Plausibility checks of completed rows (see plausibility.hpp).
#include "suite/plausibility.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>

#include "report/facts.hpp"

namespace wgb {

namespace {

bool contains_ci(std::string_view haystack, std::string_view needle) {
  auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != haystack.end();
}

std::string rate(double v, std::string_view unit) {
  const char* prefix[] = {"", "k", "M", "G", "T", "P", "E"};
  int i = 0;
  while (v >= 1000 && i < 6) {
    v /= 1000;
    ++i;
  }
  return fmt::format("{:.3g} {}{}/s", v, prefix[i], unit);
}

std::optional<std::string> above(double value, double ceiling, double margin, std::string_view unit,
                                 std::string_view what) {
  if (!(value > ceiling * margin)) return std::nullopt;
  return fmt::format("{} is above {} ({} x {:.2f} margin): the kernel may have been optimised away or its work "
                     "model overcounts",
                     rate(value, unit), what, rate(ceiling, unit), margin);
}

}  // namespace

// Published reference values only: NVIDIA H200 (SXM) datasheet and the Hopper whitepaper.
// HBM3e 4.8 TB/s; non-tensor FP32 67 TFLOP/s, FP16 134 TFLOP/s (the FMA counted as 2, at the
// 1.98 GHz maximum boost clock: 132 SMs x 128 FP32 lanes x 2 x 1.98 GHz = 66.9 T); INT32 33.5
// TOPS (64 lanes per SM, a MAD counted as 2); 50 MB L2. The int8 dot-product ceiling is DERIVED,
// not published: one dot product with accumulate issues at the INT32 MAD rate (as a CUDA __dp4a
// measurement of 133.7 TOPS on the H200 confirms) and counts 8 ops where a MAD counts 2, so
// 4 x 33.5. The H200 NVL has lower clocks and ceilings; matching it to these values only makes the
// check more lenient there.
std::optional<Ceilings> published_ceilings(std::string_view device_name) {
  if (contains_ci(device_name, "H200")) {
    Ceilings c;
    c.source = "published NVIDIA H200 SXM reference values";
    c.memory_source = c.source;
    c.memory_bytes_per_s = 4.8e12;
    c.last_level_cache_bytes = 50e6;
    c.fp32_flops = 67e12;
    c.fp16_flops = 134e12;
    c.int32_ops = 33.5e12;
    c.int8_dot_ops = 4 * 33.5e12;
    return c;
  }
  return std::nullopt;
}

Ceilings measured_copy_ceilings(double copy_bytes_per_s) {
  Ceilings c;
  c.memory_source = "this adapter's measured copy ceiling";
  c.memory_bytes_per_s = copy_bytes_per_s;
  c.memory_margin = 1.25;
  return c;
}

// Margins. Published peaks are at the maximum boost clock, so a correct kernel cannot exceed them;
// 10% above absorbs timing error (GPU timestamps at 32 ns granularity over batches of ~100 ms)
// and the rounding of published figures, while a kernel the compiler removed or a work model that
// overcounts shows up as an integer factor (2x and more). The physical bounds for any adapter:
// 20 TB/s from DRAM is 2.5x the fastest memory shipped (8 TB/s HBM3e) and applies only where
// the row's footprint (256 MiB or more) exceeds every GPU cache (the largest, MI300X's Infinity
// Cache, is 256 MB); 200 TB/s for any bytes row is several times the aggregate L1 bandwidth of
// the largest GPUs (about 33 TB/s on an H200); 2 P ops/s is several times the non-tensor ALU peak
// of any GPU (about 0.3 P), and applies only to the ALU probes, not to tensor-core kernels.
std::optional<std::string> implausibility(const BenchmarkResult& row, const std::optional<Ceilings>& known) {
  const auto facts = report::row_facts(row);
  const std::string& peak_class = facts.peak_class;
  if (peak_class.empty() || !(row.value > 0)) return std::nullopt;
  const double v = row.value;
  if (peak_class == "memory" && row.metric.key == "bytes") {
    const double footprint = facts.footprint_bytes.value_or(0);
    if (known && known->memory_bytes_per_s && known->last_level_cache_bytes &&
        footprint > 2 * *known->last_level_cache_bytes) {
      if (auto r = above(v, *known->memory_bytes_per_s, known->memory_margin, "B",
                         fmt::format("the memory bandwidth ({}) for a footprint of {} MiB, past the caches",
                                     known->memory_source, footprint / (1 << 20)))) {
        return r;
      }
    } else if (known && known->memory_bytes_per_s && !known->last_level_cache_bytes &&
               footprint >= kAnyFootprintPastCaches) {
      if (auto r = above(v, *known->memory_bytes_per_s, known->memory_margin, "B",
                         fmt::format("the memory bandwidth ({})", known->memory_source))) {
        return r;
      }
    }
    if (footprint >= kAnyFootprintPastCaches) {
      if (auto r = above(v, kAnyDramBytesPerS, 1.0, "B", "what any DRAM delivers past every cache")) return r;
    }
    return above(v, kAnyCacheBytesPerS, 1.0, "B", "what any GPU's caches deliver");
  }
  if (row.metric.key == "bytes") return std::nullopt;
  const std::string unit = row.metric.unit.empty() ? "OP" : row.metric.unit;
  if (known) {
    const struct {
      const char* peak_class;
      const std::optional<double>& ceiling;
      const char* what;
    } table[] = {{"fp32", known->fp32_flops, "non-tensor FP32 peak"},
                 {"fp16", known->fp16_flops, "non-tensor FP16 peak"},
                 {"int32", known->int32_ops, "INT32 peak"},
                 {"int8-dot", known->int8_dot_ops, "int8 dot-product peak (derived)"}};
    for (const auto& [cls, ceiling, what] : table) {
      if (peak_class != cls || !ceiling) continue;
      if (auto r = above(v, *ceiling, known->alu_margin, unit, fmt::format("the {} ({})", what, known->source))) {
        return r;
      }
    }
  }
  if (peak_class == "fp32" || peak_class == "fp16" || peak_class == "int32" || peak_class == "int8-dot" ||
      peak_class == "alu") {
    return above(v, kAnyAluOpsPerS, 1.0, unit, "any GPU's non-tensor ALU peak");
  }
  return std::nullopt;
}

void apply_plausibility(BenchmarkResult& row, const gpu::Context& gpu, const std::optional<Ceilings>& measured) {
  if (row.status != RowStatus::Ok) return;
  std::optional<Ceilings> known = published_ceilings(gpu.adapter().device);
  if (!known) known = published_ceilings(gpu.adapter().description);
  if (measured) {
    if (!known) known = Ceilings{};
    known->memory_source = measured->memory_source;
    known->memory_bytes_per_s = measured->memory_bytes_per_s;
    known->memory_margin = measured->memory_margin;
    if (measured->last_level_cache_bytes) known->last_level_cache_bytes = measured->last_level_cache_bytes;
  }
  if (auto reason = implausibility(row, known)) {
    row.status = RowStatus::Suspect;
    row.message = *reason;
  }
}

// ---- measured ceilings ------------------------------------------------------------------------

namespace {


std::string mib(double bytes) { return fmt::format("{:.4g} MiB", bytes / (1 << 20)); }

}  // namespace

Status check_same_adapter(const MeasuredCeilings& m, const gpu::AdapterDescription& a) {
  if (m.vendor_id == a.vendor_id && m.device_id == a.device_id && m.device == a.device && m.backend == a.backend) {
    return ok();
  }
  return make_error(ErrorKind::Usage,
                    fmt::format("--ceilings {} was measured on another adapter ('{}', {}, {:#x}:{:#x}), not this one "
                                "('{}', {}, {:#x}:{:#x})",
                                m.source, m.device, m.backend, m.vendor_id, m.device_id, a.device, a.backend,
                                a.vendor_id, a.device_id));
}

std::optional<std::string> measured_implausibility(const BenchmarkResult& row, const MeasuredCeilings& m) {
  const auto facts = report::row_facts(row);
  const std::string& peak_class = facts.peak_class;
  if (peak_class.empty() || !(row.value > 0)) return std::nullopt;
  const double v = row.value;
  if (peak_class == "memory") {
    if (row.metric.key != "bytes" || facts.access != "linear") return std::nullopt;
    const double footprint = facts.footprint_bytes.value_or(0);
    // Like with like: only streams measured at a footprint no larger than this row's (a smaller
    // footprint than the measurement's may sit in a cache the measurement did not reach).
    const MeasuredCeilings::Stream* best = nullptr;
    for (const auto& s : m.streams) {
      if (s.footprint_bytes <= footprint && (best == nullptr || s.bytes_per_s > best->bytes_per_s)) best = &s;
    }
    if (best == nullptr) return std::nullopt;
    return above(v, best->bytes_per_s, kMeasuredMargin, "B",
                 fmt::format("the linear streaming rate measured on this adapter ({} in {}, at a {} footprint, no "
                             "larger than this row's {})",
                             best->from, m.source, mib(best->footprint_bytes), mib(footprint)));
  }
  const std::string unit = row.metric.unit.empty() ? "OP" : row.metric.unit;
  if (peak_class == "alu") {
    if (!(m.peak32_per_s > 0)) return std::nullopt;
    const bool packed16 = facts.operand_bits == 16;
    const double ceiling = m.peak32_per_s * (packed16 ? 2 : 1);
    return above(v, ceiling, kMeasuredMargin, unit,
                 fmt::format("the peak 32-bit instruction rate measured on this adapter ({} / 2, one instruction per "
                             "FMA or MAD, in {}{})",
                             m.peak32_from, m.source, packed16 ? "; x 2 for 16-bit operands, two per lane" : ""));
  }
  for (const auto& [cls, peak] : m.class_peaks) {
    if (cls != peak_class) continue;
    return above(v, peak.per_s, kMeasuredMargin, unit,
                 fmt::format("the best {} rate measured on this adapter ({} in {})", cls, peak.from, m.source));
  }
  return std::nullopt;
}

void apply_plausibility(BenchmarkResult& row, const gpu::Context& gpu,
                        const std::optional<MeasuredCeilings>& measured) {
  apply_plausibility(row, gpu);
  if (row.status == RowStatus::Ok && measured) {
    if (auto reason = measured_implausibility(row, *measured)) {
      row.status = RowStatus::Suspect;
      row.message = *reason;
    }
  }
  apply_launch_rule(row);
}

// ---- launch-bound rows ----------------------------------------------------------------------------

std::optional<std::string> launch_bound_reason(double dispatch_ms, double launch_ms, double threshold) {
  if (!(dispatch_ms > 0) || !(launch_ms > 0)) return std::nullopt;
  const double share = launch_ms / dispatch_ms;
  if (!(share > threshold)) return std::nullopt;
  return fmt::format("launch-bound: a dispatch took {:.4g} us, and launching and draining an empty dispatch of "
                     "the same grid takes {:.4g} us ({:.1f}%, above {:g}%): the rate understates the device; "
                     "more work per dispatch (--target-dispatch-ms) or a larger buffer lifts it",
                     dispatch_ms * 1000, launch_ms * 1000, 100 * share, 100 * threshold);
}

void apply_launch_rule(BenchmarkResult& row) {
  const auto facts = report::row_facts(row);
  if (!facts.launch_ms || !(row.time_ms > 0)) return;
  const double launch_ms = *facts.launch_ms;
  // Like with like: the launch cost is the fastest empty dispatch, so the dispatch is its fastest
  // repetition too (interference only adds time to either). Judged on the row's statistic (a median),
  // a launch-bound row measured while other work competed for the device would pass as ok.
  const double per = std::max(1.0, facts.dispatches_per_repetition);
  const double fastest = row.stats.count > 0 && row.stats.min > 0 ? std::min(row.stats.min, row.time_ms) : row.time_ms;
  const double dispatch_ms = fastest / per;
  report::set_launch_share(row, dispatch_ms);
  if (row.status != RowStatus::Ok) return;
  if (auto reason = launch_bound_reason(dispatch_ms, launch_ms)) {
    row.status = RowStatus::Suspect;
    row.message = *reason;
  }
}

}  // namespace wgb
