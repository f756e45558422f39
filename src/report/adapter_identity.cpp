// An adapter's identity, read (adapter_identity.hpp).
#include "report/adapter_identity.hpp"

#include "report/field_reader.hpp"

namespace wgb::report {

namespace {

std::string identity_text(const nlohmann::json& a, const char* key) { return json_text(a, key).value_or(""); }
}  // namespace

AdapterIdentity read_adapter_identity(const nlohmann::json& a) {
  AdapterIdentity id{identity_text(a, "vendor"),      identity_text(a, "architecture"), identity_text(a, "device"),
                     identity_text(a, "description"), identity_text(a, "driver"),       identity_text(a, "backend"),
                     identity_text(a, "adapter_type")};
  if (!a.is_object()) return id;
  id.recorded = true;
  auto number = [&a](const char* key) {
    const auto v = json_number(a, key);
    return v && *v >= 0 ? static_cast<std::uint32_t>(*v) : 0u;
  };
  id.vendor_id = number("vendor_id");
  id.device_id = number("device_id");
  if (const auto i = a.find("index"); i != a.end() && i->is_number_unsigned()) id.index = i->get<std::uint64_t>();
  if (const auto f = a.find("is_fallback_adapter"); f != a.end() && f->is_boolean())
    id.is_fallback_adapter = f->get<bool>();
  return id;
}

std::vector<AdapterIdentity> read_adapter_list(const nlohmann::json& devices) {
  std::vector<AdapterIdentity> out;
  if (!devices.is_array()) return out;
  for (const auto& d : devices) out.push_back(read_adapter_identity(d));
  return out;
}

}  // namespace wgb::report
