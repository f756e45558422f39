// Where a timed API operation's wall time went (docs/api-cost.md, "Where the time goes"): the
// Context's transfers (time_upload, time_readback) split each batch's wall clock into its stages
// (the host copy, mapping, the submit to its completion, ...) and leave the split here for the
// workload that called them, which reports it per operation in its row. Only the timed loop's
// thread measures, one operation at a time, so one record suffices.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wgb::gpu {

struct OperationStages {
  std::vector<std::pair<std::string, double>> ms;  // stage name -> ms, summed over the batch, in order
  void add(const std::string& stage, double stage_ms) {
    for (auto& [name, total] : ms) {
      if (name == stage) {
        total += stage_ms;
        return;
      }
    }
    ms.emplace_back(stage, stage_ms);
  }
};

// The split of the last batch a transfer timed (empty until one has, and on a host that does not
// split its operations).
inline OperationStages& last_operation_stages() {
  static OperationStages stages;
  return stages;
}

// One timed batch's split and how many operations it ran.
struct BatchStages {
  std::uint32_t operations = 0;
  OperationStages stages;
};

// Each stage's time per operation, in the order the stages ran: the median over the batches run
// at the last batch's size. Those are the batches the row's statistic comes from (the warm-up and
// the samples at the calibrated batch size); calibration's small first batches start cold and would
// otherwise outnumber them. Empty when nothing was timed.
inline std::vector<std::pair<std::string, double>> split_per_operation(const std::vector<BatchStages>& batches) {
  std::vector<std::pair<std::string, double>> out;
  if (batches.empty()) return out;
  const std::uint32_t size = batches.back().operations;
  std::vector<std::pair<std::string, std::vector<double>>> per_stage;
  for (const BatchStages& b : batches) {
    if (b.operations != size) continue;
    for (const auto& [name, ms] : b.stages.ms) {
      auto it = std::find_if(per_stage.begin(), per_stage.end(), [&](const auto& s) { return s.first == name; });
      if (it == per_stage.end()) it = per_stage.insert(per_stage.end(), {name, {}});
      it->second.push_back(ms / std::max(1u, size));
    }
  }
  for (auto& [name, values] : per_stage) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    out.emplace_back(name, n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2);
  }
  return out;
}

}  // namespace wgb::gpu
