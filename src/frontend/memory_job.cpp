// The memory suite as a front-end job (memory_job.hpp).
#include "frontend/memory_job.hpp"

#include <sstream>

namespace wgb::frontend {

MemoryJob::MemoryJob(MemoryJobOptions options) : o_(std::move(options)) {}
MemoryJob::~MemoryJob() = default;

Status MemoryJob::start(const JobContext& context) {
  // Options out of range are the user's mistake, before any device is opened.
  if (auto st = memory::validate_options(o_.memory); !st) return st;
  ctx_ = o_.context;
  if (ctx_ == nullptr) {
    auto created = gpu::Context::create(o_.device);
    if (!created) return std::move(created).error();
    owned_ = std::move(*created);
    ctx_ = owned_.get();
  }
  memory::MemoryOptions mo = o_.memory;
  mo.cancel = context.cancel;
  mo.on_progress = context.progress;
  doc_.emplace(o_.command, *ctx_, mo, o_.machine);
  if (o_.annotate) o_.annotate(doc_->document());
  suite_.emplace(*ctx_, std::move(mo));
  return suite_->start();
}

std::optional<BenchmarkResult> MemoryJob::next() {
  auto row = suite_->next();
  // The working set is known once the fixture is set up, before the first phase's row.
  if (!working_set_recorded_ && suite_->result().working_set) {
    doc_->set_working_set(*suite_->result().working_set);
    working_set_recorded_ = true;
  }
  return row;
}

std::optional<Error> MemoryJob::fatal() const { return suite_ ? suite_->result().fatal : std::nullopt; }

void MemoryJob::finish(const Outcome&) {
  if (o_.annotate) o_.annotate(doc_->document());
  doc_->finish(suite_->result());
}

std::string MemoryJob::summary(std::size_t width) const {
  std::ostringstream out;
  memory::write_summary(out, suite_->result(), suite_->options(), ctx_->adapter(), width);
  return out.str();
}

}  // namespace wgb::frontend
