// Shared by the store tests: realistic result documents, and a fresh database per test on each
// backend. PostgreSQL comes from $WGB_TEST_POSTGRES_URL (scripts/test.sh starts a throw-away
// server, scripts/pg_test_server.sh); without it the PostgreSQL cases skip, unless CI is set, where
// they fail: CI must test both backends.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/document.hpp"
#include "store/db.hpp"
#include "store/ranking.hpp"
#include "store/store.hpp"
#include "host/machine.hpp"

namespace wgb::store::test {

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

struct AdapterSpec {
  std::string vendor = "nvidia", architecture = "hopper", device = "NVIDIA H200", backend = "vulkan";
  std::string adapter_type = "discrete-gpu";
};

struct RowSpec {
  std::string id = "read-linear";
  double value = 1.0e12;
  std::string status = "ok";
  std::string unit = "B";  // metric unit: value_unit is unit + "/s"
  bool unranked = false;
  bool per_second = true;
};

// A result document as report::ResultDocument writes it (machine.host included), with the given
// adapter and rows. `nonce` makes otherwise equal documents distinct.
inline nlohmann::json make_document(const AdapterSpec& a, const std::vector<RowSpec>& rows, const std::string& suite = "default",
                                    int nonce = 0) {
  report::ResultDocument doc(suite, {"webgpu-bench", "run", "--test", std::to_string(nonce)}, host::native_machine());
  auto& j = doc.json();
  j["machine"]["adapter"] = {{"vendor", a.vendor},     {"architecture", a.architecture}, {"device", a.device},
                             {"description", a.device}, {"backend", a.backend},      {"adapter_type", a.adapter_type},
                             {"driver", "test driver"}, {"vendor_id", 0x10de}};
  std::size_t index = 0;
  for (const auto& r : rows) {
    BenchmarkResult b;
    b.index = index++;
    b.id = r.id;
    b.label = r.id;
    b.metric = Metric{"bytes", r.unit, "Bytes"};
    b.status = r.status == "ok" ? RowStatus::Ok : r.status == "skipped" ? RowStatus::Skipped
                                : r.status == "throttled"              ? RowStatus::Throttled
                                                                       : RowStatus::Error;
    b.value = r.value;
    b.statistic = Statistic::Median;
    b.stats.count = 8;
    b.stats.median = 1.5;
    b.stats.cv = 0.01;
    auto row = report::to_json(b);
    if (!r.per_second) row["value_unit"] = r.unit;
    if (r.unranked) row["parameters"]["unranked"] = true;
    j["rows"].push_back(row);
  }
  doc.finish("complete");
  // What a run with the suite's default options records (store/ranking.cpp ranks only those).
  j["machine"]["dawn"] = {{"robustness", true}, {"experimental", false}, {"timestamps", true}};
  if (const auto& defaults = default_options(suite); !defaults.is_null()) j["options"] = defaults;
  return j;
}

// The source tree (for results/). __FILE__ is relative to the build folder when the compiler
// ran with a relative path (ccache's base_dir does that): resolve it from this executable, which
// lives in <build>/tests/unit/.
inline std::filesystem::path source_root() {
  std::filesystem::path file(__FILE__);
  if (file.is_relative()) {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) file = exe.parent_path().parent_path().parent_path() / file;
  }
  return std::filesystem::weakly_canonical(file).parent_path().parent_path().parent_path();
}

inline std::filesystem::path temp_dir() {
  static std::atomic<int> counter{0};
  auto p = std::filesystem::temp_directory_path() /
           ("wgb-store-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(p);
  return p;
}

// A fresh, empty database for one test; dropped (PostgreSQL) or deleted (SQLite) at the end.
class Backend {
 public:
  // kind: "sqlite" or "postgres". `available()` false -> the caller skips (or fails in CI).
  explicit Backend(const std::string& kind) : kind_(kind) {
    if (kind == "sqlite") {
      dir_ = temp_dir();
      spec_ = (dir_ / "results.db").string();
      return;
    }
    const char* url = std::getenv("WGB_TEST_POSTGRES_URL");
    if (url == nullptr || *url == '\0') return;
    admin_ = url;
    static std::atomic<int> counter{0};
    db_name_ = "wgb_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
    auto c = db::open_postgres(admin_);
    if (!c) {
      error_ = c.error().message;
      return;
    }
    // Test-only DDL on a name made of digits and underscores.
    if (auto st = (*c)->exec("CREATE DATABASE " + db_name_ + " TEMPLATE template0"); !st) {
      error_ = st.error().message;
      return;
    }
    const auto slash = admin_.rfind('/');
    const auto query = admin_.find('?', slash);
    spec_ = admin_.substr(0, slash + 1) + db_name_ + (query == std::string::npos ? "" : admin_.substr(query));
  }
  ~Backend() {
    if (!db_name_.empty() && !spec_.empty()) {
      if (auto c = db::open_postgres(admin_)) (void)(*c)->exec("DROP DATABASE IF EXISTS " + db_name_ + " WITH (FORCE)");
    }
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
  }
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  bool available() const { return !spec_.empty(); }
  const std::string& spec() const { return spec_; }
  const std::string& error() const { return error_; }
  const std::string& kind() const { return kind_; }

 private:
  std::string kind_, spec_, admin_, db_name_, error_;
  std::filesystem::path dir_;
};

// In a fixture's SetUp: skip without PostgreSQL, except in CI.
#define WGB_BACKEND_OR_SKIP(backend)                                                                 \
  do {                                                                                               \
    if (!(backend).available()) {                                                                    \
      if (!(backend).error().empty() || ::wgb::store::test::in_ci()) {                               \
        FAIL() << "no " << (backend).kind() << " database for the test: "                            \
               << ((backend).error().empty() ? "WGB_TEST_POSTGRES_URL is not set (scripts/test.sh "  \
                                               "starts a server)"                                    \
                                             : (backend).error());                                   \
      }                                                                                              \
      GTEST_SKIP() << "WGB_TEST_POSTGRES_URL is not set: run scripts/test.sh, or export it from "    \
                      "scripts/pg_test_server.sh start";                                             \
    }                                                                                                \
  } while (0)

inline std::string backend_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

}  // namespace wgb::store::test
