// What identifies an adapter, read from any record of one: a document's machine.adapter, an entry
// of `devices --json`, a runtime's init record (adapter_json writes them; page_messages.hpp).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace wgb::report {

struct AdapterIdentity {
  std::string vendor, architecture, device, description, driver, backend, adapter_type;
  std::uint32_t vendor_id = 0, device_id = 0;
  bool recorded = false;  // the document has a machine.adapter section
  // `devices --json`: the adapter's index; a page's adapter: whether it is the fallback (CPU) one.
  std::optional<std::uint64_t> index;
  bool is_fallback_adapter = false;
};
// An adapter as machine.adapter, `devices --json` and a page's init message write it
// (adapter_json): what identifies it. A field missing or of another type reads as empty; `recorded`
// says whether `adapter` is an object at all.
AdapterIdentity read_adapter_identity(const nlohmann::json& adapter);
// `devices --json`: every adapter of the array (none when it is not one).
std::vector<AdapterIdentity> read_adapter_list(const nlohmann::json& devices);

}  // namespace wgb::report
