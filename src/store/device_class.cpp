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
Expected<std::string> text_field(const nlohmann::json& obj, const char* name, const char* where) {
  auto it = obj.find(name);
  if (it == obj.end() || it->is_null()) return std::string{};
  if (!it->is_string()) {
    return make_error(ErrorKind::Usage, fmt::format("{}.{} must be a string", where, name));
  }
  return it->get<std::string>();
}

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

Expected<DeviceClass> adapter_class(const nlohmann::json& adapter) {
  if (!adapter.is_object()) return make_error(ErrorKind::Usage, "machine.adapter must be an object");
  const char* where = "machine.adapter";
  auto vendor = text_field(adapter, "vendor", where);
  auto arch = text_field(adapter, "architecture", where);
  auto device = text_field(adapter, "device", where);
  auto description = text_field(adapter, "description", where);
  auto backend = text_field(adapter, "backend", where);
  auto type = text_field(adapter, "adapter_type", where);
  for (const auto* e : {&vendor, &arch, &device, &description, &backend, &type}) {
    if (!*e) return e->error();
  }
  DeviceClass c;
  c.vendor = lower(tidy(*vendor));
  if (c.vendor.empty()) {
    auto id = adapter.find("vendor_id");
    if (id != adapter.end() && id->is_number_integer() && id->get<std::int64_t>() >= 0) {
      c.vendor = vendor_from_id(id->get<std::uint64_t>());
    }
  }
  if (c.vendor.empty()) c.vendor = "unknown";
  c.architecture = lower(tidy(*arch));
  c.device = tidy(*device);
  if (c.device.empty()) c.device = tidy(*description);
  if (c.device.empty()) c.device = "unknown device";
  c.backend = lower(tidy(*backend));
  if (c.backend.empty()) c.backend = "unknown";
  c.adapter_type = lower(tidy(*type));
  if (c.adapter_type.empty()) c.adapter_type = "unknown";
  // Only a discrete GPU has memory of its own; anything else (integrated, CPU, unknown) shares it.
  c.variable = c.adapter_type != "discrete-gpu";
  return finish(std::move(c));
}

Expected<std::string> host_identity(const nlohmann::json& host) {
  if (!host.is_object()) return make_error(ErrorKind::Usage, "machine.host must be an object");
  auto model = text_field(host, "cpu_model", "machine.host");
  if (!model) return model.error();
  const std::string name = tidy(*model);
  if (name.empty()) return make_error(ErrorKind::Usage, "machine.host.cpu_model is missing or empty");
  // A positive integer member; 0 when absent or null (cores_per_socket may be unknown).
  auto count = [&host](const char* key, bool required) -> Expected<std::int64_t> {
    auto it = host.find(key);
    if (it == host.end() || it->is_null()) {
      if (!required) return std::int64_t{0};
      return make_error(ErrorKind::Usage,
                        fmt::format("machine.host.{} is missing: a host class needs the CPU's topology", key));
    }
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > 1'000'000) {
      return make_error(ErrorKind::Usage, fmt::format("machine.host.{} must be a positive integer", key));
    }
    return it->get<std::int64_t>();
  };
  auto sockets = count("sockets", true);
  if (!sockets) return sockets.error();
  auto per_socket = count("cores_per_socket", false);
  if (!per_socket) return per_socket.error();
  auto logical = count("logical_cpus", true);
  if (!logical) return logical.error();
  std::string topology = fmt::format("{} socket{}", *sockets, *sockets == 1 ? "" : "s");
  if (*per_socket > 0) topology += fmt::format(", {} cores", *sockets * *per_socket);
  topology += fmt::format(", {} threads", *logical);
  return fmt::format("{} ({})", name, topology);
}

Expected<DeviceClass> device_class_of(const nlohmann::json& document) {
  if (!document.is_object()) return make_error(ErrorKind::Usage, "the document must be a JSON object");
  auto machine = document.find("machine");
  if (machine == document.end() || !machine->is_object()) {
    return make_error(ErrorKind::Usage, "missing the \"machine\" object");
  }
  auto host = machine->find("host");
  if (auto adapter = machine->find("adapter"); adapter != machine->end()) {
    auto c = adapter_class(*adapter);
    if (!c) return c;
    // A browser names the adapter but not the API under it: its runs form classes of their own
    // (vendor, architecture and device as the browser reports them, backend "webgpu") beside the
    // native ones. A page cannot see the CPU's model: a CPU adapter there is told apart by the
    // logical CPUs the browser reports (navigator.hardwareConcurrency), when it does.
    if (machine->contains("browser")) {
      if (c->backend == "unknown") c->backend = "webgpu";
      if (c->adapter_type == "cpu" && host != machine->end() && host->is_object()) {
        auto n = host->find("logical_cpus");
        if (n != host->end() && n->is_number_integer() && n->get<std::int64_t>() >= 1 &&
            n->get<std::int64_t>() <= 1'000'000) {
          c->device += fmt::format(" on {} logical CPUs", n->get<std::int64_t>());
        }
      }
      return finish(std::move(*c));
    }
    // A CPU adapter (llvmpipe, SwiftShader) runs on the host's cores: the same driver on a 2-core
    // VM and on a 64-core server are different devices.
    if (c->adapter_type == "cpu" && host != machine->end()) {
      auto id = host_identity(*host);
      if (!id) return id.error();
      c->device += " on " + *id;
      return finish(std::move(*c));
    }
    return c;
  }

  // The host suite measures the CPU itself: its class is the CPU model, its topology (sockets,
  // cores, hardware threads) and the architecture.
  auto suite = document.find("suite");
  const bool host_suite = suite != document.end() && *suite == "host";
  if (!host_suite || host == machine->end() || !host->is_object()) {
    return make_error(ErrorKind::Usage, "missing machine.adapter (only host-suite documents may omit it)");
  }
  auto model = text_field(*host, "cpu_model", "machine.host");
  if (!model) return model.error();
  auto arch = text_field(*host, "arch", "machine.host");
  if (!arch) return arch.error();
  auto id = host_identity(*host);
  if (!id) return id.error();
  DeviceClass c;
  c.device = *id;
  const std::string m = lower(tidy(*model));
  c.vendor = m.find("intel") != std::string::npos ? "intel"
             : m.find("amd") != std::string::npos ? "amd"
             : m.find("arm") != std::string::npos || m.find("neoverse") != std::string::npos ? "arm"
                                                                                            : "unknown";
  c.architecture = lower(tidy(*arch));
  c.backend = "host";
  c.adapter_type = "host";
  c.variable = true;
  return finish(std::move(c));
}

}  // namespace wgb::store
