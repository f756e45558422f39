// Device-class rules (docs/store.md, "Device classes"). Pure functions of the submitted document.
#include "store/device_class.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <utility>
#include <vector>

namespace wgb::store {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// PCI vendor ids, for drivers that report an id but no vendor name.
std::string vendor_from_id(std::uint64_t id) {
  switch (id) {
    case 0x10de: return "nvidia";
    case 0x1002: case 0x1022: return "amd";
    case 0x8086: return "intel";
    case 0x13b5: return "arm";
    case 0x5143: return "qualcomm";
    case 0x106b: return "apple";
    case 0x1010: return "imagination";
    case 0x14e4: return "broadcom";
    case 0x10005: return "mesa";
    default: return "";
  }
}

// A string member, "" when absent; a usage error when present with another type.
std::string key_part(const std::string& s) {
  std::string k = slug(s);
  return k.empty() ? "-" : k;
}

DeviceClass finish(DeviceClass c) {
  c.key = fmt::format("{}/{}/{}/{}", key_part(c.vendor), key_part(c.architecture), key_part(c.device),
                      key_part(c.backend));
  std::string what = c.architecture.empty() ? c.vendor : c.vendor + " " + c.architecture;
  c.label = fmt::format("{} \u00b7 {} \u00b7 {}", c.device, what, c.backend);
  return c;
}

}  // namespace

std::string display_name(const DeviceClass& c) {
  const std::string d = tidy(c.device);
  return d.empty() ? tidy(c.label) : d;
}

std::string display_detail(const DeviceClass& c) {
  static const std::pair<const char*, const char*> kVendors[] = {{"nvidia", "NVIDIA"},
                                                                 {"amd", "AMD"},
                                                                 {"intel", "Intel"},
                                                                 {"arm", "Arm"},
                                                                 {"qualcomm", "Qualcomm"},
                                                                 {"apple", "Apple"},
                                                                 {"imagination", "Imagination"},
                                                                 {"broadcom", "Broadcom"},
                                                                 {"mesa", "Mesa"},
                                                                 {"google", "Google"},
                                                                 {"microsoft", "Microsoft"},
                                                                 {"samsung", "Samsung"}};
  static const std::pair<const char*, const char*> kBackends[] = {
      {"vulkan", "Vulkan"}, {"d3d12", "D3D12"},        {"d3d11", "D3D11"},       {"metal", "Metal"},
      {"opengl", "OpenGL"}, {"opengles", "OpenGL ES"}, {"null", "null backend"}, {"host", "host CPU"},
      {"webgpu", "WebGPU in a browser"}};
  static const std::pair<const char*, const char*> kTypes[] = {{"discrete-gpu", "discrete GPU"},
                                                               {"integrated-gpu", "integrated GPU"},
                                                               {"cpu", "CPU adapter"},
                                                               {"host", "host CPU"}};
  auto spelled = [](const std::string& v, const auto& table) {
    const std::string l = lower(tidy(v));
    for (const auto& [k, name] : table) {
      if (l == k) return std::string(name);
    }
    return tidy(v);
  };
  std::vector<std::string> parts;
  std::string who = spelled(c.vendor, kVendors);
  const std::string arch = tidy(c.architecture);
  if (!arch.empty()) {
    if (!who.empty()) who.append(" ");
    who.append(arch);
  }
  if (!who.empty()) parts.push_back(who);
  const std::string backend = spelled(c.backend, kBackends);
  const std::string type = spelled(c.adapter_type, kTypes);
  if (!backend.empty()) parts.push_back(backend);
  if (!type.empty() && type != "unknown" && type != backend) parts.push_back(type);
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out.append(" \u00b7 ");
    out.append(p);
  }
  return out;
}

std::string slug(std::string_view text) {
  std::string out;
  bool dash = false;
  for (unsigned char ch : text) {
    const char c = static_cast<char>(std::tolower(ch));
    const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '_';
    if (keep) {
      if (dash && !out.empty()) out += '-';
      out += c;
      dash = false;
    } else {
      dash = true;
    }
  }
  return out;
}

std::string tidy(std::string_view text) {
  std::string out;
  bool space = false;
  for (unsigned char ch : text) {
    // Control characters count as space: they have no business in a name shown to people.
    if (std::isspace(ch) || ch < 0x20 || ch == 0x7f) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    out += static_cast<char>(ch);
    space = false;
  }
  return out;
}

