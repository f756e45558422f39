// Second-process re-run: argument rewriting, fork/exec of this program, document comparison.
#include "host/repro.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <link.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>

namespace wgb::host {

namespace {

using json = nlohmann::json;

double num(const json& j, const char* key, double fallback = 0) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

int collect_dir(dl_phdr_info* info, size_t, void* data) {
  auto* dirs = static_cast<std::vector<std::string>*>(data);
  if (info->dlpi_name == nullptr || info->dlpi_name[0] != '/') return 0;  // the program, the vDSO
  const auto dir = std::filesystem::path(info->dlpi_name).parent_path().string();
  if (std::find(dirs->begin(), dirs->end(), dir) == dirs->end()) dirs->push_back(dir);
  return 0;
}

}  // namespace

bool timings_agree(double a_ms, double b_ms, double iqr_a_ms, double iqr_b_ms) noexcept {
  return std::fabs(a_ms - b_ms) <= std::max(iqr_a_ms, iqr_b_ms);
}

ReproOutcome compare_and_mark(json& first, const json& second) {
  ReproOutcome out;
  json rows = json::array();
  if (!first.contains("rows") || !second.contains("rows")) return out;
  for (auto& row : first["rows"]) {
    const auto id = row.value("id", std::string());
    const json* other = nullptr;
    for (const auto& r : second["rows"]) {
      if (r.value("id", std::string()) == id) other = &r;
    }
    if (other == nullptr || row.value("status", "") != "ok" || other->value("status", "") != "ok") continue;
    const double a = num(row, "time_ms"), b = num(*other, "time_ms");
    const double ia = row.contains("stats_ms") ? num(row["stats_ms"], "iqr") : 0;
    const double ib = other->contains("stats_ms") ? num((*other)["stats_ms"], "iqr") : 0;
    const bool agree = timings_agree(a, b, ia, ib);
    ++out.rows_compared;
    const double disp = std::max(ia, ib);
    row["repro"] = {{"first_ms", a},
                    {"second_ms", b},
                    {"dispersion_ms", disp},
                    {"agree", agree},
                    {"rule", "|first - second| <= max(IQR first, IQR second) of the per-pass times"}};
    if (!agree) {
      ++out.rows_rejected;
      out.rejected_ids.push_back(id);
      row["status"] = "suspect";
      const std::string why = fmt::format(
          "rejected by the second-process re-run: {:.4g} ms vs {:.4g} ms differ by {:.2f}%, more than the dispersion "
          "({:.2f}%)",
          a, b, a > 0 ? 100 * std::fabs(a - b) / a : 0.0, a > 0 ? 100 * disp / a : 0.0);
      const auto msg = row.value("message", std::string());
      row["message"] = msg.empty() ? why : msg + "; " + why;
    }
    // Series points: matched by series name and the x value.
    int pc = 0, pd = 0;
    if (row.contains("parameters") && row["parameters"].contains("series") && other->contains("parameters") &&
        (*other)["parameters"].contains("series")) {
      for (auto& s : row["parameters"]["series"]) {
        const auto name = s.value("name", std::string());
        const auto x = s.value("x", std::string());
        for (const auto& s2 : (*other)["parameters"]["series"]) {
          if (s2.value("name", std::string()) != name) continue;
          for (auto& p : s["points"]) {
            for (const auto& p2 : s2["points"]) {
              if (!p.contains(x) || !p2.contains(x) || p[x] != p2[x]) continue;
              const bool ok = timings_agree(num(p, "time_ms"), num(p2, "time_ms"), num(p, "q3_ms") - num(p, "q1_ms"),
                                            num(p2, "q3_ms") - num(p2, "q1_ms"));
              p["repro_second_ms"] = num(p2, "time_ms");
              p["repro_agree"] = ok;
              ++pc;
              if (!ok) ++pd;
            }
          }
        }
      }
    }
    out.points_compared += pc;
    out.points_disagreeing += pd;
    row["repro"]["points_compared"] = pc;
    row["repro"]["points_disagreeing"] = pd;
    rows.push_back({{"id", id},
                    {"agree", agree},
                    {"first_ms", a},
                    {"second_ms", b},
                    {"dispersion_ms", disp},
                    {"points_compared", pc},
                    {"points_disagreeing", pd}});
  }
  out.json = {{"rows", rows},
              {"rows_compared", out.rows_compared},
              {"rows_rejected", out.rows_rejected},
              {"points_compared", out.points_compared},
              {"points_disagreeing", out.points_disagreeing},
              {"second_started_at", second.value("started_at", std::string())},
              {"second_machine_clock", second.contains("machine") && second["machine"].contains("host") &&
                                               second["machine"]["host"].contains("clock")
                                           ? second["machine"]["host"]["clock"]
                                           : json(nullptr)}};
  return out;
}

std::vector<std::string> repro_arguments(const std::vector<std::string>& argv, const std::string& json_path) {
  // The second process writes only its own document: no CSV, and it never submits anything.
  static constexpr const char* kDropped[] = {"--json", "--csv", "--submit", "--submit-token", "--token"};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const auto& a = argv[i];
    if (i > 0 && a == "--repro") continue;
    bool dropped = false;
    for (const std::string name : kDropped) {
      if (i > 0 && a == name) {
        ++i;  // and its value
        dropped = true;
        break;
      }
      if (i > 0 && a.rfind(name + "=", 0) == 0) {
        dropped = true;
        break;
      }
    }
    if (!dropped) out.push_back(a);
  }
  out.push_back("--json");
  out.push_back(json_path);
  out.push_back("--quiet");
  return out;
}

Expected<int> run_self(const std::vector<std::string>& argv, std::vector<std::string>* executed) {
  if (argv.empty()) return make_error(ErrorKind::Failed, "no arguments for the second process");
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return make_error(ErrorKind::Failed, "cannot read /proc/self/exe: " + ec.message());
  std::vector<std::string> args;
  const auto name = exe.filename().string();
  if (name.rfind("ld-linux", 0) == 0 || name.rfind("ld.so", 0) == 0 || name.rfind("ld64.so", 0) == 0) {
    // Started as `ld.so --library-path L program ...`: the loader is /proc/self/exe and the
    // program is argv[0]; start it the same way with the directories of what is loaded now.
    std::vector<std::string> dirs;
    dl_iterate_phdr(collect_dir, &dirs);
    std::string path;
    for (const auto& d : dirs) path += (path.empty() ? "" : ":") + d;
    args = {exe.string(), "--library-path", path};
  } else {
    args = {argv[0]};
  }
  args.insert(args.end(), argv.begin() + (args.size() == 1 ? 1 : 0), argv.end());
  if (executed != nullptr) {
    *executed = args;
    executed->front() = exe.string();
  }
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  const std::string exe_path = exe.string();
  const pid_t pid = fork();
  if (pid < 0) return make_error(ErrorKind::Failed, fmt::format("fork failed: {}", std::strerror(errno)));
  if (pid == 0) {
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
    execv(exe_path.c_str(), cargs.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return make_error(ErrorKind::Failed, fmt::format("waitpid failed: {}", std::strerror(errno)));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace wgb::host
