// `webgpu-bench devices`: every adapter Dawn finds, with what matters for benchmarking.
#include <fmt/format.h>

#include <iostream>

#include "cli/common.hpp"
#include "cli/terminal.hpp"
#include "gpu/names.hpp"
#include "report/document.hpp"
#include "report/table.hpp"

namespace wgb::cli {

void register_devices(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("devices", "List the adapters (vendor, architecture, backend, type, driver, "
                                            "limits, features, WGSL language features)");
  static DeviceFlags flags;
  static bool as_json = false;
  cmd->add_flag("--json", as_json, "Print JSON instead of text");
  cmd->add_flag("--experimental", flags.experimental, "Enumerate with Dawn's unsafe APIs allowed");
  cmd->callback([&exit_code] {
    auto adapters = gpu::Context::enumerate(flags.options());
    if (!adapters) {
      exit_code = fail(adapters.error());
      return;
    }
    if (adapters->empty()) {
      exit_code = fail(ErrorKind::NoAdapter, "no usable WebGPU adapter (Dawn found none; is a Vulkan driver installed?)");
      return;
    }
    if (as_json) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& a : *adapters) {
        // Before a device exists: the adapter's offered features, and those a run's device enables.
        out.push_back(report::adapter_listing_json(a, gpu::enabled_features(a.features, flags.experimental)));
      }
      std::cout << out.dump(2) << '\n';
      return;
    }
    const std::size_t width = terminal_width();
    for (const auto& a : *adapters) {
      std::cout << fmt::format("[{}] {}\n", a.index, a.device.empty() ? a.description : a.device);
      std::cout << fmt::format("    vendor:        {} (0x{:04x}), architecture: {}\n", a.vendor, a.vendor_id,
                               a.architecture.empty() ? "-" : a.architecture);
      std::cout << fmt::format("    backend:       {}, type: {}, device id 0x{:04x}\n", a.backend, a.adapter_type,
                               a.device_id);
      std::cout << fmt::format("    driver:        {}\n", a.driver);
      if (a.subgroup_max_size > 0) {
        std::cout << fmt::format("    subgroups:     {}..{} lanes\n", a.subgroup_min_size, a.subgroup_max_size);
      }
      std::cout << "    limits:\n";
      for (const auto& [k, v] : a.limits) std::cout << fmt::format("      {:<42} {}\n", k, v);
      // Lists wrap at the terminal's width, continuation lines indented under their heading.
      auto list = [width](const std::string& heading, const std::vector<std::string>& items) {
        const std::string text = fmt::format("{}: {}", heading, items.empty() ? "none" : fmt::format("{}", fmt::join(items, ", ")));
        std::cout << report::wrap_text(text, width, 4, 8) << '\n';
      };
      list("adapter features (offered)", a.features);
      list("device features (a run enables)", gpu::enabled_features(a.features, flags.experimental));
      list("WGSL features", a.wgsl_features);
      for (const auto& h : a.memory_heaps) {
        const std::string props = h.properties.empty() ? "no properties" : fmt::format("{}", fmt::join(h.properties, ", "));
        std::cout << fmt::format("    memory heap:   {:.1f} GiB, {}\n", static_cast<double>(h.size) / (1ull << 30), props);
      }
      if (!a.subgroup_matrix_configs.empty()) {
        std::cout << "    subgroup matrices (experimental):\n";
        for (const auto& m : a.subgroup_matrix_configs) {
          std::cout << fmt::format("      {} -> {}  {}x{}x{}\n", m.component, m.result, m.m, m.n, m.k);
        }
      } else if (!flags.experimental) {
        std::cout << "    subgroup matrices: not queried (needs --experimental)\n";
      }
    }
  });
}

}  // namespace wgb::cli
