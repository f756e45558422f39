// The host CPU as a device of the command line: `webgpu-bench host`, and `--device host` on run,
// memory and sweep. --device is an ordinary option; which device runs is decided after parsing
// (resolve_device), so nothing depends on the order options are registered or given.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "cli/session.hpp"
#include "host/host.hpp"

namespace wgb::cli {

struct HostFlags {
  host::HostOptions o;
  std::string threads_list;
  std::string affinity = "cores";
  bool no_thread_sweep = false;
  bool no_size_sweep = false;
  bool quick = false;
  bool list = false;
  std::string render;  // --render FILE: print a saved host document, run nothing
  // Options given explicitly keep their value under --quick.
  CLI::Option* opt_array = nullptr;
  CLI::Option* opt_min = nullptr;
  CLI::Option* opt_max = nullptr;
  CLI::Option* opt_lat = nullptr;
  CLI::Option* opt_ppo = nullptr;
  CLI::Option* opt_reps = nullptr;
  CLI::Option* opt_warm = nullptr;
};

// Which command the host options are added to: `host` shows them; run, memory and sweep accept
// them with --device host but keep them out of their help (host --help lists them).
enum class HostUse { Host, Run, Memory, Sweep };
std::vector<CLI::Option*> add_host_options(CLI::App& cmd, HostFlags& f, HostUse use);

// --device gpu|host on a GPU command.
void add_device_choice(CLI::App& cmd, std::string& device, const char* host_meaning);

// After parsing: with --device host every option given must be a host option or one of `shared`
// (outputs the command forwards); without it, no host option may be given. One line, usage error.
Status resolve_device(const CLI::App& cmd, bool host, const std::vector<CLI::Option*>& host_options,
                      const std::set<std::string>& shared);

// A GPU command's own flags beside the host's, for --device gpu|host (run, memory, sweep).
template <class OwnFlags>
struct DeviceChoice {
  OwnFlags own;
  std::string device = "gpu";
  HostFlags host;
  std::vector<CLI::Option*> host_options;  // add_host_options: only with --device host

  bool on_host() const { return device == "host"; }
  // After parsing: resolve_device for the device chosen.
  Status resolve(const CLI::App& cmd, const std::set<std::string>& shared) const {
    return resolve_device(cmd, on_host(), host_options, shared);
  }
};

// Runs the host suite as a session; `adjust` applies the borrowing command's choices (a usage error
// stops it before any work).
int run_host(const HostFlags& f, const OutputFlags& out, const std::function<Status(host::HostOptions&)>& adjust = {});

// sweep --device host <id>: one host benchmark's curve over thread count or working-set size.
Status host_sweep_options(host::HostOptions& o, const std::string& id, const std::string& param,
                          const std::string& from, const std::string& to, const std::string& values);

}  // namespace wgb::cli
