// Plausibility against ceilings measured earlier on the same adapter (`run --ceilings FILE`): what
// a result document yields (streams with footprints, the peak 32-bit instruction rate, class
// peaks), the adapter check, and like-with-like comparisons (linear streams only, at no smaller
// footprint; alu rows against the instruction rate, x 2 for 16-bit operands).
#include <gtest/gtest.h>

#include "report/files.hpp"
#include "suite/ceilings.hpp"
#include "suite/plausibility.hpp"

namespace wgb {
namespace {

constexpr double kMiB = 1 << 20;

nlohmann::json doc_row(const std::string& id, double value, const std::string& key, nlohmann::json params,
                       const std::string& status = "ok") {
  return {{"id", id},
          {"status", status},
          {"value", value},
          {"metric", {{"key", key}, {"unit", "B"}}},
          {"parameters", std::move(params)}};
}

nlohmann::json document_json(nlohmann::json rows) {
  return {
      {"schema", "webgpu-bench/result"},
      {"schema_version", 1},
      {"machine",
       {{"adapter", {{"vendor_id", 0x10de}, {"device_id", 0x2335}, {"device", "NVIDIA H200"}, {"backend", "vulkan"}}}}},
      {"rows", std::move(rows)}};
}

// The document as `run --ceilings` reads it (checked, then typed).
report::Document typed(const nlohmann::json& j, const std::string& origin) {
  auto d = report::read_document(j, origin);
  EXPECT_TRUE(d.has_value()) << (d ? "" : d.error().message);
  return d ? *d : report::Document{};
}
report::Document document(nlohmann::json rows, const std::string& origin = "old.json") {
  return typed(document_json(std::move(rows)), origin);
}

// A memory-suite document (two alternated 256 MiB buffers) plus a run document's rows.
report::Document h200_document() {
  return document({
      doc_row("memory-read", 4.48e12, "bytes", {{"buffers", 2}, {"working_set_bytes", 256 * kMiB}}),
      doc_row("memory-copy", 4.10e12, "bytes", {{"buffers", 2}, {"working_set_bytes", 256 * kMiB}}),
      doc_row("memory-latency", 2.8e6, "loads", {{"working_set_bytes", 256 * kMiB}}),
      doc_row("read-linear", 4.3e12, "bytes", {{"peak_class", "memory"}, {"footprint_bytes", 128 * kMiB}}),
      doc_row("read-gather-16kb", 30e12, "bytes", {{"peak_class", "memory"}, {"footprint_bytes", 32 * 1024}}),
      doc_row("f32-fma-vec4", 60e12, "flops", {{"peak_class", "fp32"}}),
      doc_row("f32-fma-scalar", 58e12, "flops", {{"peak_class", "fp32"}}),
      doc_row("i32-mad-scalar", 31e12, "ops", {{"peak_class", "int32"}}),
      doc_row("f16-fma-vec4", 99e12, "flops", {{"peak_class", "fp16"}}, "suspect"),  // not ok: ignored
  });
}

BenchmarkResult row(const std::string& id, double value, const std::string& key, nlohmann::json params) {
  BenchmarkResult r;
  r.id = id;
  r.metric = {key, key == "bytes" ? "B" : "OP", ""};
  r.value = value;
  r.parameters = std::move(params);
  return r;
}

TEST(PlausibilityMeasured, ADocumentYieldsStreamsPeakAndClassPeaks) {
  auto m = measured_ceilings_from(h200_document());
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->source, "old.json");
  EXPECT_EQ(m->device, "NVIDIA H200");
  EXPECT_EQ(m->vendor_id, 0x10deu);
  // memory-read/-copy at 2 x 256 MiB, read-linear at its footprint; the gather window is no stream.
  ASSERT_EQ(m->streams.size(), 3u);
  EXPECT_DOUBLE_EQ(m->streams[0].footprint_bytes, 512 * kMiB);
  EXPECT_EQ(m->streams[2].from, "read-linear");
  EXPECT_DOUBLE_EQ(m->peak32_per_s, 30e12);  // f32-fma-vec4's 60 TFLOP/s, one instruction per FMA
  EXPECT_EQ(m->peak32_from, "f32-fma-vec4");
  ASSERT_EQ(m->class_peaks.size(), 2u);  // fp32, int32 (the suspect f16 row does not count)
  EXPECT_EQ(m->class_peaks[0].first, "fp32");
  EXPECT_DOUBLE_EQ(m->class_peaks[0].second.per_s, 60e12);
}

TEST(PlausibilityMeasured, DocumentsWithoutAdapterOrCeilingsAreRefusedNamingTheFile) {
  auto none = measured_ceilings_from(document({doc_row("memory-latency", 2.8e6, "loads", {})}, "lat.json"));
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind, ErrorKind::Usage);
  EXPECT_NE(none.error().message.find("lat.json"), std::string::npos);
  EXPECT_NE(none.error().message.find("no measured ceiling"), std::string::npos) << none.error().message;
  nlohmann::json no_adapter = document_json({doc_row("read-linear", 4.3e12, "bytes", {{"peak_class", "memory"}})});
  no_adapter.erase("machine");
  auto bad = measured_ceilings_from(typed(no_adapter, "x.json"));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("names no adapter"), std::string::npos) << bad.error().message;
}

