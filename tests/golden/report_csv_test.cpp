// Pins the CSV: the fixed column set, quoting, empty fields for absent values.
#include <sstream>

#include "report/csv.hpp"
#include "tests/golden/golden.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::report {
namespace {

TEST(GoldenCsv, SyntheticRows) {
  const auto doc = test::synthetic_document();
  std::ostringstream out;
  write_csv(out, doc.rows());
  test::expect_golden("rows.csv", out.str());
}

TEST(GoldenCsv, EveryLineHasTheHeaderFieldCount) {
  const auto doc = test::synthetic_document();
  std::ostringstream out;
  write_csv(out, doc.rows());
  // Count fields with RFC 4180 quoting.
  std::istringstream in(out.str());
  std::string line;
  std::size_t lines = 0;
  while (std::getline(in, line)) {
    ASSERT_FALSE(line.empty());
    ASSERT_EQ(line.back(), '\r');
    std::size_t fields = 1;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) ++fields;
    }
    EXPECT_EQ(fields, csv_columns().size()) << line;
    ++lines;
  }
  EXPECT_EQ(lines, doc.rows().size() + 1);
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("plain"), "plain");
}

}  // namespace
}  // namespace wgb::report
