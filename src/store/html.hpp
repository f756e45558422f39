// Server-rendered pages of the leaderboard server: the index, a leaderboard grouped by device
// class, "The Stack" (one run next to its class), a comparison of two runs, and the run list.
// Pure functions from store data to a complete HTML document: inline CSS and SVG only, no script,
// nothing fetched from anywhere. Every string that came from a document goes through html_escape.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "store/store.hpp"

namespace wgb::store::html {

// & < > " ' -> entities. Safe for element text and for double- or single-quoted attributes.
std::string html_escape(std::string_view text);
// Percent-encoding of a query-string value (RFC 3986 unreserved characters stay).
std::string url_encode(std::string_view text);
// "4.56 TB/s" for rates ("B/s" units), "123 ns" for times, plain otherwise.
std::string format_value(double value, std::string_view unit);

// The home page: the top of each headline leaderboard (`headline`, the boards of
// headline_benchmarks), then every benchmark, the device classes and the recent runs.
inline constexpr std::size_t kHeadlineBoards = 8;  // boards on the home page
inline constexpr std::size_t kHeadlineRows = 3;    // classes shown per board there
std::vector<std::string> headline_benchmarks(const std::vector<BenchmarkInfo>& benchmarks);
std::string index_page(const std::vector<BenchmarkInfo>& benchmarks, const std::vector<ClassInfo>& classes,
                       const std::vector<RunSummary>& recent, std::int64_t total_runs,
                       const std::vector<Leaderboard>& headline = {});
// runtime: the filter shown ("" both, "browser", "native"); the board is already filtered.
std::string leaderboard_page(const Leaderboard& board, const std::string& runtime = "");
std::string run_page(const StoredRun& run, const std::vector<ClassDistribution>& class_stats,
                     const std::vector<RunSummary>& class_runs);
std::string compare_page(const StoredRun& a, const StoredRun& b);
std::string runs_page(const std::vector<RunSummary>& runs, const RunFilter& filter, std::int64_t total);
// "3 runs match", "12 runs match; showing 1 to 10", "No run matches".
std::string runs_count_text(std::size_t shown, std::int64_t offset, std::int64_t total);
std::string error_page(int status, std::string_view message);

}  // namespace wgb::store::html
