// webgpu-bench: the command line. Errors become exit codes here only (see common.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <iostream>

#include "cli/common.hpp"
#include "cli/help_format.hpp"
#include "cli/terminal.hpp"
#include "cli/suggest.hpp"

namespace {

using namespace wgb::cli;

std::vector<std::string> command_names(CLI::App& app) {
  std::vector<std::string> names;
  for (const auto* sub : app.get_subcommands([](CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

// The option names a command accepts (hidden ones included: they are accepted with --device host),
// for suggestions.
std::vector<std::string> option_names(const CLI::App& cmd) {
  std::vector<std::string> names;
  for (const auto* opt : cmd.get_options()) {
    for (const auto& l : opt->get_lnames()) {
      if (l != "repro-second-run") names.push_back("--" + l);
    }
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

// Help in words: CLI11 writes a validator's text into the type column ("UINT:INT in [1 - 1048576]",
// "TEXT:{a,b}"). The range moves into the description ("1 to 1048576") and the types read as N,
// NUMBER or TEXT; the checks themselves stay.
void readable_types(CLI::App& app) {
  for (auto* cmd : app.get_subcommands([](CLI::App*) { return true; })) {
    for (CLI::Option* opt : cmd->get_options()) {
      std::string range;
      for (int i = 0;; ++i) {
        CLI::Validator* v = nullptr;
        try {
          v = opt->get_validator(i);
        } catch (const CLI::OptionNotFound&) {
          break;
        }
        const std::string d = v->get_description();
        if (d.empty()) continue;
        const auto in = d.find(" in [");
        if (in != std::string::npos && d.back() == ']') {
          range = d.substr(in + 5, d.size() - in - 6);
          if (const auto dash = range.find(" - "); dash != std::string::npos) range.replace(dash, 3, " to ");
        }
        v->description("");
      }
      const std::string type = opt->get_type_name();
      if (type == "UINT" || type == "INT") opt->type_name("N");
      if (type == "FLOAT") opt->type_name("NUMBER");
      if (!range.empty()) opt->description(fmt::format("{} ({})", opt->get_description(), range));
    }
  }
}

// One line for arguments CLI11 could not place: the first unknown option (with the nearest valid
// one), else the first unexpected value.
int unknown_arguments(CLI::App& app, CLI::App* cmd) {
  std::vector<std::string> extras = app.remaining();
  const CLI::App& where = cmd != nullptr ? *cmd : app;
  if (cmd != nullptr) {
    const auto own = cmd->remaining();
    extras.insert(extras.begin(), own.begin(), own.end());
  }
  const std::string prefix = cmd != nullptr ? fmt::format("webgpu-bench {}", cmd->get_name()) : "webgpu-bench";
  for (const auto& arg : extras) {
    if (arg.size() < 2 || arg[0] != '-') continue;
    const std::string name = arg.substr(0, arg.find('='));
    const std::string near = nearest(name, option_names(where));
    std::cerr << fmt::format("{}: unknown option {}{} (see '{} --help')\n", prefix, name,
                             near.empty() ? "" : fmt::format("; did you mean {}?", near), prefix);
    return kExitUsage;
  }
  std::cerr << fmt::format("{}: unexpected argument '{}' (see '{} --help')\n", prefix,
                           extras.empty() ? std::string() : extras.front(), prefix);
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  set_command_line(argc, argv);
  CLI::App app{
      "webgpu-bench: microbenchmarks of WebGPU (Dawn) on this machine's GPU.\n"
      "Exit codes: 0 ok, 1 a benchmark failed, 2 usage error, 3 no usable adapter,\n"
      "4 device lost / GPU error, 5 a file could not be written, 6 network (the results server\n"
      "could not be reached or answered an HTTP error), 130 interrupted.",
      "webgpu-bench"};
  // Before any subcommand exists: each copies its parent's formatter when it is added.
  app.formatter(std::make_shared<wgb::cli::WrappingFormatter>(wgb::cli::terminal_width()));
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
  register_hierarchy(app, exit_code);
  register_host(app, exit_code);
  register_store(app, exit_code);
  register_browser(app, exit_code);
  readable_types(app);
  // A first word that is no command: say which one was probably meant.
  if (argc > 1 && argv[1][0] != '-') {
    const auto names = command_names(app);
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      const std::string near = nearest(argv[1], names);
      std::cerr << fmt::format("webgpu-bench: unknown command '{}'{} (see 'webgpu-bench --help')\n", argv[1],
                               near.empty() ? "" : fmt::format("; did you mean '{}'?", near));
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError&) {
    const auto parsed = app.get_subcommands();
    return unknown_arguments(app, parsed.empty() ? nullptr : parsed.front());
  } catch (const CLI::RequiredError& e) {
    if (app.get_subcommands().empty()) {
      std::cerr << fmt::format("webgpu-bench: a command is required: {} (see 'webgpu-bench --help')\n",
                               fmt::format("{}", fmt::join(command_names(app), ", ")));
      return kExitUsage;
    }
    std::cerr << "webgpu-bench: " << e.what() << " (see --help)\n";
    return kExitUsage;
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
