// Exit codes, one-line errors and the device flags shared by the subcommands.
#include "cli/common.hpp"

#include <fmt/format.h>

#include <cctype>
#include <iostream>

#include "catalog/common.hpp"
#include "gpu/kernel_override.hpp"
#include "memory/memory.hpp"

namespace wgb::cli {

int exit_code_for(const Error& e) { return frontend::exit_code_for(e.kind); }

int fail(const Error& e) {
  std::string msg = e.message;
  for (auto& c : msg) {
    if (c == '\n') c = ' ';
  }
  std::cerr << "webgpu-bench: " << msg << '\n';
  return exit_code_for(e);
}

int fail(ErrorKind kind, const std::string& message) { return fail(Error{kind, message}); }

CLI::Validator in_range(double lo, double hi) {
  CLI::Validator v = CLI::Range(lo, hi);
  v.description("");
  return v;
}

CLI::Validator one_of(std::vector<std::string> values) {
  CLI::Validator v = CLI::IsMember(std::move(values));
  v.description("");
  return v;
}

gpu::ContextOptions DeviceFlags::options() const {
  gpu::ContextOptions o;
  o.adapter = adapter;
  o.backend = backend;
  o.configuration = configuration;
  o.robustness = !no_robustness;
  o.experimental = experimental;
  o.wall_clock = clock == "wall";
  return o;
}

void add_device_flags(CLI::App& app, DeviceFlags& flags, bool all_adapters) {
  app.add_option("--adapter", flags.adapter,
                 all_adapters ? "Adapter: 'best' (default: discrete GPU > integrated > CPU), 'all' (each in turn, then "
                                "the rates side by side), an index from 'webgpu-bench devices', or a case-insensitive "
                                "name substring"
                              : "Adapter: 'best' (default: discrete GPU > integrated > CPU), an index from "
                                "'webgpu-bench devices', or a case-insensitive name substring")
      ->type_name("ADAPTER");
  CLI::Validator backends = CLI::IsMember({"vulkan", "metal", "d3d12", "d3d11", "opengl", "opengles"}, CLI::ignore_case);
  backends.description("");
  app.add_option("--backend", flags.backend, "Only adapters of this backend: vulkan, metal, d3d12, d3d11, opengl, opengles")
      ->type_name("BACKEND")
      ->check(backends);
  std::vector<std::string> names;
  std::string listed;
  for (const auto& c : gpu::native_configurations()) {
    names.push_back(c.name);
    listed += fmt::format("; {}: {}", c.name, c.description);
  }
  app.add_option("--dawn-config", flags.configuration,
                 fmt::format("Dawn configuration (docs/implementations.md), default {}{}", names.front(), listed))
      ->type_name("NAME")
      ->check(one_of(names));
  app.add_flag("--no-robustness", flags.no_robustness,
               "Disable Dawn's robustness (bounds checks): shows what WebGPU's safety checks cost "
               "(the same as --dawn-config no-robustness)");
  app.add_flag("--experimental", flags.experimental,
               "Allow Dawn's unsafe APIs (and f16 on NVIDIA Vulkan); rows that depend on them say so");
  app.add_option("--clock", flags.clock,
                 "auto: GPU timestamps where the adapter has them, else the wall clock; wall: ignore timestamps and "
                 "time every pass on the wall clock minus the empty-submit cost (rows record the clock used)")
      ->type_name("auto|wall")
      ->check(one_of({"auto", "wall"}));
}

Status single_adapter(const DeviceFlags& flags, const char* command) {
  std::string sel = flags.adapter;
  for (auto& c : sel) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (sel != "all") return ok();
  return make_error(ErrorKind::Usage, fmt::format("--adapter all runs each adapter in turn with 'run' only; '{}' "
                                                  "measures one (an index or a name from 'webgpu-bench devices')",
                                                  command));
}

void add_kernel_dir_flag(CLI::App& app, std::string& dir) {
  app.add_option("--kernel-dir", dir,
                 "Replace built-in kernels by the .wgsl files of this folder, which mirrors kernels/ (e.g. "
                 "DIR/bandwidth/write_linear.wgsl); the result document lists them")
      ->type_name("DIR");
}

Status apply_kernel_dir(const std::string& dir) {
  if (dir.empty()) return ok();
  auto known = [](std::string_view name) {
    return !wgb::kernels::find(name).empty() || !memory::kernels::find(name).empty();
  };
  if (auto st = gpu::set_kernel_dir(dir, known); !st) return st;
  std::string names;
  for (const auto& k : gpu::kernel_overrides()) names += (names.empty() ? "" : ", ") + k.name;
  std::cerr << fmt::format("webgpu-bench: kernels replaced from {}: {} (rows using them measure those files)\n", dir,
                           names);
  return ok();
}

int with_kernel_dir(const std::string& dir, const std::function<int()>& body) {
  if (auto st = apply_kernel_dir(dir); !st) return fail(st.error());
  return body();
}

namespace {
std::vector<std::string>& command_storage() {
  static std::vector<std::string> v;
  return v;
}
}  // namespace

const std::vector<std::string>& command_line() { return command_storage(); }

void set_command_line(int argc, char** argv) {
  command_storage().assign(argv, argv + argc);
}

}  // namespace wgb::cli
