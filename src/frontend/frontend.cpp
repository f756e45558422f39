// The one front-end loop (frontend.hpp).
#include "frontend/frontend.hpp"

#include "report/table.hpp"

namespace wgb::frontend {

int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage:
    case ErrorKind::Compile: return kExitUsage;
    case ErrorKind::NoAdapter: return kExitNoAdapter;
    case ErrorKind::DeviceLost:
    case ErrorKind::GpuError: return kExitDeviceLost;
    case ErrorKind::Io: return kExitIo;
    case ErrorKind::Cancelled: return kExitCancelled;
    default: return kExitBenchmarkFailed;
  }
}

int exit_status(const Outcome& o) {
  if (o.cancelled) return kExitCancelled;
  if (o.fatal) return exit_code_for(o.fatal->kind);
  if (!o.failure.empty() || o.any_error) return kExitBenchmarkFailed;
  return kExitOk;
}

Outcome run(Job& job, FrontEnd& fe, std::size_t width) {
  Outcome out;
  const CancelToken cancel = fe.cancel();
  JobContext context{cancel, [&fe](const ProgressEvent& e) { fe.progress(e); }};
  auto fail_before_rows = [&](Error e) {
    out.ran = false;
    if (e.kind == ErrorKind::Cancelled || cancel.cancelled()) {
      out.cancelled = true;
    } else {
      out.fatal = std::move(e);
    }
    return out;
  };
  if (auto st = job.start(context); !st) return fail_before_rows(st.error());
  if (auto st = fe.started(job); !st) return fail_before_rows(st.error());

  // The table is laid out before the first row, from the rows that will come.
  std::vector<std::string> ids, units;
  for (const auto& r : job.planned()) {
    ids.push_back(r.id);
    units.push_back(r.metric.unit);
  }
  const report::TableStream stream(ids, units, width);
  fe.header(stream.header());
  fe.begin(ids.size(), job.estimates_s());
  while (auto row = job.next()) {
    out.any_error = out.any_error || row->status == RowStatus::Error;
    if (row->status != RowStatus::Cancelled) ++out.completed;  // rows that really ran (not an interrupt's)
    const std::string line = stream.row(*row);
    const std::string summary = job.progress_line(*row);
    job.record(*row);  // into the document before anyone is told: nothing shown is ever unwritten
    fe.row(*row, line, summary, job.document());
    fe.between_rows();
  }
  out.cancelled = cancel.cancelled();
  if (auto fatal = job.fatal(); fatal && fatal->kind != ErrorKind::Cancelled) out.fatal = std::move(fatal);
  if (auto fatal = job.fatal(); fatal && fatal->kind == ErrorKind::Cancelled) out.cancelled = true;
  // Only a run that completed reaches 100 %; an interrupted or failed one stops where it was.
  fe.end(!out.cancelled && !out.fatal);
  job.finish(out);
  // What the job does after its rows (the accuracy pass) can be interrupted too.
  out.cancelled = out.cancelled || cancel.cancelled();
  return out;
}

}  // namespace wgb::frontend
