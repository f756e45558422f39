// Unit tests for the CLI's progress text (cli/progress_display.cpp): a pure function of a snapshot
// of SuiteProgress. "~" before approximate estimates, the range, sub-second values, 100 % only
// after finish(), no ETA during an unbounded pause.
#include "cli/progress_display.hpp"

#include <gtest/gtest.h>

#include <string>

namespace wgb::cli {
namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

ProgressSnapshot base() {
  ProgressSnapshot s;
  s.fraction = 0.25;
  s.remaining_s = 65.0;
  s.range_s = std::pair{50.0, 80.0};
  s.approximate = true;
  s.completed = 3;
  s.count = 20;
  s.current = "read-linear";
  s.stage = "sample 2/10";
  return s;
}

TEST(ProgressText, ApproximateEstimateHasATildeAndTheRange) {
  const std::string line = format_progress_line(base(), 8);
  EXPECT_EQ(line, "[##------]  25% 3/20 ~1m 05s left (50s-1m 20s)  read-linear: sample 2/10");
}

TEST(ProgressText, RefinedEstimateHasNoTilde) {
  ProgressSnapshot s = base();
  s.approximate = false;
  const std::string line = format_progress_line(s);
  EXPECT_TRUE(has(line, " 1m 05s left")) << line;
  EXPECT_FALSE(has(line, "~")) << line;
}

TEST(ProgressText, SubSecondValuesStayVisible) {
  ProgressSnapshot s = base();
  s.remaining_s = 0.4;
  s.range_s = std::pair{0.3, 0.9};
  const std::string line = format_progress_line(s);
  EXPECT_TRUE(has(line, "~0.4s left (0.3s-0.9s)")) << line;
  EXPECT_EQ(format_duration(0.0), "0.0s");
  EXPECT_EQ(format_duration(59.4), "59s");
  EXPECT_EQ(format_duration(3725), "1h 02m");
}

TEST(ProgressText, HundredPercentOnlyAtFinish) {
  ProgressSnapshot s = base();
  s.fraction = 0.9999;  // SuiteProgress caps below 1 before finish(); even so, never "100%"
  s.completed = 20;
  std::string line = format_progress_line(s, 10);
  EXPECT_TRUE(has(line, " 99%")) << line;
  EXPECT_FALSE(has(line, "100%")) << line;
  EXPECT_TRUE(has(line, "[#########-]")) << line;  // the bar is not full either
  s.fraction = 1.0;
  EXPECT_FALSE(has(format_progress_line(s, 10), "100%"));
  s.finished = true;
  line = format_progress_line(s, 10);
  EXPECT_TRUE(has(line, "[##########] 100% 20/20 done")) << line;
}

TEST(ProgressText, PauseShowsNoEstimate) {
  ProgressSnapshot s = base();
  s.remaining_s.reset();
  s.range_s.reset();
  const std::string line = format_progress_line(s);
  EXPECT_TRUE(has(line, " paused")) << line;
  EXPECT_FALSE(has(line, "left")) << line;
}

TEST(ProgressText, SnapshotOfSuiteProgress) {
  SuiteProgress p(2, {10, 10});
  ProgressEvent e;
  e.kind = ProgressEvent::Kind::SuiteStart;
  p.on_progress(e);
  ProgressSnapshot s = snapshot(p, "a", "calibrate");
  EXPECT_TRUE(s.approximate);
  ASSERT_TRUE(s.remaining_s);
  EXPECT_DOUBLE_EQ(*s.remaining_s, 20);
  EXPECT_FALSE(s.finished);
  e.kind = ProgressEvent::Kind::PauseStart;
  p.on_progress(e);
  EXPECT_FALSE(snapshot(p).remaining_s);
  EXPECT_TRUE(has(format_progress_line(snapshot(p)), "paused"));
  p.finish();
  s = snapshot(p);
  EXPECT_TRUE(s.finished);
  EXPECT_TRUE(has(format_progress_line(s), "100%"));
}

}  // namespace
}  // namespace wgb::cli
