// The result document: rows survive a JSON round trip, the roofline is kept current as rows
// arrive, and unreadable, empty, truncated, corrupt, foreign or malformed files give one clear
// error that names the file and the problem.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "report/document.hpp"
#include "report/files.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::report {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / fmt::format("wgb-doc-test-{}", ::getpid())) { fs::create_directories(path_); }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name, std::ios::binary) << text;
    return path_ / name;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

TEST(Document, RowsRoundTripThroughJson) {
  auto doc = test::synthetic_document();
  for (const auto& j : doc.json()["rows"]) {
    auto row = row_from_json(j);
    ASSERT_TRUE(row) << row.error().message;
    EXPECT_EQ(to_json(*row), j) << j["id"];
  }
}

TEST(Document, EveryMeasuredRowCarriesTheMeasurementTuple) {
  const auto doc = test::synthetic_document();
  const auto& j = doc.json();
  EXPECT_EQ(j["schema"], kSchemaName);
  EXPECT_EQ(j["schema_version"], kSchemaVersion);
  for (const char* k : {"cpu_model", "logical_cpus", "vector_isa", "caches", "memory_bytes", "numa_nodes", "kernel",
                        "observed_mhz", "observed_mhz_at_finish"}) {
    EXPECT_TRUE(j["machine"]["host"].contains(k)) << k;
  }
  for (const char* k : {"compiler", "compiler_vendor", "compiler_version", "flags", "build_type", "git_revision", "dawn_version"}) {
    EXPECT_TRUE(j["build"].contains(k)) << k;
  }
  for (const char* k : {"device_toggles", "version"}) EXPECT_TRUE(j["machine"]["dawn"].contains(k)) << k;
  for (const auto& r : j["rows"]) {
    if (r["status"] != "ok") continue;
    EXPECT_FALSE(r["parameters"].empty()) << r["id"];
    EXPECT_FALSE(r["wgsl_hash"].get<std::string>().empty());
    EXPECT_FALSE(r["procedure"]["timing_method"].get<std::string>().empty());
    EXPECT_GT(r["procedure"]["samples"].get<int>(), 0);
    EXPECT_FALSE(r["procedure"]["warm_up"].get<std::string>().empty());
    EXPECT_FALSE(r["statistic_reason"].get<std::string>().empty());
    EXPECT_TRUE(r["dispersion"]["kind"] == "iqr" || r["dispersion"]["kind"] == "cv");
    EXPECT_TRUE(r.contains("roofline"));
  }
}

TEST(Document, RooflineIsRecomputedWhenALaterRowBringsTheCeiling) {
  ResultDocument doc("default", {"webgpu-bench"});
  auto rows = test::synthetic_rows();
  doc.add_row(rows[4]);  // read-gather-64mb before any ceiling
  EXPECT_FALSE(doc.json()["rows"][0]["roofline"]["applies"].get<bool>());
  EXPECT_TRUE(doc.json()["roofline"]["peak_bandwidth"].is_null());
  doc.add_row(rows[0]);  // memory-read
  EXPECT_TRUE(doc.json()["rows"][0]["roofline"]["applies"].get<bool>());
  EXPECT_EQ(doc.json()["roofline"]["below_threshold"][0]["id"], "read-gather-64mb");
}

TEST(Document, WritesAtomicallyAndLoadsBack) {
  TempDir dir;
  const auto doc = test::synthetic_document();
  const auto path = dir.path() / "r.json";
  ASSERT_TRUE(write_json_atomic(path, doc.json()));
  auto loaded = load_document(path);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded->rows.size(), doc.rows().size());
  for (const auto& e : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(e.path().filename(), "r.json");  // no temporary left behind
  }
}

struct BadFile {
  const char* name;
  std::string text;
  const char* expect;  // part of the one-line message
};

