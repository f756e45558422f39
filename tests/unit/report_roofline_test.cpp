// The roofline (the derived quantities): ceilings come from the right rows, every row gets an
// intensity and a fraction or says why not, and the fraction equals the textbook formula, derive().
#include <gtest/gtest.h>

#include <cmath>

#include "report/document.hpp"
#include "report/roofline.hpp"
#include "report/table.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::report {
namespace {

const ReportRow& find(const std::vector<ReportRow>& rows, const std::string& id) {
  for (const auto& r : rows) {
    if (r.result.id == id) return r;
  }
  throw std::runtime_error("no row " + id);
}

TEST(Roofline, GeneralFractionEqualsDeriveWhereDeriveIsDefined) {
  for (double flops : {1e6, 1e9, 1e12}) {
    for (double bytes : {1e3, 1e6, 1e9}) {
      const auto r = derive(1e-3, flops, bytes, 50e12, 3e12);
      EXPECT_NEAR(roofline_fraction(1e-3, flops, bytes, 50e12, 3e12), r.fraction_of_roofline,
                  1e-12 * r.fraction_of_roofline);
    }
  }
  // The edges derive() cannot express: memory-only and register-only kernels.
  EXPECT_DOUBLE_EQ(roofline_fraction(2e-3, 0, 1e9, 0, 1e12), 0.5);
  EXPECT_DOUBLE_EQ(roofline_fraction(1e-3, 1e9, 0, 4e12, 0), 0.25);
}

TEST(Roofline, CeilingsPreferTheMemorySuiteAndIgnoreRowsThatAreNotOk) {
  auto rows = to_report_rows(test::synthetic_rows());
  auto c = find_ceilings(rows);
  ASSERT_TRUE(c.bandwidth);
  EXPECT_EQ(c.bandwidth->from, "memory-read");  // read-linear is slower here, but memory-read wins by rule anyway
  ASSERT_EQ(c.flops.count("f32"), 1u);
  EXPECT_EQ(c.flops.at("f32").from, "f32-fma-vec4");
  EXPECT_EQ(c.flops.count("f16"), 0u);  // f16-fma-vec4 was skipped

  // Without the memory suite, read-linear defines the bandwidth; a suspect row never does.
  std::vector<ReportRow> no_memory;
  for (auto& r : rows) {
    if (r.result.id != "memory-read") no_memory.push_back(r);
  }
  c = find_ceilings(no_memory);
  ASSERT_TRUE(c.bandwidth);
  EXPECT_EQ(c.bandwidth->from, "read-linear");
  for (auto& r : no_memory) {
    if (r.result.id == "read-linear") r.result.status = RowStatus::Suspect;
  }
  EXPECT_FALSE(find_ceilings(no_memory).bandwidth);
}

TEST(Roofline, EveryRowGetsIntensityAndFractionOrAReason) {
  auto rows = to_report_rows(test::synthetic_rows());
  const auto c = apply_roofline(rows);
  const double bw = c.bandwidth->value, peak = c.flops.at("f32").value;

  const auto& mem = find(rows, "memory-read").roofline;
  ASSERT_TRUE(mem && mem->applies);
  EXPECT_DOUBLE_EQ(mem->fraction, 1.0);
  EXPECT_EQ(mem->arithmetic_intensity, 0.0);
  EXPECT_EQ(mem->bound, "memory");
  EXPECT_NE(mem->note.find("defines the ceiling"), std::string::npos);

  const auto& fma = find(rows, "f32-fma-vec4").roofline;
  ASSERT_TRUE(fma && fma->applies);
  EXPECT_TRUE(std::isinf(fma->arithmetic_intensity));
  EXPECT_DOUBLE_EQ(fma->fraction, 1.0);
  EXPECT_EQ(fma->bound, "compute");

  const auto& mv = find(rows, "f32-fma-matvec");
  ASSERT_TRUE(mv.roofline && mv.roofline->applies);
  EXPECT_DOUBLE_EQ(mv.roofline->arithmetic_intensity, 64.0);
  const auto ref = derive(mv.result.time_ms / 1000, mv.result.work.operations, mv.result.work.bytes_read, peak, bw);
  EXPECT_NEAR(mv.roofline->fraction, ref.fraction_of_roofline, 1e-12);
  EXPECT_EQ(mv.roofline->bound, "compute");
  EXPECT_GT(mv.roofline->fraction, kRooflineLowFraction);

  const auto& gather = find(rows, "read-gather-64mb").roofline;
  ASSERT_TRUE(gather && gather->applies);
  EXPECT_NEAR(gather->fraction, find(rows, "read-gather-64mb").result.value / bw, 1e-12);
  EXPECT_LT(gather->fraction, kRooflineLowFraction);

  const auto& chain = find(rows, "read-dependent-chain").roofline;
  ASSERT_TRUE(chain);
  EXPECT_FALSE(chain->applies);
  EXPECT_TRUE(std::isnan(chain->arithmetic_intensity));
  EXPECT_NE(chain->note.find("hop"), std::string::npos) << chain->note;

  EXPECT_FALSE(find(rows, "f16-fma-vec4").roofline->applies);
  EXPECT_EQ(find(rows, "f16-fma-vec4").roofline->note, "no rate measured");
}

TEST(Roofline, RowsSayWhichCeilingIsMissing) {
  auto fma16 = test::measured_row(0, "f16-fma-matvec", "compute", test::kFlops, Statistic::Best, 1, {1 << 20, 0, 1e9});
  std::vector<ReportRow> rows{{fma16, {}, {}}};
  apply_roofline(rows);
  ASSERT_FALSE(rows[0].roofline->applies);
  EXPECT_NE(rows[0].roofline->note.find("peak bandwidth not measured"), std::string::npos) << rows[0].roofline->note;

  rows.push_back({test::synthetic_rows()[0], {}, {}});  // memory-read
  apply_roofline(rows);
  ASSERT_FALSE(rows[0].roofline->applies);
  EXPECT_EQ(rows[0].roofline->precision, "f16");
  EXPECT_NE(rows[0].roofline->note.find("f16-fma-vec4"), std::string::npos) << rows[0].roofline->note;
}

TEST(Roofline, SummaryListsLowRowsAndRowsWithoutCeiling) {
  auto rows = to_report_rows(test::synthetic_rows());
  const auto c = apply_roofline(rows);
  const auto j = roofline_summary_json(rows, c);
  EXPECT_EQ(j["peak_bandwidth"]["from"], "memory-read");
  EXPECT_EQ(j["peak_flops"]["f32"]["from"], "f32-fma-vec4");
  ASSERT_EQ(j["below_threshold"].size(), 1u);
  EXPECT_EQ(j["below_threshold"][0]["id"], "read-gather-64mb");
  std::vector<std::string> without;
  for (const auto& w : j["without_ceiling"]) without.push_back(w["id"]);
  EXPECT_EQ(without, (std::vector<std::string>{"read-dependent-chain", "workgroup-64", "workgroup-128", "workgroup-256"}));
}

// A run whose ceiling rows were throttled (a busy CPU driver): the rows without a ceiling say that
// the ceiling's row is throttled, not "run read-linear" (which did run).
TEST(Roofline, ACeilingRowThatIsNotOkIsNamedInTheReason) {
  auto rows = to_report_rows(test::synthetic_rows());
  std::vector<ReportRow> kept;
  for (auto& r : rows) {
    if (r.result.id == "memory-read" || r.result.id == "memory-sustain") continue;
    if (r.result.id == "read-linear" || r.result.id == "f32-fma-vec4") r.result.status = RowStatus::Throttled;
    kept.push_back(r);
  }
  const auto c = apply_roofline(kept);
  EXPECT_FALSE(c.bandwidth);
  EXPECT_EQ(c.bandwidth_unusable, "read-linear is throttled");
  EXPECT_EQ(c.flops_unusable.at("f32"), "f32-fma-vec4 is throttled");
  const auto& gather = find(kept, "read-gather-64mb");
  ASSERT_TRUE(gather.roofline);
  EXPECT_EQ(gather.roofline->note, "no ceiling: read-linear is throttled, and a ceiling comes only from an ok row");
}

// The rows of the H200's first default suite (2026-12-02): read-linear launch-bound at 2.08 TB/s,
// write-linear 3.92, read-gather-16kb 7.46 and read-gather-4mb 2.33 TB/s, all 64 MiB per pass.
std::vector<ReportRow> first_h200_rows() {
  constexpr double kMiB = 1 << 20;
  auto bandwidth_row = [&](std::size_t i, const std::string& id, double tb_per_s, const std::string& access,
                           double window) {
    const double ms = 64 * kMiB / (tb_per_s * 1e12) * 1000;
    auto r = test::measured_row(i, id, "bandwidth", test::kBytes, Statistic::Median, ms, {64 * kMiB, 0, 0});
    r.parameters["access"] = access;
    r.parameters["peak_class"] = "memory";
    if (window > 0) r.parameters["window_bytes"] = window;
    return r;
  };
  auto read = bandwidth_row(0, "read-linear", 2.08, "linear", 0);
  read.status = RowStatus::Suspect;  // what the launch-bound rule makes of its 32 us dispatches
  read.message = "launch-bound: ...";
  return to_report_rows({read, bandwidth_row(1, "write-linear", 3.92, "linear", 0),
                         bandwidth_row(2, "read-gather-16kb", 7.46, "gather", 16 * 1024),
                         bandwidth_row(3, "read-gather-4mb", 2.33, "gather", 4 * kMiB)});
}

// The memory ceiling comes from the best trustworthy streaming row: a launch-bound (suspect)
// read-linear never sets it, write-linear does; before, read-linear's 2.08 TB/s put write-linear at
// 1.88 of the ceiling with nothing flagged.
TEST(Roofline, TheCeilingComesFromTheBestTrustworthyStreamingRow) {
  auto rows = first_h200_rows();
  const auto c = apply_roofline(rows);
  ASSERT_TRUE(c.bandwidth);
  EXPECT_EQ(c.bandwidth->from, "write-linear");
  EXPECT_DOUBLE_EQ(find(rows, "write-linear").roofline->fraction, 1.0);
  EXPECT_TRUE(over_ceiling(find(rows, "write-linear")).empty());
  // Both ok: the faster of the two defines it.
  rows[0].result.status = RowStatus::Ok;
  rows[0].result.value = 4.5e12;
  rows[0].result.time_ms = 64.0 * (1 << 20) / 4.5e12 * 1000;
  EXPECT_EQ(find_ceilings(rows).bandwidth->from, "read-linear");
}

// A memory row above 1.0 of its ceiling is marked, never drawn silently: a gather window a cache
// may hold says so; any other row is flagged, in the row, the summary JSON and the table.
TEST(Roofline, MemoryRowsAboveTheCeilingAreMarked) {
  auto rows = first_h200_rows();
  const auto c = apply_roofline(rows);
  const auto& gather = *find(rows, "read-gather-16kb").roofline;
  EXPECT_NEAR(gather.fraction, 7.46 / 3.92, 1e-9);
  EXPECT_EQ(over_ceiling(find(rows, "read-gather-16kb")), "cache-window");
  EXPECT_NE(gather.note.find("16 KiB window may sit in a cache"), std::string::npos) << gather.note;
  EXPECT_TRUE(over_ceiling(find(rows, "read-gather-4mb")).empty());  // 0.59: below

  // With the memory suite's ceiling below it, write-linear (a linear stream) is flagged.
  auto memory = test::measured_row(4, "memory-read", "bandwidth", test::kBytes, Statistic::Median,
                                   256.0 * (1 << 20) / 2.1e12 * 1000, {256.0 * (1 << 20), 0, 0});
  rows.push_back({memory, {}, {}});
  const auto c2 = apply_roofline(rows);
  EXPECT_EQ(c2.bandwidth->from, "memory-read");
  const auto& write = *find(rows, "write-linear").roofline;
  EXPECT_EQ(over_ceiling(find(rows, "write-linear")), "flagged");
  EXPECT_NE(write.note.find("ABOVE THE CEILING (1.87)"), std::string::npos) << write.note;
  EXPECT_EQ(roofline_text(find(rows, "write-linear")), "1.87 memory (!)");
  EXPECT_EQ(roofline_text(find(rows, "read-gather-16kb")), "3.55 memory (cache)");

  const auto j = roofline_summary_json(rows, c2);
  ASSERT_EQ(j["above_ceiling"].size(), 3u) << j.dump();  // write-linear, read-gather-16kb, read-gather-4mb
  EXPECT_EQ(j["above_ceiling"][0]["id"], "write-linear");
  EXPECT_EQ(j["above_ceiling"][0]["over_ceiling"], "flagged");
  EXPECT_EQ(j["above_ceiling"][1]["over_ceiling"], "cache-window");
  // The row's own JSON carries it, and reads back.
  const auto row_json = to_json(find(rows, "write-linear"));
  EXPECT_EQ(row_json["roofline"]["over_ceiling"], "flagged");

  std::ostringstream table;
  write_summary(table, rows, std::nullopt, 100, false);
  EXPECT_NE(table.str().find("ABOVE the memory ceiling (!): write-linear (1.87)"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("above the DRAM ceiling (cache): read-gather-16kb (3.55)"), std::string::npos)
      << table.str();
  (void)c;
}

}  // namespace
}  // namespace wgb::report