TEST(PlausibilityMeasured, AnotherAdapterIsRefused) {
  auto m = measured_ceilings_from(h200_document());
  ASSERT_TRUE(m);
  gpu::AdapterDescription same;
  same.vendor_id = 0x10de;
  same.device_id = 0x2335;
  same.device = "NVIDIA H200";
  same.backend = "vulkan";
  EXPECT_TRUE(check_same_adapter(*m, same));
  gpu::AdapterDescription other = same;
  other.device = "llvmpipe (LLVM 15.0.6, 256 bits)";
  other.vendor_id = 0x10005;
  auto st = check_same_adapter(*m, other);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::Usage);
  EXPECT_NE(st.error().message.find("another adapter"), std::string::npos) << st.error().message;
  EXPECT_EQ(st.error().message.find('\n'), std::string::npos);
  other = same;
  other.backend = "d3d12";  // the same GPU through another backend is another measurement
  EXPECT_FALSE(check_same_adapter(*m, other));
}

TEST(PlausibilityMeasured, LinearStreamsAreComparedAtNoSmallerFootprint) {
  auto m = measured_ceilings_from(h200_document());
  ASSERT_TRUE(m);
  auto linear = [](double v, double footprint) {
    return row("read-linear", v, "bytes",
               {{"peak_class", "memory"}, {"footprint_bytes", footprint}, {"access", "linear"}});
  };
  // 128 MiB: read-linear's own 4.3 TB/s applies (memory-read's 512 MiB footprint does not).
  EXPECT_FALSE(measured_implausibility(linear(5.3e12, 128 * kMiB), *m));  // within 1.25
  auto reason = measured_implausibility(linear(5.5e12, 128 * kMiB), *m);
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("read-linear in old.json"), std::string::npos) << *reason;
  EXPECT_NE(reason->find("1.25 margin"), std::string::npos) << *reason;
  EXPECT_NE(reason->find("4.3 TB/s"), std::string::npos) << *reason;
  // 1 GiB: memory-read's 4.48 TB/s is the best measured at no larger footprint.
  auto big = measured_implausibility(linear(5.7e12, 1024 * kMiB), *m);
  ASSERT_TRUE(big);
  EXPECT_NE(big->find("memory-read"), std::string::npos) << *big;
  // 8 MiB (--bandwidth-mib 4): smaller than every measurement, may be cache-resident: not compared.
  EXPECT_FALSE(measured_implausibility(linear(20e12, 8 * kMiB), *m));
  // Gather windows are never compared, whatever their footprint.
  EXPECT_FALSE(
      measured_implausibility(row("read-gather-16kb", 20e12, "bytes",
                                  {{"peak_class", "memory"}, {"footprint_bytes", 32 * 1024}, {"access", "gather"}}),
                              *m));
  EXPECT_FALSE(
      measured_implausibility(row("read-gather-64mb", 20e12, "bytes",
                                  {{"peak_class", "memory"}, {"footprint_bytes", 1024 * kMiB}, {"access", "gather"}}),
                              *m));
}

TEST(PlausibilityMeasured, AluRowsAgainstThePeakInstructionRate) {
  auto m = measured_ceilings_from(h200_document());
  ASSERT_TRUE(m);
  // 30 T instructions/s x 1.25 = 37.5 T results/s for a 32-bit single-operation probe.
  EXPECT_FALSE(
      measured_implausibility(row("u32-shift", 36e12, "ops", {{"peak_class", "alu"}, {"operand_bits", 32}}), *m));
  auto reason =
      measured_implausibility(row("u32-shift", 40e12, "ops", {{"peak_class", "alu"}, {"operand_bits", 32}}), *m);
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("peak 32-bit instruction rate"), std::string::npos) << *reason;
  EXPECT_NE(reason->find("f32-fma-vec4 / 2"), std::string::npos) << *reason;
  EXPECT_NE(reason->find("1.25 margin"), std::string::npos) << *reason;
  // 16-bit operands may pack two per lane: twice the ceiling.
  EXPECT_FALSE(
      measured_implausibility(row("f16-sqrt", 70e12, "ops", {{"peak_class", "alu"}, {"operand_bits", 16}}), *m));
  auto f16 = measured_implausibility(row("f16-sqrt", 80e12, "ops", {{"peak_class", "alu"}, {"operand_bits", 16}}), *m);
  ASSERT_TRUE(f16);
  EXPECT_NE(f16->find("x 2 for 16-bit operands"), std::string::npos) << *f16;
  // Other classes: the best rate of the same class.
  EXPECT_FALSE(measured_implausibility(row("f32-fma-mat4", 70e12, "flops", {{"peak_class", "fp32"}}), *m));
  auto fp32 = measured_implausibility(row("f32-fma-mat4", 80e12, "flops", {{"peak_class", "fp32"}}), *m);
  ASSERT_TRUE(fp32);
  EXPECT_NE(fp32->find("best fp32 rate"), std::string::npos) << *fp32;
  // No fp16 ceiling was measured (the row was suspect): not judged here.
  EXPECT_FALSE(measured_implausibility(row("f16-fma-vec4", 500e12, "flops", {{"peak_class", "fp16"}}), *m));
  // Rows without a peak class are never judged.
  EXPECT_FALSE(measured_implausibility(row("tile-shared", 1e18, "ops", nlohmann::json::object()), *m));
}

}  // namespace
}  // namespace wgb
