// The runtime table of runtimes.hpp.
#include "browser/runtimes.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "process/child.hpp"

namespace wgb::browser {

const std::vector<RuntimeInfo>& runtimes() {
  static const std::vector<RuntimeInfo> all = {
      {"chromium", "Chromium", "Dawn",
       "install Debian's chromium (scripts/bootstrap.sh --with-test-tools), or give --chromium PATH"},
      {"firefox", "Firefox", "wgpu",
       "install Debian's firefox-esr (scripts/bootstrap.sh --with-test-tools), or give --firefox PATH"},
      {"deno", "Deno", "wgpu",
       "scripts/bootstrap.sh --with-test-tools installs the npm package deno into .deps/deno, or give --deno PATH"},
  };
  return all;
}

const RuntimeInfo* find_runtime(const std::string& name) {
  for (const auto& r : runtimes()) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

Expected<std::vector<RuntimeInfo>> parse_runtimes(const std::string& list) {
  std::string names;
  for (const auto& r : runtimes()) names += (names.empty() ? "" : ", ") + r.name;
  std::vector<RuntimeInfo> out;
  std::stringstream s(list);
  std::string name;
  while (std::getline(s, name, ',')) {
    const auto* r = find_runtime(name);
    if (r == nullptr) {
      return make_error(ErrorKind::Usage,
                        name.empty() ? fmt::format("--runtime {}: an empty name (the runtimes: {})", list, names)
                                     : fmt::format("--runtime: unknown runtime '{}' (the runtimes: {})", name, names));
    }
    bool seen = false;
    for (const auto& o : out) seen = seen || o.name == r->name;
    if (!seen) out.push_back(*r);
  }
  if (out.empty()) return make_error(ErrorKind::Usage, fmt::format("--runtime: no runtime named (the runtimes: {})", names));
  return out;
}

Expected<std::string> named_program(const char* flag, const std::string& given, const char* env) {
  std::string where, name = given;
  if (!given.empty()) {
    where = flag;
  } else if (const char* e = std::getenv(env); e != nullptr && *e != '\0') {
    where = fmt::format("${}", env);
    name = e;
  } else {
    return std::string();
  }
  std::string found = process::find_program(name);
  if (found.empty()) return make_error(ErrorKind::NoAdapter, fmt::format("{} {}: no such executable program", where, name));
  return found;
}

Expected<std::string> make_profile_folder(const char* prefix) {
  std::string path = (std::filesystem::temp_directory_path() / (std::string(prefix) + "-XXXXXX")).string();
  if (mkdtemp(path.data()) == nullptr) {
    return make_error(ErrorKind::Io, fmt::format("cannot create a browser profile folder in {}: {}",
                                                 std::filesystem::temp_directory_path().string(), std::strerror(errno)));
  }
  return path;
}

std::string cpu_driver_icd() {
  if (const char* own = std::getenv("WGB_CPU_DRIVER_ICD"); own != nullptr && *own != '\0') return own;
  std::error_code ec;
  const std::string built = WGB_LVP_ICD;
  return !built.empty() && std::filesystem::exists(built, ec) ? built : std::string();
}

std::vector<std::string> runtime_vulkan_env() {
  if (std::getenv("VK_DRIVER_FILES") != nullptr || std::getenv("VK_ICD_FILENAMES") != nullptr) return {};
  const std::string icd = cpu_driver_icd();
  if (icd.empty()) return {};
  std::string add = icd;
  if (const char* prev = std::getenv("VK_ADD_DRIVER_FILES"); prev != nullptr && *prev != '\0') {
    add = std::string(prev) + ":" + icd;
  }
  return {"VK_ADD_DRIVER_FILES=" + add};
}

}  // namespace wgb::browser
