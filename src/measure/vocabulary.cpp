// Spellings of the row vocabulary (include/webgpu_bench/vocabulary.hpp), in one place.
#include "webgpu_bench/vocabulary.hpp"

#include <array>
#include <utility>

namespace wgb {

namespace {

template <typename E, std::size_t N>
using Names = std::array<std::pair<E, const char*>, N>;

// The entry whose value (by_name false) or spelling (by_name true) matches; nullptr when none does.
template <typename E, std::size_t N>
const std::pair<E, const char*>* entry(const Names<E, N>& names, E value, std::string_view text, bool by_name) {
  for (const auto& n : names) {
    if (by_name ? text == n.second : value == n.first) return &n;
  }
  return nullptr;
}

template <typename E>
std::optional<E> value_of(const std::pair<E, const char*>* n) {
  return n != nullptr ? std::optional<E>(n->first) : std::nullopt;
}
template <typename E>
const char* spelling(const std::pair<E, const char*>* n) { return n != nullptr ? n->second : "unknown"; }

constexpr Names<RowStatus, 6> kStatus{{{RowStatus::Ok, "ok"}, {RowStatus::Skipped, "skipped"},
                                       {RowStatus::Error, "error"}, {RowStatus::Throttled, "throttled"},
                                       {RowStatus::Cancelled, "cancelled"}, {RowStatus::Suspect, "suspect"}}};
constexpr Names<Statistic, 2> kStatistic{{{Statistic::Best, "best"}, {Statistic::Median, "median"}}};
constexpr Names<StopReason, 7> kStop{{{StopReason::None, ""}, {StopReason::Converged, "converged"},
                                      {StopReason::MaxRounds, "max-rounds"}, {StopReason::Throttled, "throttled"},
                                      {StopReason::Budget, "budget"}, {StopReason::HardStop, "hard-stop"},
                                      {StopReason::FixedRepetitions, "fixed-repetitions"}}};
constexpr Names<TimingMethod, 5> kTiming{{{TimingMethod::None, ""}, {TimingMethod::GpuTimestamp, "gpu-timestamp"},
                                          {TimingMethod::WallClock, "wall-clock"},
                                          {TimingMethod::HostSteadyClock, "host-steady-clock"},
                                          {TimingMethod::OperationWallClock, "operation-wall-clock"}}};

}  // namespace

const char* to_string(RowStatus s) noexcept { return spelling(entry(kStatus, s, {}, false)); }
const char* to_string(Statistic s) noexcept { return spelling(entry(kStatistic, s, {}, false)); }
const char* to_string(StopReason s) noexcept { return spelling(entry(kStop, s, {}, false)); }
const char* to_string(TimingMethod t) noexcept { return spelling(entry(kTiming, t, {}, false)); }

std::optional<RowStatus> parse_row_status(std::string_view text) noexcept {
  return value_of(entry(kStatus, RowStatus{}, text, true));
}
std::optional<Statistic> parse_statistic(std::string_view text) noexcept {
  return value_of(entry(kStatistic, Statistic{}, text, true));
}

std::optional<StopReason> parse_stop_reason(std::string_view text) noexcept {
  if (text == "none") return StopReason::None;  // schema version 1: the sampler's own spelling
  return value_of(entry(kStop, StopReason{}, text, true));
}

std::optional<TimingMethod> parse_timing_method(std::string_view text) noexcept {
  if (text == "steady_clock") return TimingMethod::HostSteadyClock;  // schema version 1: host rows
  return value_of(entry(kTiming, TimingMethod{}, text, true));
}

}  // namespace wgb
