// Which way a leaderboard ranks (from the unit) and which runs it ranks at all (default options
// only), on real documents from results/ and on both databases.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <fstream>
#include <sstream>

#include "host/host.hpp"
#include "memory/document.hpp"
#include "memory/memory.hpp"
#include "report/document.hpp"
#include "store/client.hpp"
#include "store/ranking.hpp"
#include "store/server.hpp"
#include "store_test_support.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::store {
namespace {

using nlohmann::json;
using test::AdapterSpec;
using test::make_document;

const std::filesystem::path kResults =
    test::source_root() / "results";

json load(const std::string& relative) {
  std::ifstream in(kResults / relative);
  EXPECT_TRUE(in) << (kResults / relative);
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

const char* kH200Memory = "h200-2026-11-30/final/part2/memory-256.json";
const char* kH200Default = "h200-2026-11-30/final/part1/default.json";
const char* kH200Host = "h200-2026-11-30/final/part2/host.json";
const char* kLavapipeDefault = "lavapipe-2026-11-30/lvp-default.json";

json& row(json& doc, const std::string& id) {
  for (auto& r : doc["rows"]) {
    if (r["id"] == id) return r;
  }
  ADD_FAILURE() << "no row " << id;
  static json none;
  return none;
}

std::string reason(const json& doc) {
  auto s = make_submission(doc);
  EXPECT_TRUE(s) << s.error().message;
  return s ? s->unranked_reason : "(refused)";
}

// A value as a reason shows it: strings bare, numbers and booleans as JSON.
std::string show_value(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// --- direction ---------------------------------------------------------------------------------

TEST(StoreRanking, TheMemorySuiteWritesLatencyAsARate) {
  auto doc = load(kH200Memory);
  EXPECT_EQ(row(doc, "memory-latency")["value_unit"], "load/s");
  EXPECT_FALSE(lower_is_better(row(doc, "memory-latency")["value_unit"].get<std::string>()));
  // A tiny lavapipe memory run has the same shape (scripts/wgb memory --working-set 16).
  auto lvp = make_document(
      AdapterSpec{.vendor = "mesa", .architecture = "software", .device = "llvmpipe", .adapter_type = "cpu"},
      {{.id = "memory-latency", .value = 2.4e7, .unit = "load"}}, "memory");
  EXPECT_EQ(lvp["rows"][0]["value_unit"], "load/s");
}

// --- what is ranked --------------------------------------------------------------------------

// The store compares with the defaults the program starts from (webgpu_bench/defaults.hpp,
// SamplingOptions): a document whose options the program wrote with its defaults ranks, and one
// with any of those options changed is not ranked, its reason naming the option. A default the
// store reads from elsewhere, or an option it forgets, fails here.
void expect_each_option_named(const json& doc, const json::json_pointer& at, const std::set<std::string>& not_how,
                              const std::map<std::string, std::string>& named_as = {}) {
  ASSERT_EQ(reason(doc), "") << at.to_string();
  for (const auto& [key, value] : doc[at].items()) {
    auto changed = doc;
    auto& v = changed[at][key];
    if (value.is_boolean()) v = !value.get<bool>();
    else if (value.is_number_float()) v = value.get<double>() * 2 + 1;
    else if (value.is_number()) v = value.get<std::uint64_t>() * 2 + 1;
    else if (value.is_string()) v = "other";
    else continue;  // sub-objects are checked on their own
    const std::string r = reason(changed);
    if (not_how.count(key)) {
      EXPECT_EQ(r, "") << key << " chooses what runs, not how: still ranked";
      continue;
    }
    const auto as = named_as.find(key);
    const std::string name = as != named_as.end() ? as->second : key + " " + show_value(v);
    EXPECT_NE(r.find(name), std::string::npos) << at.to_string() << "/" << key << ": reason '" << r << "'";
  }
}

TEST(StoreRanking, DefaultOptionsAsTheProgramWritesThemRankAndEachChangeIsNamed) {
  // run: the sampler's options as report::to_json writes them, and the suite's sizes.
  auto run = load(kLavapipeDefault);
  const SuiteOptions suite;
  run["options"] = {{"sampling", report::to_json(SamplingOptions{})},
                    {"bandwidth_bytes", suite.bandwidth_bytes},
                    {"compute_threads", suite.compute_threads},
                    {"filter", "read-*"},
                    {"repro", true},
                    {"ceilings", ""}};
  expect_each_option_named(run, json::json_pointer("/options/sampling"), {});
  expect_each_option_named(run, json::json_pointer("/options"), {"filter", "repro", "ceilings"},
                           {{"bandwidth_bytes", "bandwidth buffers of"}, {"compute_threads", "--compute-threads 1"}});

  // memory: the options as the memory suite writes them (memory::options_json).
  auto mem = load(kH200Memory);
  mem["options"] = memory::options_json(memory::MemoryOptions{});
  // The phases run, the wall-clock sample (twice sample_ms) and the rejection rule's text follow
  // from the options or are not options.
  expect_each_option_named(mem, json::json_pointer("/options"), {"phases", "wall_clock_sample_ms", "rejection"});

  // host: the options that do not depend on the machine, as run_host records them.
  auto host = load(kH200Host);
  const host::HostOptions h;
  auto& o = host["options"];
  o["sweep_min_bytes"] = h.sweep_min_bytes;
  o["points_per_octave"] = h.points_per_octave;
  o["repetitions"] = h.protocol.repetitions;
  o["warmup_ms"] = h.protocol.warmup_ms;
  o["min_region_ms"] = h.protocol.min_region_ms;
  o["huge_pages"] = h.huge_pages;
  o["affinity"] = host::to_string(h.affinity);
  o["size_sweep"] = h.size_sweep;
  // Measured for this machine (threads, sizes, ISA: EachKindOfNonDefaultRunIsUnrankedWithItsReason),
  // or what runs (benchmarks, thread_list, cpus, seed).
  json fixed = json::object();
  for (const char* key : {"sweep_min_bytes", "points_per_octave", "repetitions", "warmup_ms", "min_region_ms",
                          "huge_pages", "affinity", "size_sweep"}) {
    fixed[key] = o[key];
  }
  host["options"] = fixed;
  expect_each_option_named(host, json::json_pointer("/options"), {});
  EXPECT_TRUE(default_options("sweep").is_null());
}

TEST(StoreRanking, DefaultRunsAreRanked) {
  for (const char* f : {kH200Default, kH200Memory, kH200Host, kLavapipeDefault}) {
    EXPECT_EQ(reason(load(f)), "") << f;
  }
  // --filter and --repro choose what runs, not how: still ranked.
  auto d = load(kLavapipeDefault);
  d["options"]["filter"] = "read-linear";
  d["options"]["repro"] = true;
  EXPECT_EQ(reason(d), "");
  // An option that a document does not record did not exist when it ran: taken as the default.
  d["options"].erase("compute_threads");
  EXPECT_EQ(reason(d), "");
}

TEST(StoreRanking, EachKindOfNonDefaultRunIsUnrankedWithItsReason) {
  auto has = [](const json& doc, const std::string& what) {
    const std::string r = reason(doc);
    EXPECT_NE(r.find(what), std::string::npos) << "reason: '" << r << "', expected '" << what << "'";
  };
  // Recorded runs that used non-default options.
  has(load("h200-2026-11-30/final/part1/bandwidth-1g.json"),
      "bandwidth buffers of 1024 MiB (default 64; --bandwidth-mib)");
  has(load("h200-2026-11-30/final/part1/no-robustness.json"), "robustness off (--no-robustness)");
  has(load("h200-2026-11-30/final/part1/experimental.json"), "unsafe APIs allowed (--experimental)");
  has(load("h200-2026-11-30/final/part1/sweep-read-linear.json"), "a sweep");

  auto base = load(kLavapipeDefault);
  auto d = base;
  d["options"]["bandwidth_bytes"] = 4 << 20;
  has(d, "bandwidth buffers of 4 MiB");
  d = base;
  d["options"]["sampling"]["max_rounds"] = 4;
  d["options"]["sampling"]["measurement_ms"] = 10.0;
  has(d, "sampling changed: ");
  has(d, "max_rounds 4 (default 10)");
  has(d, "measurement_ms 10.0 (default 100.0)");
  d = base;
  d["options"]["compute_threads"] = 4096;
  has(d, "--compute-threads 4096");
  d = base;
  d["machine"]["dawn"]["experimental"] = true;
  has(d, "--experimental");
  d = base;
  d["kernel_overrides"] = {{"dir", "k"}, {"kernels", json::array()}};
  has(d, "kernels replaced (--kernel-dir)");
  d = base;
  d["machine"]["dawn"].erase("robustness");
  has(d, "robustness not recorded");
  d = base;
  d.erase("options");
  has(d, "options not recorded");

  // The memory suite: a smaller working set, a shorter budget.
  auto mem = load(kH200Memory);
  mem["options"]["working_set_mib"] = 16;
  has(mem, "memory options changed: working_set_mib 16 (default 256)");
  mem = load(kH200Memory);
  mem["options"]["budget_ms"] = 300.0;
  has(mem, "budget_ms 300.0 (default 3000.0)");

  // The host suite at --quick sizes (host::quick_options), fewer threads, another ISA.
  auto host = load(kH200Host);
  const auto q = host::quick_options();
  host["options"]["array_bytes"] = q.array_bytes;
  host["options"]["sweep_max_bytes"] = q.sweep_max_bytes;
  host["options"]["latency_max_bytes"] = q.latency_max_bytes;
  host["options"]["sweep_min_bytes"] = q.sweep_min_bytes;
  host["options"]["points_per_octave"] = q.points_per_octave;
  host["options"]["repetitions"] = q.protocol.repetitions;
  host["options"]["warmup_ms"] = q.protocol.warmup_ms;
  has(host, "host options changed: ");
  has(host, "repetitions 5 (default 15)");
  has(host, "array_bytes 4 MiB (below 4x the last-level cache");
  host = load(kH200Host);
  host["options"]["threads"] = 4;
  has(host, "threads 4 (default 16, one per core)");
  host = load(kH200Host);
  host["options"]["isa"] = "avx2";
  has(host, "isa avx2 (default avx512f)");
  host = load(kH200Host);
  host["options"]["affinity"] = "none";
  has(host, "affinity none (default cores)");
}

// --- on both databases ------------------------------------------------------------------------

class StoreRankingDb : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = std::make_unique<test::Backend>(GetParam());
    WGB_BACKEND_OR_SKIP(*backend_);
    auto s = Store::open(backend_->spec());
    ASSERT_TRUE(s) << s.error().message;
    store_ = std::move(*s);
  }
  std::int64_t put(const json& doc) {
    auto sub = make_submission(doc);
    EXPECT_TRUE(sub) << sub.error().message;
    if (!sub) return 0;
    auto r = store_->insert(*sub);
    EXPECT_TRUE(r) << r.error().message;
    return r ? r->id : 0;
  }
  std::unique_ptr<test::Backend> backend_;
  std::unique_ptr<Store> store_;
};

TEST_P(StoreRankingDb, MemoryLatencyRanksTheHigherRateFirst) {
  // The real H200 document, and the same document as another device with half the load rate.
  auto h200 = load(kH200Memory);
  auto slower = h200;
  slower["machine"]["adapter"]["device"] = "Slower GPU";
  row(slower, "memory-latency")["value"] = row(h200, "memory-latency")["value"].get<double>() / 2;
  const auto slow_id = put(slower);
  const auto h200_id = put(h200);
  auto board = store_->leaderboard("memory-latency");
  ASSERT_TRUE(board) << board.error().message;
  EXPECT_EQ(board->unit, "load/s");
  EXPECT_FALSE(board->lower_is_better);
  ASSERT_EQ(board->classes.size(), 2u);
  EXPECT_EQ(board->classes[0].entries.at(0).run_id, h200_id);
  EXPECT_EQ(board->classes[0].rank, 1);
  EXPECT_EQ(board->classes[1].entries.at(0).run_id, slow_id);
  EXPECT_EQ(board->classes[1].rank, 2);
}

TEST_P(StoreRankingDb, TheStackTakesEachRunsBestLatencyRate) {
  // A run with two memory-latency rows counts once, with its best (highest) rate: the class
  // distribution The Stack compares against.
  auto doc = load(kH200Memory);
  const double v = row(doc, "memory-latency")["value"].get<double>();
  json second = row(doc, "memory-latency");
  second["value"] = v / 4;
  second["index"] = doc["rows"].size();
  doc["rows"].push_back(second);
  put(doc);
  auto other = load(kH200Memory);
  row(other, "memory-latency")["value"] = v * 3;
  other["command"].push_back("again");
  put(other);
  auto key = make_submission(doc)->device_class.key;
  auto dist = store_->class_distributions(key);
  ASSERT_TRUE(dist) << dist.error().message;
  const ClassDistribution* lat = nullptr;
  for (const auto& d : *dist) {
    if (d.benchmark == "memory-latency") lat = &d;
  }
  ASSERT_NE(lat, nullptr);
  EXPECT_EQ(lat->unit, "load/s");
  EXPECT_EQ(lat->ranked, 2u);
  EXPECT_DOUBLE_EQ(lat->min, v);  // not v / 4
  EXPECT_DOUBLE_EQ(lat->max, 3 * v);
  EXPECT_DOUBLE_EQ(lat->median, 2 * v);
}

TEST_P(StoreRankingDb, NonDefaultRunsAreStoredShownAndNotRanked) {
  const auto ranked = put(load(kH200Default));
  const auto no_robust = put(load("h200-2026-11-30/final/part1/no-robustness.json"));
  auto board = store_->leaderboard("f32-fma-vec4");
  ASSERT_TRUE(board) << board.error().message;
  ASSERT_EQ(board->classes.size(), 1u);
  const auto& c = board->classes[0];
  EXPECT_EQ(c.ranked, 1u);
  ASSERT_EQ(c.entries.size(), 2u);
  EXPECT_EQ(c.entries[0].run_id, ranked);
  EXPECT_TRUE(c.entries[0].ranked);
  EXPECT_EQ(c.entries[1].run_id, no_robust);
  EXPECT_FALSE(c.entries[1].ranked);
  EXPECT_EQ(c.entries[1].unranked_reason, "robustness off (--no-robustness)");
  EXPECT_DOUBLE_EQ(c.median, c.entries[0].value);
  // The Stack's class distribution counts only the default run.
  auto dist = store_->class_distributions(c.device_class.key);
  ASSERT_TRUE(dist);
  for (const auto& d : *dist) EXPECT_EQ(d.ranked, 1u) << d.benchmark;
  // The summary carries the reason.
  auto got = store_->get(no_robust);
  ASSERT_TRUE(got && got->has_value());
  EXPECT_EQ((*got)->summary.unranked_reason, "robustness off (--no-robustness)");

  // The pages show it: on the leaderboard under the run's unranked badge, on its run page as its
  // ranking and as the rows' unranked badges; the API carries it too.
  auto server = Server::start(*store_, {.host = "127.0.0.1", .port = 0});
  ASSERT_TRUE(server) << server.error().message;
  auto lb = http_get((*server)->url() + "/leaderboard?benchmark=f32-fma-vec4");
  ASSERT_TRUE(lb);
  EXPECT_NE(lb->body.find(">unranked</span><div class=\"why\">robustness off (--no-robustness)</div>"),
            std::string::npos);
  auto page = http_get((*server)->url() + "/runs/" + std::to_string(no_robust));
  ASSERT_TRUE(page);
  EXPECT_NE(page->body.find("not ranked: robustness off (--no-robustness)"), std::string::npos);
  EXPECT_NE(page->body.find(">unranked</span>"), std::string::npos);
  auto ranked_page = http_get((*server)->url() + "/runs/" + std::to_string(ranked));
  ASSERT_TRUE(ranked_page);
  EXPECT_EQ(ranked_page->body.find(">unranked</span>"), std::string::npos);
  auto api = http_get((*server)->url() + "/api/v1/leaderboard?benchmark=f32-fma-vec4");
  ASSERT_TRUE(api);
  auto j = json::parse(api->body);
  EXPECT_EQ(j["classes"][0]["runs"][1]["unranked_reason"], "robustness off (--no-robustness)");
  EXPECT_EQ(j["classes"][0]["runs"][0]["unranked_reason"], "");
  (*server)->stop();
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreRankingDb, ::testing::Values("sqlite", "postgres"), test::backend_name);

}  // namespace
}  // namespace wgb::store
