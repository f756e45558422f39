// The memory suite on a GPU as a front-end Job (frontend.hpp): the command line's `memory` and the
// browser engine's memory run are this one job. The phases run through the one driver
// (memory/memory.hpp MemorySuite); the document records the working set as soon as it is known.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/frontend.hpp"
#include "memory/document.hpp"
#include "memory/memory.hpp"

namespace wgb::frontend {

struct MemoryJobOptions {
  memory::MemoryOptions memory;     // phases, sizes, budgets (cancel and progress: the front end's)
  gpu::ContextOptions device;
  gpu::Context* context = nullptr;  // measure on this device instead of opening one (the browser's)
  std::vector<std::string> command;
  report::MachineRecord machine;
  std::function<void(report::ResultDocument&)> annotate;  // what only the front end knows
};

class MemoryJob final : public Job {
 public:
  explicit MemoryJob(MemoryJobOptions options);
  ~MemoryJob() override;

  Status start(const JobContext& context) override;
  report::ResultDocument& document() override { return doc_->document(); }
  std::vector<BenchmarkResult> planned() const override { return suite_->planned(); }
  std::vector<double> estimates_s() const override { return suite_->estimates_s(); }
  std::optional<BenchmarkResult> next() override;
  std::optional<Error> fatal() const override;
  void record(BenchmarkResult& row) override { doc_->add_row(row); }
  std::string progress_line(const BenchmarkResult& row) const override { return memory::phase_line(row); }
  void finish(const Outcome& outcome) override;
  std::string summary(std::size_t width) const override;
  const gpu::Context* device() const override { return ctx_; }

 private:
  MemoryJobOptions o_;
  std::unique_ptr<gpu::Context> owned_;
  gpu::Context* ctx_ = nullptr;
  std::optional<memory::MemorySuite> suite_;
  std::optional<memory::MemoryDocument> doc_;
  bool working_set_recorded_ = false;
};

}  // namespace wgb::frontend
