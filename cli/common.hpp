// What the subcommands share: documented exit codes, one-line errors, device options.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "frontend/frontend.hpp"
#include "webgpu_bench/context.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::cli {

// The exit codes (README.md, docs/ARCHITECTURE.md, `webgpu-bench --help`): the one list the browser
// engine uses too (frontend/frontend.hpp).
using frontend::ExitCode;
using frontend::kExitBenchmarkFailed;
using frontend::kExitCancelled;
using frontend::kExitDeviceLost;
using frontend::kExitIo;
using frontend::kExitNetwork;
using frontend::kExitNoAdapter;
using frontend::kExitOk;
using frontend::kExitUsage;

int exit_code_for(const Error& e);
// Prints "webgpu-bench: <message>" on one line to stderr and returns the exit code for it.
int fail(const Error& e);
int fail(ErrorKind kind, const std::string& message);

// Validators that keep their own text out of the help's type column (the option's type name and
// description say the range in words): no "UINT:INT in [1 - 1048576]".
CLI::Validator in_range(double lo, double hi);
CLI::Validator one_of(std::vector<std::string> values);

struct DeviceFlags {
  std::string adapter;
  std::string backend;
  std::string configuration;  // --dawn-config: a gpu::native_configurations() name ("": the default)
  bool no_robustness = false;
  bool experimental = false;
  std::string clock = "auto";  // --clock: auto (timestamps where the adapter has them) or wall
  gpu::ContextOptions options() const;
};
// `all_adapters`: whether --adapter all (each adapter in turn) is offered (run only).
void add_device_flags(CLI::App& app, DeviceFlags& flags, bool all_adapters = false);

// memory and sweep measure one adapter: --adapter all (run's each-in-turn) is a usage error there.
Status single_adapter(const DeviceFlags& flags, const char* command);

// --kernel-dir DIR (run, sweep, memory): replace built-in kernels by the files of DIR, which mirrors
// kernels/. apply_kernel_dir reads them (before anything builds the catalog) and says on stderr
// which kernels are replaced; an empty dir does nothing.
void add_kernel_dir_flag(CLI::App& app, std::string& dir);
Status apply_kernel_dir(const std::string& dir);
// A subcommand's body after --kernel-dir is applied: its exit code, or the usage error's.
int with_kernel_dir(const std::string& dir, const std::function<int()>& body);

// The command line as given, for result documents.
const std::vector<std::string>& command_line();
void set_command_line(int argc, char** argv);

// Subcommand registration: each file owns one subcommand.
void register_run(CLI::App& app, int& exit_code);
void register_list(CLI::App& app, int& exit_code);
void register_devices(CLI::App& app, int& exit_code);
void register_memory(CLI::App& app, int& exit_code);     // memory.cpp: the memory suite
void register_report(CLI::App& app, int& exit_code);     // report.cpp: HTML report of a result document
void register_compare(CLI::App& app, int& exit_code);    // compare.cpp: two result documents
void register_sweep(CLI::App& app, int& exit_code);      // sweep.cpp: a benchmark over a parameter range
void register_hierarchy(CLI::App& app, int& exit_code);  // hierarchy.cpp: memory levels from two curves
void register_host(CLI::App& app, int& exit_code);       // host.cpp: the host CPU
void register_store(CLI::App& app, int& exit_code);      // store.cpp: serve / submit (results store)
void register_browser(CLI::App& app, int& exit_code);    // browser.cpp: the /run page in headless Chromium against native

}  // namespace wgb::cli
