// Browser against native on one adapter (`webgpu-bench browser`): which native adapter is the
// browser's, and the comparison pooled over alternating rounds.
//
// Per round, report::compare_documents(native, browser) gives each row's ratio browser/native and
// its verdict (the `compare` rule). Pooled over the rounds where a row was measured on both sides,
// the same rule (docs/method.md#differ) judges paired rounds: the pooled ratio is the geometric mean
// of the per-round ratios with its standard error gm * sd(log ratio) / sqrt(n), against 1, each
// side's dispersion the median of its rounds': with one round that is exactly `compare`'s verdict,
// with many the spread between rounds decides.
// The per-round verdicts are counted beside it. The outputs agree when both sides
// validated the row with the same check (the row's `validation` text) and ran the same WGSL.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/files.hpp"

namespace wgb::browser {

// The index of the native adapter (`devices --json`) that is the browser's (the page's adapter
// info: vendor, architecture, device, description): same vendor and architecture, and where both
// name a device, descriptions that contain one another. A runtime that names no vendor (or a PCI
// id) or no architecture is matched by its device name, else, when it names nothing at all
// (Firefox), by its kind (a fallback adapter is the CPU one): each only where one native adapter
// fits. nullopt: none matches.
// Both read with report::read_adapter_identity / read_adapter_list.
std::optional<std::size_t> match_native_adapter(const report::AdapterIdentity& browser_adapter,
                                                const std::vector<report::AdapterIdentity>& native_devices);
// "google swiftshader (SwiftShader Device (Subzero))" for messages.
std::string adapter_text(const report::AdapterIdentity& adapter);
// Whether the browser's adapter is Chromium's SwiftShader (the native side then needs Chromium's
// SwiftShader Vulkan driver: VK_DRIVER_FILES).
bool is_swiftshader(const report::AdapterIdentity& adapter);

// The validation text with every number replaced by "#" ("12", "4.8", "1e-07" -> "#", "#", "#e-#").
// Each side calibrates its own loop count (from its timings) and the check's numbers follow from it
// (the loop count, the worst error), so rows whose loop counts differ are compared on the check that
// passed; with equal loop counts the inputs are the same and the texts must be identical.
std::string without_numbers(const std::string& text);

struct Round {
  int index = 0;                 // 1-based
  bool browser_first = true;     // the order alternates: B N, N B, B N, ...
  double browser_wall_s = 0, native_wall_s = 0;  // page load to done; process start to exit
  report::Document browser, native;
};

struct PooledRow {
  std::string key, unit;
  std::size_t rounds = 0;              // rounds measured on both sides
  std::vector<double> ratios;          // browser/native per such round
  double geomean = 0, se = 0;          // of the ratios (0 when rounds == 0)
  double native_rate = 0, browser_rate = 0;  // medians over those rounds
  std::vector<double> round_noise;     // compare's noise per such round
  double noise = 0;                    // the rule's allowance for the pooled ratio
  bool significant = false;
  std::size_t significant_rounds = 0;  // rounds whose own comparison called the change significant
  std::string status_browser, status_native;  // of the last round (ok, error, skipped, ...)
  std::string outputs;  // "agree", "differ: ...", or "-" (not validated on both sides)
};

struct Pooled {
  std::vector<PooledRow> rows;
  std::vector<std::string> only_browser, only_native;  // keys in one side's last document only
  std::size_t rounds = 0;
  double browser_wall_s = 0, native_wall_s = 0;  // sums over the rounds
  double geomean = 0;                            // of the rows' pooled ratios (0 when none)
};

Pooled pool_rounds(const std::vector<Round>& rounds);

}  // namespace wgb::browser
