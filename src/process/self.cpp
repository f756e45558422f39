// self_command (child.hpp): how to start a second copy of this program.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "process/child.hpp"

namespace wgb::process {

std::vector<std::string> self_command(std::size_t own_argc) {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {"webgpu-bench"};
  const std::string name = exe.filename().string();
  if (name.rfind("ld-", 0) != 0 || name.find(".so") == std::string::npos) return {exe.string()};
  // Started as `ld.so [--library-path P ...] program args...`: /proc/self/cmdline still holds the
  // loader's part; everything before the program's own argv is kept.
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::stringstream buf;
  buf << f.rdbuf();
  const std::string raw = buf.str();
  std::vector<std::string> cmdline;
  std::size_t start = 0;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\0') {
      cmdline.push_back(raw.substr(start, i - start));
      start = i + 1;
    }
  }
  if (own_argc == 0 || cmdline.size() < own_argc + 1) return {exe.string()};
  std::vector<std::string> out{exe.string()};
  for (std::size_t i = 1; i + own_argc < cmdline.size(); ++i) out.push_back(cmdline[i]);
  out.push_back(cmdline[cmdline.size() - own_argc]);  // the program
  return out;
}

}  // namespace wgb::process
