// webgpu-bench: the command line. Errors become exit codes here only (see common.hpp).
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

#include "cli/common.hpp"

int main(int argc, char** argv) {
  using namespace wgb::cli;
  set_command_line(argc, argv);
  CLI::App app{
      "webgpu-bench: microbenchmarks of WebGPU (Dawn) on this machine's GPU.\n"
      "Exit codes: 0 ok, 1 a benchmark failed, 2 usage error, 3 no usable adapter,\n"
      "4 device lost / GPU error, 5 output not writable, 130 interrupted.",
      "webgpu-bench"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "webgpu-bench 0.1.0");
  int exit_code = kExitOk;
  register_run(app, exit_code);
  register_list(app, exit_code);
  register_devices(app, exit_code);
  register_memory(app, exit_code);
  register_report(app, exit_code);
  register_compare(app, exit_code);
  register_sweep(app, exit_code);
  register_host(app, exit_code);
  register_store(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One clear line (CLI11's own message), exit code 2.
    std::cerr << "webgpu-bench: " << e.what() << " (see --help)\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "webgpu-bench: internal error: " << e.what() << '\n';
    return kExitBenchmarkFailed;
  }
  return exit_code;
}
