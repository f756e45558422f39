// Reads --ceilings from a typed document: ceilings.hpp.
#include "suite/ceilings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "report/facts.hpp"

namespace wgb {

namespace {

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

Expected<MeasuredCeilings> measured_ceilings_from(const report::Document& doc) {
  MeasuredCeilings m;
  const std::string& origin = doc.origin;
  m.source = origin;
  if (!doc.adapter.recorded) {
    return make_error(ErrorKind::Usage,
                      fmt::format("{}: names no adapter (machine.adapter), so its ceilings cannot be matched to this "
                                  "one",
                                  origin));
  }
  m.vendor_id = doc.adapter.vendor_id;
  m.device_id = doc.adapter.device_id;
  m.device = doc.adapter.device;
  m.backend = doc.adapter.backend;
  for (const auto& report_row : doc.rows) {
    const BenchmarkResult& r = report_row.result;
    if (r.status != RowStatus::Ok) continue;
    const double v = r.value;
    if (!(v > 0)) continue;
    const std::string& id = r.id;
    const auto facts = report::row_facts(r);
    if (r.metric.key == "bytes") {
      double footprint = 0;
      if (id == "memory-read" || id == "memory-write" || id == "memory-copy") {
        // Two buffers of working_set_bytes, alternated by consecutive dispatches.
        const double buffers = facts.buffers.value_or(0) > 0 ? *facts.buffers : 2;
        footprint = buffers * facts.working_set_bytes.value_or(0);
      } else if ((id == "read-linear" || id == "write-linear") && facts.peak_class == "memory") {
        footprint = facts.footprint_bytes.value_or(0);
      }
      if (footprint > 0) m.streams.push_back({v, footprint, id});
      continue;
    }
    if ((starts_with(id, "f32-fma-") || starts_with(id, "i32-mad-")) && v / 2 > m.peak32_per_s) {
      m.peak32_per_s = v / 2;
      m.peak32_from = id;
    }
    const std::string& cls = facts.peak_class;
    if (cls == "fp32" || cls == "fp16" || cls == "int32" || cls == "int8-dot") {
      auto it = std::find_if(m.class_peaks.begin(), m.class_peaks.end(), [&](const auto& p) { return p.first == cls; });
      if (it == m.class_peaks.end()) {
        m.class_peaks.push_back({cls, {v, id}});
      } else if (v > it->second.per_s) {
        it->second = {v, id};
      }
    }
  }
  if (m.streams.empty() && !(m.peak32_per_s > 0) && m.class_peaks.empty()) {
    return make_error(ErrorKind::Usage,
                      fmt::format("{}: holds no measured ceiling (no ok memory-read/-write/-copy, read-linear, "
                                  "write-linear, f32-fma-*, i32-mad-* or other ALU-class row)",
                                  origin));
  }
  return m;
}

}  // namespace wgb
