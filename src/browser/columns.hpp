// The columns of `webgpu-bench browser`: each runs the selection once per round and gives back the
// result document, whatever runs it: this program natively in a child process (one column per
// native configuration), the /run page in a browser driven over a PageDriver (Chromium, Firefox),
// or the Deno entry (web/deno.js) in a child process. A column that fails a round says why with the
// log's tail; the rounds alternate the columns' order so drift over a session hits all alike.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "browser/page_driver.hpp"
#include "report/files.hpp"

namespace wgb::browser {

// What one column gave in one round.
struct RoundRun {
  int round = 0;
  bool ran = false;                         // false: the column was not run (failed before, cancelled)
  std::optional<report::Document> document;  // the round's document (state may be "cancelled")
  double wall_s = 0;                        // start to end, outside anything measured
  int exit_status = 0;                      // a child's exit status (0 for pages)
  bool cancelled = false;
  std::string error;  // why there is no usable document (with the log's tail); empty when there is
  std::string warning;  // what went wrong after the document was whole (kept): a crash at exit
};

struct RoundContext {
  int round = 0, rounds = 0;
  const std::atomic<bool>* cancel = nullptr;
  std::chrono::seconds timeout{1800};  // one column's round
  std::filesystem::path folder;        // where round documents and logs go
  std::function<void(const std::string&)> progress;  // a status line while it runs (may be empty)
};

class Column {
 public:
  virtual ~Column() = default;
  virtual RoundRun run(const RoundContext& ctx) = 0;
};

// A child process that writes the round's document to the file given after `out_flag`: this
// program (process::self_command() + `run`/`memory`, --json) or the Deno entry (`deno run ...
// deno.js`, --out). The document goes to `<folder>/round-NN-<name>.json`, the output to a log
// beside it; exit status 0 and 1 (a row failed) give a document, 130 is a cancel.
std::unique_ptr<Column> child_column(std::string name, std::vector<std::string> command, std::string out_flag,
                                     std::vector<std::string> env);

// The /run page at `run_url` in a browser that `page` reaches; `owner` keeps the browser alive
// while the column lives, `log_tail` says what the browser logged when a round fails.
std::unique_ptr<Column> page_column(std::string name, PageDriver& page, std::shared_ptr<void> owner,
                                    std::string run_url, std::function<std::string()> log_tail);

// The columns run in rounds: odd rounds in the given order, even rounds reversed. A column that
// fails a round (its error said through `note`) is not run again; the others complete. Stops after
// the round in which `*ctx.cancel` became true. Returns runs[column][round].
std::vector<std::vector<RoundRun>> run_rounds(const std::vector<Column*>& columns, const std::vector<std::string>& names,
                                              RoundContext ctx, const std::function<void(const std::string&)>& note);

// Evaluated on the /run page: what the automation needs from window.wgbState, small.
extern const char* const kPageStateProbe;

}  // namespace wgb::browser
