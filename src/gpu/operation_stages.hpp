// Where a timed API operation's wall time went (docs/api-cost.md, "Where the time goes"): the
// Context's transfers (time_upload, time_readback) split each batch's wall clock into its stages
// (the host copy, mapping, the submit to its completion, ...) and leave the split here for the
// workload that called them, which reports it per operation in its row. Only the timed loop's
// thread measures, one operation at a time, so one record suffices.
#pragma once

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

}  // namespace wgb::gpu