TEST(Document, BadFilesGiveOneLineErrorsNamingFileAndProblem) {
  TempDir dir;
  std::string good = test::synthetic_document().json().dump(2);
  auto wrong_type = test::synthetic_document().json();
  wrong_type["rows"][1]["stats_ms"]["iqr"] = "wide";
  auto bad_status = test::synthetic_document().json();
  bad_status["rows"][0]["status"] = "great";
  auto newer = test::synthetic_document().json();
  newer["schema_version"] = kSchemaVersion + 1;
  auto header_type = test::synthetic_document().json();
  header_type["finished_at"] = 1764489677;
  auto no_thread = test::synthetic_document().json();
  no_thread["runtime"] = "browser";
  no_thread["machine"]["browser"] = {{"user_agent", "Mozilla/5.0"}};
  auto disagree = test::synthetic_document().json();
  disagree["runtime"] = "browser";
  auto implementation = test::synthetic_document().json();
  implementation["implementation"]["runtime"] = 5;
  const std::vector<BadFile> cases{
      {"empty.json", "", "the file is empty"},
      {"truncated.json", good.substr(0, good.size() / 2), "truncated"},
      {"corrupt.json", "{\"schema\": \"webgpu-bench/result\", \"rows\": [1, 2,, 3]}", "corrupt"},
      {"binary.json", std::string("\x89PNG\r\n\x1a\n\0\0", 10), "not valid JSON"},
      {"array.json", "[1, 2, 3]", "not an object"},
      {"foreign.json", "{\"name\": \"package\", \"version\": \"1.0.0\"}", "not a webgpu-bench result document"},
      {"other-schema.json", "{\"schema\": \"someone-else/v2\", \"rows\": []}", "foreign document"},
      {"newer.json", newer.dump(), "newer than this program reads"},
      {"no-rows.json", "{\"schema\": \"webgpu-bench/result\", \"schema_version\": 1}", "missing the \"rows\" array"},
      {"row-type.json", wrong_type.dump(), "\"stats_ms.iqr\" is a string, expected a number"},
      {"row-status.json", bad_status.dump(), "not a known row status"},
      {"header-type.json", header_type.dump(), "\"finished_at\" is a number, expected a string"},
      {"browser-thread.json", no_thread.dump(), "machine.browser.webgpu_thread must be \"worker\" or \"main\""},
      {"runtime.json", disagree.dump(), "\"runtime\": \"browser\" without machine.browser"},
      {"implementation.json", implementation.dump(), "\"implementation.runtime\" is a number, expected a string"},
  };
  for (const auto& c : cases) {
    const auto path = dir.write(c.name, c.text);
    auto loaded = load_document(path);
    ASSERT_FALSE(loaded) << c.name;
    const auto& msg = loaded.error().message;
    EXPECT_EQ(loaded.error().kind, ErrorKind::Usage) << c.name;
    EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.name << ": " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
  auto missing = load_document(dir.path() / "absent.json");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("cannot open"), std::string::npos);
  auto directory = load_document(dir.path());
  ASSERT_FALSE(directory);
  EXPECT_NE(directory.error().message.find("is a directory"), std::string::npos);
}

// The document measures nothing itself: the machine is the value its caller gives (natively
// host::native_machine(), in a browser what the page knows), and what the caller measures again at
// the end is merged into machine.host, clocks key by key.
TEST(Document, TheMachineIsGivenNotMeasured) {
  ResultDocument bare("default", {"webgpu-bench"});
  EXPECT_EQ(bare.json()["machine"]["host"], nlohmann::json::object());
  EXPECT_EQ(bare.json()["build"], nlohmann::json::object());
  EXPECT_FALSE(bare.json().contains("kernel_overrides"));
  bare.finish("complete");
  EXPECT_EQ(bare.json()["machine"]["host"], nlohmann::json::object());

  MachineRecord m;
  m.host = {{"cpu_model", "Given CPU"}, {"clocks", {{"base", {{"mhz", 2000}}}}}};
  m.build = {{"compiler", "given"}};
  m.kernel_overrides = {{"dir", "k"}, {"kernels", nlohmann::json::array()}};
  int finishes = 0;
  m.host_at_finish = [&finishes] {
    ++finishes;
    return nlohmann::json{{"observed_mhz_at_finish", 1234.0}, {"clocks", {{"observed_at_finish", {{"mhz", 1234}}}}}};
  };
  ResultDocument doc("default", {"webgpu-bench"}, m);
  EXPECT_EQ(doc.json()["machine"]["host"]["cpu_model"], "Given CPU");
  EXPECT_EQ(doc.json()["build"]["compiler"], "given");
  EXPECT_EQ(doc.json()["kernel_overrides"]["dir"], "k");
  EXPECT_EQ(finishes, 0);
  doc.finish("complete");
  EXPECT_EQ(finishes, 1);
  const auto& host = doc.json()["machine"]["host"];
  EXPECT_EQ(host["observed_mhz_at_finish"], 1234.0);
  EXPECT_EQ(host["clocks"]["base"]["mhz"], 2000);  // kept
  EXPECT_EQ(host["clocks"]["observed_at_finish"]["mhz"], 1234);

  gpu::DeviceRecord d;
  d.adapter.device = "Given GPU";
  d.adapter.features = {"timestamp-query"};
  d.adapter_features = {"shader-f16", "timestamp-query"};
  d.implementation = {{"timestamps", true}};
  doc.set_device(d);
  EXPECT_EQ(doc.json()["machine"]["adapter"]["device"], "Given GPU");
  EXPECT_EQ(doc.json()["machine"]["adapter"]["features"], nlohmann::json({"timestamp-query"}));
  EXPECT_EQ(doc.json()["machine"]["adapter"]["adapter_features"], nlohmann::json({"shader-f16", "timestamp-query"}));
  EXPECT_EQ(doc.json()["machine"]["dawn"]["timestamps"], true);
}

}  // namespace
}  // namespace wgb::report
