// The host suite as a front-end job (job.hpp).
#include "host/job.hpp"

#include <sstream>

#include "host/text.hpp"

namespace wgb::host {

HostJob::HostJob(HostOptions options, std::vector<std::string> command, report::MachineRecord machine)
    : o_(std::move(options)), doc_("host", std::move(command), std::move(machine)) {}
HostJob::~HostJob() = default;

Status HostJob::start(const frontend::JobContext& context) {
  HostOptions o = o_;
  o.cancel = context.cancel;
  o.on_event = context.progress;
  suite_.emplace(std::move(o));
  return suite_->start(doc_);
}

void HostJob::finish(const frontend::Outcome& outcome) {
  // The derived quantities need the rows of a run that was not stopped by an error.
  if (!outcome.fatal) suite_->finish(doc_);
  doc_.finish(outcome.cancelled ? "cancelled" : outcome.fatal ? to_string(outcome.fatal->kind) : "complete");
}

std::string HostJob::summary(std::size_t) const {
  std::ostringstream out;
  write_host_summary(out, doc_.machine(), doc_.options(), doc_.rows());
  write_host_curves(out, doc_.rows());
  out << "\nstatistic: minimum for compute-bound kernels (FMA), median with IQR for memory and latency "
         "(STREAM, dependent loads); rates per second of the row's unit.\n";
  return out.str();
}

}  // namespace wgb::host
