// The reader rejects values no run can produce (schema_version below 1, negative or non-finite
// rates) with one line naming the file and the problem; every row states the warm-up of the
// procedure that measured it (GPU sampler, memory phase sampler, host protocol).
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

struct Case {
  std::string name, text, expect;
};

TEST(ReaderValues, ImpossibleValuesGiveOneLineErrors) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("wgb-reader-values-{}", ::getpid());
  fs::create_directories(dir);
  const auto good = test::synthetic_document().json();
  auto version = [&](nlohmann::json v) {
    auto d = good;
    d["schema_version"] = std::move(v);
    return d.dump();
  };
  auto row_value = [&](const char* key, nlohmann::json v) {
    auto d = good;
    d["rows"][1][key] = std::move(v);
    return d.dump();
  };
  // JSON has no NaN or infinity literals; 1e999 is how a non-finite rate reaches a file.
  auto infinite = good.dump();
  const std::string value_text = fmt::format("\"value\":{}", good["rows"][1]["value"].dump());
  ASSERT_NE(infinite.find(value_text), std::string::npos);
  infinite.replace(infinite.find(value_text), value_text.size(), "\"value\":1e999");
  const std::vector<Case> cases{
      {"minus-one.json", version(-1), "schema_version -1 is not a valid version"},
      {"zero.json", version(0), "schema_version 0 is not a valid version"},
      {"negative-value.json", row_value("value", -5.0),
       "row 1 (read-linear): \"value\" is -5.0, expected a finite rate >= 0"},
      {"negative-iqr.json", row_value("value_iqr", {-1.0, 2.0}), "row 1 (read-linear): \"value_iqr\" holds -1.0"},
      {"infinite.json", infinite, "not valid JSON"},
  };
  for (const auto& c : cases) {
    const auto path = dir / c.name;
    std::ofstream(path, std::ios::binary) << c.text;
    auto loaded = load_document(path);
    ASSERT_FALSE(loaded) << c.name;
    const auto& msg = loaded.error().message;
    EXPECT_EQ(loaded.error().kind, ErrorKind::Usage) << c.name;
    EXPECT_EQ(msg.rfind(path.string() + ": ", 0), 0u) << msg;
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.name << ": " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
  // The good document and a zero rate (an unmeasured row) still load.
  std::ofstream(dir / "good.json", std::ios::binary) << row_value("value", 0.0);
  EXPECT_TRUE(load_document(dir / "good.json"));
  std::error_code ec;
  fs::remove_all(dir, ec);
}

// Pins a bug: procedure.warm_up was one GPU-sampler sentence, written into host and memory rows too.
TEST(WarmUp, EachRowStatesItsOwnProcedure) {
  auto gpu = test::synthetic_rows()[1];
  const std::string gpu_text = to_json(gpu)["procedure"]["warm_up"];
  EXPECT_NE(gpu_text.find("calibration"), std::string::npos) << gpu_text;

  auto host = gpu;
  host.id = "host-stream-triad";
  host.category = "host";
  host.parameters["timing"]["warmup"] = {{"runs", 4}, {"ms", 12.5}, {"steady", true}, {"rule", "at least 3 regions"}};
  const std::string host_text = to_json(host)["procedure"]["warm_up"];
  EXPECT_EQ(host_text, "host protocol: 4 untimed regions, 12.5 ms, steady; rule: at least 3 regions");

  auto memory = gpu;
  memory.id = "memory-read";
  memory.category = "memory";
  memory.parameters["warmup_ms"] = 300.0;
  const std::string memory_text = to_json(memory)["procedure"]["warm_up"];
  EXPECT_EQ(memory_text.rfind("memory phase sampler: 300 ms of untimed passes", 0), 0u) << memory_text;
  EXPECT_NE(gpu_text, memory_text);
}

}  // namespace
}  // namespace wgb::report
