// Process-wide kernel replacement (kernel_override.hpp).
#include "gpu/kernel_override.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "webgpu_bench/context.hpp"

namespace wgb::gpu {
namespace {

struct State {
  std::string dir;
  std::map<std::string, std::string, std::less<>> text;  // name -> WGSL
  std::vector<KernelOverride> list;
};

State& state() {
  static State s;
  return s;
}

}  // namespace

Status set_kernel_dir(const std::string& dir_name, const std::function<bool(std::string_view)>& known) {
  const std::filesystem::path dir(dir_name);
  State fresh;
  if (dir.empty()) {
    state() = std::move(fresh);
    return ok();
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return make_error(ErrorKind::Usage, fmt::format("--kernel-dir {}: not a directory", dir.string()));
  }
  std::filesystem::recursive_directory_iterator it(dir, ec), end;
  if (ec) return make_error(ErrorKind::Usage, fmt::format("--kernel-dir {}: {}", dir.string(), ec.message()));
  for (; it != end; it.increment(ec)) {
    if (ec) return make_error(ErrorKind::Usage, fmt::format("--kernel-dir {}: {}", dir.string(), ec.message()));
    if (!it->is_regular_file(ec) || it->path().extension() != ".wgsl") continue;
    std::string name = std::filesystem::relative(it->path(), dir, ec).replace_extension().generic_string();
    if (!known(name)) {
      return make_error(ErrorKind::Usage,
                        fmt::format("--kernel-dir: {} replaces no built-in kernel (there is no kernels/{}.wgsl)",
                                    it->path().string(), name));
    }
    std::ifstream in(it->path(), std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    if (!in.good() && !in.eof()) {
      return make_error(ErrorKind::Usage, fmt::format("--kernel-dir: cannot read {}", it->path().string()));
    }
    const std::string text = body.str();
    fresh.list.push_back({name, it->path().string(), source_hash(text)});
    fresh.text.emplace(std::move(name), text);
  }
  if (fresh.list.empty()) {
    return make_error(ErrorKind::Usage,
                      fmt::format("--kernel-dir {}: no .wgsl file in it (it mirrors kernels/, e.g. "
                                  "bandwidth/write_linear.wgsl)",
                                  dir.string()));
  }
  std::sort(fresh.list.begin(), fresh.list.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  fresh.dir = dir.string();
  state() = std::move(fresh);
  return ok();
}

std::optional<std::string> overridden_kernel(std::string_view name) {
  const auto& t = state().text;
  if (auto f = t.find(name); f != t.end()) return f->second;
  return std::nullopt;
}

std::string kernel_text(std::string_view name, std::string_view embedded) {
  if (auto replaced = overridden_kernel(name)) return *replaced;
  if (embedded.empty()) return fmt::format("// missing embedded kernel '{}'\n@compute fn main() {{ missing(); }}", name);
  return std::string(embedded);
}

const std::vector<KernelOverride>& kernel_overrides() { return state().list; }
const std::string& kernel_dir() { return state().dir; }

nlohmann::json kernel_overrides_json() {
  if (kernel_overrides().empty()) return nullptr;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& k : kernel_overrides()) list.push_back({{"kernel", k.name}, {"file", k.path}, {"wgsl_hash", k.hash}});
  return {{"dir", kernel_dir()}, {"kernels", std::move(list)}};
}

}  // namespace wgb::gpu
