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
       "install Debian's chromium (scripts/bootstrap.sh --with-test-tools), or give --chromium PATH", "--chromium",
       "WGB_CHROMIUM", {"chromium", "chromium-browser", "google-chrome"}},
      {"firefox", "Firefox", "wgpu",
       "install Debian's firefox-esr (scripts/bootstrap.sh --with-test-tools), or give --firefox PATH", "--firefox",
       "WGB_FIREFOX", {"firefox-esr", "firefox"}},
      {"deno", "Deno", "wgpu",
       "scripts/bootstrap.sh --with-test-tools installs the npm package deno into .deps/deno, or give --deno PATH",
       "--deno", "WGB_DENO", {"deno"}},
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

Expected<std::string> find_runtime_program(const RuntimeInfo& runtime, const std::string& given) {
  auto named = named_program(runtime.flag.c_str(), given, runtime.env.c_str());
  if (!named || !named->empty()) return named;
  for (const auto& name : runtime.programs) {
    if (auto found = process::find_program(name); !found.empty()) return found;
  }
  return std::string();
}

Expected<std::string> require_runtime_program(const char* name, const std::string& given) {
  const RuntimeInfo* runtime = find_runtime(name);
  if (runtime == nullptr) return make_error(ErrorKind::Usage, fmt::format("no runtime named {}", name));
  auto found = find_runtime_program(*runtime, given);
  if (!found || !found->empty()) return found;
  std::string names;
  for (std::size_t i = 0; i < runtime->programs.size(); ++i) {
    names += (i == 0 ? "" : i + 1 == runtime->programs.size() ? " and " : ", ") + runtime->programs[i];
  }
  return make_error(ErrorKind::NoAdapter, fmt::format("no {} found (looked for ${}, {} on PATH)", runtime->product,
                                                      runtime->env, names));
}

Expected<std::string> find_chromium(const std::string& given) { return require_runtime_program("chromium", given); }
Expected<std::string> find_firefox(const std::string& given) { return require_runtime_program("firefox", given); }

Expected<std::string> make_profile_folder(const char* prefix) {
  std::string path = (std::filesystem::temp_directory_path() / (std::string(prefix) + "-XXXXXX")).string();
  if (mkdtemp(path.data()) == nullptr) {
    return make_error(ErrorKind::Io, fmt::format("cannot create a browser profile folder in {}: {}",
                                                 std::filesystem::temp_directory_path().string(), std::strerror(errno)));
  }
  return path;
}

Expected<ProgramAndProfile> program_and_profile(Expected<std::string> program, const char* profile_prefix) {
  if (!program) return program.error();
  auto profile = make_profile_folder(profile_prefix);
  if (!profile) return profile.error();
  return ProgramAndProfile{std::move(*program), std::move(*profile)};
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
