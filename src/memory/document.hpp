// The memory suite's result document (report::ResultDocument, suite "memory"): the device, the
// options, the working set (ranked or not, and why), the suite's scope statement, and one row per
// phase (memory-read ... memory-sustain). Written atomically after every phase so a cancelled or
// lost run keeps what completed. Also the console summary the CLI prints.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "memory/memory.hpp"
#include "report/document.hpp"

namespace wgb::memory {

nlohmann::json options_json(const MemoryOptions& o);
nlohmann::json working_set_json(const WorkingSet& ws);
nlohmann::json scope_json(const MemoryOptions& o);  // [{"measured": ..., "not_measured": ...}, ...]

class MemoryDocument {
 public:
  // `machine`: where it runs (natively host::native_machine()).
  MemoryDocument(std::vector<std::string> command, gpu::Context& gpu, const MemoryOptions& options,
                 report::MachineRecord machine = {});
  void set_working_set(const WorkingSet& ws);
  void add_row(const BenchmarkResult& row);
  // The end state ("complete", "cancelled", "device-lost", ...) and, when it stopped early, why.
  void finish(const MemoryRun& run);
  const nlohmann::json& json() const { return doc_.json(); }
  const report::ResultDocument& document() const { return doc_; }  // rows for the CSV writer
  report::ResultDocument& document() { return doc_; }

 private:
  report::ResultDocument doc_;
};

// The console summary, laid out for `width` columns: per phase median, its dispersion (IQR, as for
// every median row of `run`), samples, rejected, clock; sustain's retention and a coarse timeline;
// the working set; the scope statement.
void write_summary(std::ostream& out, const MemoryRun& run, const MemoryOptions& options,
                   const gpu::AdapterDescription& adapter, std::size_t width = 100);
// One line for a finished phase (progress output).
std::string phase_line(const BenchmarkResult& row);

}  // namespace wgb::memory
