// Pins the console table and the lines under it (synthetic rows, with and without a repro check).
#include <sstream>

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
  write_summary(out, doc.rows(), doc.json());
  test::expect_golden("table.txt", out.str());
}

TEST(GoldenTable, SyntheticRowsWithRepro) {
  auto doc = test::synthetic_document();
  auto second = test::synthetic_rows();
  apply_test_perturbation(second[1], {"read-linear", 1.5});
  const auto summary = apply_repro(doc.rows(), to_report_rows(second), 0.01);
  doc.set_repro(summary, {{"exit_code", 0}});
  std::ostringstream out;
  write_table(out, doc.rows());
  write_summary(out, doc.rows(), doc.json());
  test::expect_golden("table_repro.txt", out.str());
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
