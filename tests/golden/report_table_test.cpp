// Pins the console table and the lines under it (synthetic rows, with and without a repro check).
#include <fmt/format.h>

#include <sstream>
#include <string>
#include <vector>

#include "report/repro.hpp"
#include "report/roofline.hpp"
#include "report/table.hpp"
#include "tests/golden/golden.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::report {
namespace {

TEST(GoldenTable, SyntheticRows) {
  const auto doc = test::synthetic_document();
  std::ostringstream out;
  write_table(out, doc.rows());
  write_summary(out, doc.rows(), doc.repro());
  test::expect_golden("table.txt", out.str());
}

TEST(GoldenTable, SyntheticRowsWithRepro) {
  auto doc = test::synthetic_document();
  auto second = test::synthetic_rows();
  apply_test_perturbation(second[1], {"read-linear", 1.5});
  const auto summary = apply_repro(doc.rows(), to_report_rows(second), 0.01);
  doc.set_repro(summary, {.exit_code = 0});
  std::ostringstream out;
  write_table(out, doc.rows());
  write_summary(out, doc.rows(), doc.repro());
  test::expect_golden("table_repro.txt", out.str());
}

// Output that fits the terminal: at any width from 80 to 160 no line is wider than the width (the
// columns that always stay take 72 here), nothing is cut (every id and every note's words are there),
// and columns left out are said.
TEST(GoldenTable, FitsTheWidthItIsGiven) {
  const auto doc = test::synthetic_document();
  for (std::size_t width : {80u, 100u, 120u, 160u}) {
    std::ostringstream out;
    write_table(out, doc.rows(), width);
    write_summary(out, doc.rows(), doc.repro(), width);
    const std::string text = out.str();
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) EXPECT_LE(line.size(), width) << "at " << width << ": " << line;
    for (const auto& row : doc.rows()) {
      EXPECT_NE(text.find(row.result.id), std::string::npos) << row.result.id;
      if (!row.result.message.empty()) {
        std::istringstream words(row.result.message);
        std::string word;
        while (words >> word) EXPECT_NE(text.find(word), std::string::npos) << word << " at " << width;
      }
    }
    const auto fit = fit_columns(doc.rows(), width);
    if (fit.left_out.empty()) {
      EXPECT_EQ(text.find("left out to fit"), std::string::npos) << width;
    } else {
      EXPECT_NE(text.find(fmt::format("left out to fit {} columns", width)), std::string::npos) << width;
    }
  }
  // 60 columns leave out the optional columns, in their order; 160 keep every one.
  EXPECT_EQ(fit_columns(doc.rows(), 60).left_out, (std::vector<std::string>{"FLOP/B", "roofline", "clock"}));
  EXPECT_TRUE(fit_columns(doc.rows(), 160).left_out.empty());
}

TEST(GoldenTable, WrapNeverCutsAWord) {
  EXPECT_EQ(wrap_text("one two three", 8, 0, 2), "one two\n  three");
  EXPECT_EQ(wrap_text("averyveryverylongword x", 8, 2, 2), "  averyveryverylongword\n  x");
  EXPECT_EQ(wrap_text("", 10, 4, 4), "    ");
}

TEST(GoldenTable, WrapBlockKeepsIndentation) {
  EXPECT_EQ(wrap_block("short\n  a long line of words here\n", 13), "short\n  a long line\n    of words\n    here\n");
}

// Rows printed one at a time line up with the header, whatever they hold.
TEST(GoldenTable, StreamedRowsLineUpWithTheHeader) {
  const auto doc = test::synthetic_document();
  std::vector<std::string> ids, units;
  for (const auto& r : doc.rows()) {
    ids.push_back(r.result.id);
    units.push_back(r.result.metric.unit);
  }
  const TableStream stream(ids, units, 100);
  const std::string header = stream.header();
  const auto rate_end = header.find("rate") + 4;  // the rate column is right-aligned under its header
  for (const auto& r : doc.rows()) {
    const std::string line = stream.row(r.result);
    EXPECT_LE(line.find('\n'), 100u) << line;
    if (has_rate(r.result)) {
      const std::string rate = format_rate(r.result.value, r.result.metric.unit);
      EXPECT_EQ(line.find(rate) + rate.size(), rate_end) << line;
    }
  }
}

TEST(GoldenTable, EveryRowWithoutACeilingSaysWhyOnce) {
  const auto doc = test::synthetic_document();
  std::ostringstream out;
  write_summary(out, doc.rows(), doc.repro(), 1000);
  const std::string text = out.str();
  // The three workgroup rows share one reason: one line names all three with it.
  EXPECT_NE(text.find("no roofline ceiling for workgroup-64, workgroup-128, workgroup-256: the metric counts element"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("no roofline ceiling for read-dependent-chain: the metric counts hop"), std::string::npos) << text;
}

TEST(GoldenTable, SiScaling) {
  EXPECT_EQ(format_rate(3.2485e9, "B"), "3.25 GB/s");
  EXPECT_EQ(format_rate(999.96e3, "OP"), "1.00 MOP/s");  // rounding carries into the next prefix
  EXPECT_EQ(format_rate(12.0, "hop"), "12.0 hop/s");
  EXPECT_EQ(format_rate(4.2e13, "FLOP"), "42.0 TFLOP/s");
  EXPECT_EQ(format_bytes(16384), "16 KiB");
  EXPECT_EQ(format_bytes(1.5 * 1048576), "1.50 MiB");
  EXPECT_EQ(intensity_text(std::numeric_limits<double>::infinity()), "inf");
}

}  // namespace
}  // namespace wgb::report
