// The pooled browser-against-native comparison of against_native.hpp.
#include "browser/against_native.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "report/compare.hpp"
#include "measure/stats.hpp"
#include "report/table.hpp"

namespace wgb::browser {

using nlohmann::json;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

const BenchmarkResult* find_row(const report::Document& d, const std::string& key) {
  for (const auto& r : d.rows) {
    if (report::row_key(r.result) == key) return &r.result;
  }
  return nullptr;
}

std::string outputs_text(const BenchmarkResult* b, const BenchmarkResult* n) {
  if (b == nullptr || n == nullptr || b->validation.empty() || n->validation.empty()) return "-";
  if (b->wgsl_hash != n->wgsl_hash) return "differ: the WGSL differs";
  const bool same = b->knob == n->knob ? b->validation == n->validation
                                        : without_numbers(b->validation) == without_numbers(n->validation);
  if (!same) {
    return fmt::format("differ: browser '{}', native '{}'", b->validation, n->validation);
  }
  return "agree";
}

}  // namespace

std::string without_numbers(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (std::isdigit(static_cast<unsigned char>(text[i])) == 0) {
      out += text[i++];
      continue;
    }
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) != 0 || text[i] == '.')) ++i;
    out += '#';  // "12", "4.8", "1e-07" -> "#", "#", "#e-#"
  }
  return out;
}

std::optional<std::size_t> match_native_adapter(const report::AdapterIdentity& browser_adapter,
                                                const std::vector<report::AdapterIdentity>& native_devices) {
  using report::AdapterIdentity;
  const std::string vendor = lower(browser_adapter.vendor);
  const std::string arch = lower(browser_adapter.architecture);
  const std::string name = lower(!browser_adapter.device.empty() ? browser_adapter.device : browser_adapter.description);
  auto index_of = [&native_devices](std::size_t i) {
    return static_cast<std::size_t>(native_devices[i].index.value_or(i));
  };
  std::optional<std::size_t> loose;
  for (std::size_t i = 0; i < native_devices.size(); ++i) {
    const AdapterIdentity& d = native_devices[i];
    if (lower(d.vendor) != vendor || lower(d.architecture) != arch) continue;
    const std::size_t index = index_of(i);
    const std::string native_name = lower(d.device);
    const std::string native_desc = lower(d.description);
    // Browsers often hide the device name (privacy): vendor and architecture then decide.
    if (name.empty()) return index;
    for (const auto& n : {native_name, native_desc}) {
      if (!n.empty() && (n.find(name) != std::string::npos || name.find(n) != std::string::npos)) return index;
    }
    if (!loose) loose = index;
  }
  // Same vendor and architecture with differently worded names (Chromium reports the driver's
  // description where Dawn natively reports the device): accept when there is exactly one such.
  std::size_t candidates = 0;
  for (const auto& d : native_devices) candidates += lower(d.vendor) == vendor && lower(d.architecture) == arch ? 1 : 0;
  if (candidates > 0) return candidates == 1 ? loose : std::nullopt;
  // A runtime that names no vendor or architecture of its own (wgpu reports a PCI id, Firefox
  // nothing at all): its device name decides, else its kind (a fallback adapter is the CPU one),
  // each only when exactly one native adapter fits.
  const bool numeric_vendor = !vendor.empty() && vendor.find_first_not_of("0123456789") == std::string::npos;
  if (!(vendor.empty() || numeric_vendor || arch.empty())) return std::nullopt;
  auto only = [&native_devices, &index_of](auto&& fits) -> std::optional<std::size_t> {
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < native_devices.size(); ++i) {
      if (!fits(native_devices[i])) continue;
      if (found) return std::nullopt;
      found = index_of(i);
    }
    return found;
  };
  const bool numeric_name = !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
  const std::string named = numeric_name ? lower(browser_adapter.description) : name;
  if (!named.empty()) {
    return only([&named](const AdapterIdentity& d) {
      for (const auto& n : {lower(d.device), lower(d.description)}) {
        if (!n.empty() && (n.find(named) != std::string::npos || named.find(n) != std::string::npos)) return true;
      }
      return false;
    });
  }
  const bool cpu = browser_adapter.is_fallback_adapter;
  return only([cpu](const AdapterIdentity& d) { return (d.adapter_type == "cpu") == cpu; });
}

std::string adapter_text(const report::AdapterIdentity& a) {
  const std::string& name = !a.device.empty() ? a.device : a.description;
  return fmt::format("{} {}{}", a.vendor.empty() ? "(unknown vendor)" : a.vendor,
                     a.architecture.empty() ? "(unknown architecture)" : a.architecture,
                     name.empty() ? "" : fmt::format(" ({})", name));
}

bool is_swiftshader(const report::AdapterIdentity& a) {
  return lower(a.architecture) == "swiftshader" ||
         lower(a.description + a.device).find("swiftshader") != std::string::npos;
}

Pooled pool_rounds(const std::vector<Round>& rounds) {
  Pooled p;
  p.rounds = rounds.size();
  std::vector<std::string> order;
  std::map<std::string, PooledRow> rows;
  std::map<std::string, std::vector<double>> native_rates, browser_rates, native_dispersions, browser_dispersions;
  for (const auto& r : rounds) {
    p.browser_wall_s += r.browser_wall_s;
    p.native_wall_s += r.native_wall_s;
    const auto c = report::compare_documents(r.native, r.browser);  // a = native, b = browser
    for (const auto& cr : c.rows) {
      auto [it, fresh] = rows.try_emplace(cr.key);
      if (fresh) order.push_back(cr.key);
      PooledRow& row = it->second;
      row.key = cr.key;
      row.unit = cr.unit;
      row.status_native = cr.status_a;
      row.status_browser = cr.status_b;
      row.outputs = outputs_text(find_row(r.browser, cr.key), find_row(r.native, cr.key));
      if (!cr.measured_both || cr.a <= 0 || cr.b <= 0) continue;
      row.ratios.push_back(cr.b / cr.a);
      native_rates[cr.key].push_back(cr.a);
      browser_rates[cr.key].push_back(cr.b);
      row.significant_rounds += cr.significant ? 1 : 0;
      row.round_noise.push_back(cr.noise);
      native_dispersions[cr.key].push_back(cr.dispersion_a);
      browser_dispersions[cr.key].push_back(cr.dispersion_b);
    }
    if (&r == &rounds.back()) {
      p.only_native = c.only_a;
      p.only_browser = c.only_b;
    }
  }
  double log_sum = 0;
  std::size_t measured = 0;
  for (const auto& key : order) {
    PooledRow row = rows[key];
    row.rounds = row.ratios.size();
    if (row.rounds > 0) {
      // Paired rounds: the pooled ratio against 1 (docs/method.md#differ).
      const auto b = report::pooled_ratio(row.ratios, measure::median(browser_dispersions[key]));
      const auto d = report::compare_estimates({1, measure::median(native_dispersions[key]), row.rounds}, b);
      const double mean = std::log(b.value);
      row.geomean = b.value;
      row.se = b.value * b.standard_error;
      row.noise = d.allowance;
      row.significant = d.differs();
      row.native_rate = measure::median(native_rates[key]);
      row.browser_rate = measure::median(browser_rates[key]);
      log_sum += mean;
      ++measured;
    }
    p.rows.push_back(std::move(row));
  }
  p.geomean = measured > 0 ? std::exp(log_sum / static_cast<double>(measured)) : 0;
  return p;
}

}  // namespace wgb::browser
