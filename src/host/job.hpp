// The host CPU's suite as a front-end Job (frontend/frontend.hpp): `webgpu-bench host` and the host
// side of `run`, `memory` and `sweep` (--device host). Rows come from the one driver (host.hpp
// HostSuite); each measured point's line goes to the options' on_progress as it completes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend/frontend.hpp"
#include "host/host.hpp"

namespace wgb::host {

class HostJob final : public frontend::Job {
 public:
  HostJob(HostOptions options, std::vector<std::string> command, report::MachineRecord machine);
  ~HostJob() override;

  Status start(const frontend::JobContext& context) override;
  report::ResultDocument& document() override { return doc_; }
  std::vector<BenchmarkResult> planned() const override { return suite_ ? suite_->planned() : std::vector<BenchmarkResult>{}; }
  std::vector<double> estimates_s() const override { return std::vector<double>(planned().size(), -1.0); }
  std::optional<BenchmarkResult> next() override { return suite_->next(); }
  std::optional<Error> fatal() const override { return suite_ ? suite_->fatal() : std::nullopt; }
  void record(BenchmarkResult& row) override { doc_.add_row(row); }
  std::string progress_line(const BenchmarkResult&) const override { return {}; }
  void finish(const frontend::Outcome& outcome) override;
  std::string summary(std::size_t width) const override;
  const HostRun& result() const { return suite_->result(); }

 private:
  HostOptions o_;
  report::ResultDocument doc_;
  std::optional<HostSuite> suite_;
};

}  // namespace wgb::host