Expected<DeviceClass> adapter_class(const report::AdapterIdentity& adapter) {
  DeviceClass c;
  c.vendor = lower(tidy(adapter.vendor));
  if (c.vendor.empty()) c.vendor = vendor_from_id(adapter.vendor_id);
  if (c.vendor.empty()) c.vendor = "unknown";
  c.architecture = lower(tidy(adapter.architecture));
  c.device = tidy(adapter.device);
  if (c.device.empty()) c.device = tidy(adapter.description);
  if (c.device.empty()) c.device = "unknown device";
  c.backend = lower(tidy(adapter.backend));
  if (c.backend.empty()) c.backend = "unknown";
  c.adapter_type = lower(tidy(adapter.adapter_type));
  if (c.adapter_type.empty()) c.adapter_type = "unknown";
  // Only a discrete GPU has memory of its own; anything else (integrated, CPU, unknown) shares it.
  c.variable = c.adapter_type != "discrete-gpu";
  return finish(std::move(c));
}

Expected<std::string> host_identity(const report::HostDescriptionRecord& host) {
  const std::string name = tidy(host.cpu_model);
  if (name.empty()) return make_error(ErrorKind::Usage, "machine.host.cpu_model is missing or empty");
  // A positive integer member; 0 when absent (cores_per_socket may be unknown).
  auto count = [](const char* key, std::optional<std::uint64_t> value, bool required) -> Expected<std::uint64_t> {
    if (!value || (*value == 0 && required)) {
      if (!required) return std::uint64_t{0};
      return make_error(ErrorKind::Usage,
                        fmt::format("machine.host.{} is missing: a host class needs the CPU's topology", key));
    }
    if (*value < 1 || *value > 1'000'000) {
      return make_error(ErrorKind::Usage, fmt::format("machine.host.{} must be a positive integer", key));
    }
    return *value;
  };
  auto sockets = count("sockets", host.sockets, true);
  if (!sockets) return sockets.error();
  auto per_socket = count("cores_per_socket", host.cores_per_socket, false);
  if (!per_socket) return per_socket.error();
  auto logical = count("logical_cpus", host.logical_cpus, true);
  if (!logical) return logical.error();
  std::string topology = fmt::format("{} socket{}", *sockets, *sockets == 1 ? "" : "s");
  if (*per_socket > 0) topology += fmt::format(", {} cores", *sockets * *per_socket);
  topology += fmt::format(", {} threads", *logical);
  return fmt::format("{} ({})", name, topology);
}

Expected<DeviceClass> device_class_of(const report::Document& document) {
  if (document.machine.empty()) return make_error(ErrorKind::Usage, "missing the \"machine\" object");
  const report::HostDescriptionRecord host = report::read_host_description(document.machine);
  const bool has_host = document.host_recorded;
  if (document.adapter.recorded) {
    auto c = adapter_class(document.adapter);
    if (!c) return c;
    // A browser names the adapter but not the API under it: its runs form classes of their own
    // (vendor, architecture and device as the browser reports them, backend "webgpu") beside the
    // native ones. A page cannot see the CPU's model: a CPU adapter there is told apart by the
    // logical CPUs the browser reports (navigator.hardwareConcurrency), when it does.
    if (document.browser) {
      if (c->backend == "unknown") c->backend = "webgpu";
      if (c->adapter_type == "cpu" && host.logical_cpus >= 1 && host.logical_cpus <= 1'000'000) {
        c->device += fmt::format(" on {} logical CPUs", host.logical_cpus);
      }
      return finish(std::move(*c));
    }
    // A CPU adapter (llvmpipe, SwiftShader) runs on the host's cores: the same driver on a 2-core
    // VM and on a 64-core server are different devices.
    if (c->adapter_type == "cpu" && has_host) {
      auto id = host_identity(host);
      if (!id) return id.error();
      c->device += " on " + *id;
      return finish(std::move(*c));
    }
    return c;
  }

  // The host suite measures the CPU itself: its class is the CPU model, its topology (sockets,
  // cores, hardware threads) and the architecture.
  if (!document.host_suite() || !has_host) {
    return make_error(ErrorKind::Usage, "missing machine.adapter (only host-suite documents may omit it)");
  }
  auto id = host_identity(host);
  if (!id) return id.error();
  DeviceClass c;
  c.device = *id;
  const std::string m = lower(tidy(host.cpu_model));
  c.vendor = m.find("intel") != std::string::npos ? "intel"
             : m.find("amd") != std::string::npos ? "amd"
             : m.find("arm") != std::string::npos || m.find("neoverse") != std::string::npos ? "arm"
                                                                                            : "unknown";
  c.architecture = lower(tidy(host.arch.value_or("")));
  c.backend = "host";
  c.adapter_type = "host";
  c.variable = true;
  return finish(std::move(c));
}

}  // namespace wgb::store
