// What the server accepts (docs/store.md): every refusal has a reason; documents the program
// writes are accepted as they are.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "store/submission.hpp"
#include "store_test_support.hpp"

namespace wgb::store {
namespace {

using test::make_document;

std::string refusal(const std::string& text) {
  auto s = parse_submission(text);
  if (s) return "";
  EXPECT_EQ(s.error().kind, ErrorKind::Usage);
  EXPECT_FALSE(s.error().message.empty());
  return s.error().message;
}

std::string refusal(const nlohmann::json& doc) { return refusal(doc.dump()); }

nlohmann::json good() {
  return make_document({}, {{.id = "read-linear", .value = 2.5e12}, {.id = "f32-fma-vec4", .value = 5e13, .unit = "FLOP"}});
}

// The physical ranges must never refuse an honest document: every result document the project
// keeps from real machines (results/: H200, lavapipe, the host CPU) passes them.
TEST(StoreSubmission, RealDocumentsAreWithinThePhysicalRanges) {
  const auto root = test::source_root() / "results";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "no " << root;
  int checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object() || j.value("schema", "") != "webgpu-bench/result") continue;
    ++checked;
    auto sub = parse_submission(text);
    if (sub) continue;
    const auto& m = sub.error().message;
    for (const char* ours : {"physical range", "duplicate key", "started_at", "finished_at", "suite's rows",
                             "a row of the"}) {
      EXPECT_EQ(m.find(ours), std::string::npos) << entry.path() << ": " << m;
    }
  }
  EXPECT_GT(checked, 10);
}

TEST(StoreSubmission, AcceptsWhatTheProgramWrites) {
  auto s = parse_submission(good().dump());
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->suite, "default");
  EXPECT_EQ(s->state, "complete");
  ASSERT_EQ(s->rows.size(), 2u);
  EXPECT_EQ(s->rows[0].benchmark_id, "read-linear");
  EXPECT_EQ(s->rows[0].metric, "bytes");
  EXPECT_EQ(s->rows[0].value_unit, "B/s");
  EXPECT_EQ(s->rows[1].value_unit, "FLOP/s");
  ASSERT_TRUE(s->rows[0].cv.has_value());
  EXPECT_EQ(s->device_class.key, "nvidia/hopper/nvidia-h200/vulkan");
  EXPECT_EQ(s->digest.size(), 64u);
  EXPECT_EQ(s->digest, sha256_hex(s->canonical));
}

TEST(StoreSubmission, DigestIsOfTheContentNotItsSpelling) {
  const auto doc = good();
  auto compact = parse_submission(doc.dump());
  auto pretty = parse_submission(doc.dump(4));
  ASSERT_TRUE(compact && pretty);
  EXPECT_EQ(compact->digest, pretty->digest);
  auto other = good();
  other["command"].push_back("7");
  EXPECT_NE(parse_submission(other.dump())->digest, compact->digest);
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(StoreSubmission, MalformedJson) {
  EXPECT_NE(refusal(std::string("{\"schema\": ")).find("not valid JSON"), std::string::npos);
  EXPECT_NE(refusal(std::string("")).find("not valid JSON"), std::string::npos);
  EXPECT_NE(refusal(std::string("\xff\xfe")).find("not valid JSON"), std::string::npos);
}

TEST(StoreSubmission, ForeignDocument) {
  EXPECT_NE(refusal(nlohmann::json{{"hello", 1}}).find("not a webgpu-bench result document"), std::string::npos);
  EXPECT_NE(refusal(nlohmann::json::array()).find("not a webgpu-bench result document"), std::string::npos);
}

TEST(StoreSubmission, ReplacedKernelsAreKeptUnranked) {
  auto d = good();
  d["kernel_overrides"] = {{"dir", "/tmp/k"},
                           {"kernels", {{{"kernel", "bandwidth/write_linear"}, {"file", "/tmp/k/x.wgsl"}}}}};
  auto s = parse_submission(d.dump());
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_NE(s->unranked_reason.find("--kernel-dir"), std::string::npos) << s->unranked_reason;
  auto plain = parse_submission(good().dump());
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->unranked_reason, "");
}

TEST(StoreSubmission, WrongSchemaVersion) {
  for (const nlohmann::json& v : {nlohmann::json(report::kSchemaVersion + 1), nlohmann::json(0), nlohmann::json(-1), nlohmann::json("1"),
                                  nlohmann::json(1.5)}) {
    auto d = good();
    d["schema_version"] = v;
    EXPECT_NE(refusal(d).find("schema_version"), std::string::npos) << v.dump();
  }
  auto d = good();
  d.erase("schema_version");
  EXPECT_NE(refusal(d).find("schema_version"), std::string::npos);
}

TEST(StoreSubmission, MissingFields) {
  for (const char* field : {"rows", "suite", "started_at", "machine"}) {
    auto d = good();
    d.erase(field);
    EXPECT_FALSE(refusal(d).empty()) << field;
  }
  auto d = good();
  d["machine"].erase("adapter");
  EXPECT_NE(refusal(d).find("machine.adapter"), std::string::npos);
  d = good();
  d["rows"] = nlohmann::json::array();
  EXPECT_NE(refusal(d).find("no rows"), std::string::npos);
  for (const char* field : {"id", "status", "value"}) {
    d = good();
    d["rows"][1].erase(field);
    EXPECT_NE(refusal(d).find("row 1"), std::string::npos) << field;
  }
}

TEST(StoreSubmission, AbsurdValues) {
  auto d = good();
  d["rows"][0]["value"] = -1.0;
  EXPECT_NE(refusal(d).find(">= 0"), std::string::npos);
  d = good();
  d["rows"][0]["value"] = 0.0;  // an ok row that measured nothing
  EXPECT_NE(refusal(d).find("status ok with a value of 0"), std::string::npos);
  d = good();
  d["rows"][0]["stats_ms"]["median"] = -3.0;
  EXPECT_NE(refusal(d).find("negative"), std::string::npos);
  d = good();
  d["rows"][0]["status"] = "great";
  EXPECT_NE(refusal(d).find("\"status\" is 'great', not a known row status"), std::string::npos) << refusal(d);
  d = good();
  d["rows"][0]["parameters"]["unranked"] = "yes";
  EXPECT_NE(refusal(d).find("unranked"), std::string::npos);
  // Every field is read into the type it is written from: one of another type, anywhere in a row,
  // is refused with the row and the field named (every reader of a stored run can then read it all).
  d = good();
  d["rows"][1]["procedure"]["knob"] = "large";
  EXPECT_NE(refusal(d).find("row 1"), std::string::npos) << refusal(d);
  EXPECT_NE(refusal(d).find("procedure.knob"), std::string::npos) << refusal(d);
  d = good();
  d["rows"][0]["parameters"]["cv"] = "low";
  EXPECT_NE(refusal(d).find("parameters.cv is not a number"), std::string::npos) << refusal(d);
  // Not finite: JSON has no NaN/Infinity literal, and a number beyond double range is refused as
  // invalid rather than read as infinity (this threw out of nlohmann::json::parse before).
  std::string text = good().dump();
  const auto at = text.find("\"value\":");
  ASSERT_NE(at, std::string::npos);
  const auto end = text.find_first_of(",}", at);
  text.replace(at, end - at, "\"value\":1e400");
  EXPECT_NE(refusal(text).find("not valid JSON"), std::string::npos);
  EXPECT_NE(refusal(std::string(R"({"schema":"webgpu-bench/result","value":NaN})")).find("not valid JSON"),
            std::string::npos);
}

// Every number within the physical range of what it means; the refusal names the field.
TEST(StoreSubmission, PhysicalRangesNameTheField) {
  struct Case {
    const char* pointer;
    nlohmann::json value;
    const char* field;
  };
  const Case cases[] = {
      {"/rows/0/value", 5e-324, "rows[0].value"},                     // a subnormal rate
      {"/rows/0/value", 1e308, "rows[0].value"},                      // a 290-digit bandwidth
      {"/rows/1/value", 2e18, "rows[1].value"},                       // FLOP/s beyond 1e18
      {"/rows/0/stats_ms/median", 1e-200, "rows[0].stats_ms.median"},  // a time below 1 fs
      {"/rows/0/stats_ms/median", 2e9, "rows[0].stats_ms.median"},     // a time beyond 11 days (in ms)
      {"/rows/0/stats_ms/count", 1e16, "stats_ms.count"},
      {"/rows/0/parameters/buffer_bytes", 0x1p61, "rows[0].parameters.buffer_bytes"},
      {"/rows/0/parameters/buffer_bytes", 0.5, "rows[0].parameters.buffer_bytes"},
      {"/machine/host/base_khz", 1e12, "machine.host.base_khz"},
      {"/rows/0/duration_s", 1e7, "rows[0].duration_s"},
      {"/rows/0/samples_ms/0", 1e10, "rows[0].samples_ms[0]"},
      {"/machine/anything", 1e-31, "machine.anything"},
      {"/machine/anything", 3e19, "machine.anything"},
  };
  for (const auto& c : cases) {
    auto d = good();
    d[nlohmann::json::json_pointer(c.pointer)] = c.value;
    const std::string why = refusal(d);
    EXPECT_NE(why.find(c.field), std::string::npos) << c.pointer << " = " << c.value << ": " << why;
    EXPECT_NE(why.find("physical range"), std::string::npos) << why;
  }
  // In range: zero, and small dispersions (a stddev of identical samples).
  auto d = good();
  d["rows"][0]["stats_ms"]["stddev"] = 0.0;
  d["rows"][0]["stats_ms"]["iqr"] = 1e-20;
  d["rows"][0]["parameters"]["buffer_bytes"] = 0;
  EXPECT_EQ(refusal(d), "");
}

// A row's accuracy entries hold the values a builtin was evaluated at and returned: any finite f32
// value (the smallest subnormal, the largest finite value) and errors in ULPs of them. Accepted;
// beyond any f32 value, refused like any other number.
TEST(StoreSubmission, AccuracyEntriesHoldAnyFloatValue) {
  auto d = good();
  d["rows"][0]["accuracy"] = nlohmann::json::array(
      {{{"builtin", "sqrt"}, {"max_error", 1.76e28},
        {"worst_violation", {{"input", {1.4013e-45, 3.4028e38}}, {"returned", 1e-40}}}}});
  EXPECT_EQ(refusal(d), "");
  d["rows"][0]["accuracy"][0]["max_error"] = 1e300;
  const std::string why = refusal(d);
  EXPECT_NE(why.find("rows[0].accuracy[0].max_error"), std::string::npos) << why;
  // Outside a row's accuracy the general bound still holds.
  auto e = good();
  e["machine"]["accuracy"] = 1.4013e-45;
  EXPECT_NE(refusal(e).find("physical range"), std::string::npos);
}

TEST(StoreSubmission, TimesAreParsedAndRangeChecked) {
  EXPECT_EQ(normalize_timestamp("2026-11-30T06:01:17Z"), "2026-11-30T06:01:17Z");
  EXPECT_EQ(normalize_timestamp("2026-11-30T08:01:17.250+02:00"), "2026-11-30T06:01:17.250Z");
  EXPECT_EQ(normalize_timestamp("2026-12-31T23:30:00-01:00"), "2027-01-01T00:30:00Z");
  EXPECT_EQ(normalize_timestamp("2024-02-29T00:00:00Z"), "2024-02-29T00:00:00Z");  // leap year
  for (const char* bad : {"2026-13-45T99:99:99Z", "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
                          "2026-11-30T24:00:00Z", "2026-11-30T06:60:00Z", "2026-11-30T06:01:17", "2026-11-30",
                          "2026-11-30T06:01:17+25:00", "2026-11-30T06:01:17.Z", "1969-12-31T23:59:59Z",
                          "2026-11-30T06:01:17Zjunk", "+2026-11-30T06:01:17Z", ""}) {
    EXPECT_FALSE(normalize_timestamp(bad)) << bad;
  }
  auto d = good();
  d["finished_at"] = "2026-11-31T00:00:00Z";
  EXPECT_NE(refusal(d).find("finished_at"), std::string::npos);
}

TEST(StoreSubmission, DuplicateKeysAndSuitesThatDoNotFitTheRows) {
  std::string text = good().dump();
  const auto at = text.find("\"status\":");
  ASSERT_NE(at, std::string::npos);
  text.insert(at, "\"status\":\"error\",");  // nested in a row
  EXPECT_NE(refusal(text).find("duplicate key \"status\""), std::string::npos) << refusal(text);
  auto memory = make_document({}, {{.id = "memory-read"}, {.id = "read-linear"}}, "memory");
  EXPECT_NE(refusal(memory).find("rows[1].id read-linear"), std::string::npos) << refusal(memory);
  auto host = make_document({}, {{.id = "read-linear"}}, "host");
  EXPECT_NE(refusal(host).find("host"), std::string::npos);
  auto mixed = make_document({}, {{.id = "read-linear"}, {.id = "host-stream-copy"}});
  EXPECT_NE(refusal(mixed).find("host suite"), std::string::npos) << refusal(mixed);
}

TEST(StoreSubmission, ShapeLimits) {
  std::string deep(100, '[');
  deep += std::string(100, ']');
  EXPECT_NE(refusal(deep).find("nesting"), std::string::npos);
  auto d = good();
  nlohmann::json nested = 1;
  for (int i = 0; i < 80; ++i) nested = nlohmann::json::array({nested});
  d["options"]["deep"] = nested;
  EXPECT_NE(refusal(d).find("nesting"), std::string::npos);
  d = good();
  d["rows"][0]["id"] = "has space";
  EXPECT_NE(refusal(d).find("id must be"), std::string::npos);
  d = good();
  d["suite"] = "<b>";
  EXPECT_NE(refusal(d).find("suite"), std::string::npos);
  d = good();
  d["started_at"] = "yesterday";
  EXPECT_NE(refusal(d).find("started_at"), std::string::npos);
  SubmissionLimits tight;
  tight.max_rows = 1;
  EXPECT_FALSE(parse_submission(good().dump(), tight));
}

TEST(StoreSubmission, UnrankedAndStatusesAreRead) {
  auto d = make_document({}, {{.id = "memory-read", .value = 3e12, .unranked = true},
                              {.id = "memory-write", .value = 0, .status = "skipped"}},
                         "memory");
  auto s = parse_submission(d.dump());
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_TRUE(s->rows[0].unranked);
  EXPECT_EQ(s->rows[1].status, "skipped");
  EXPECT_EQ(s->suite, "memory");
}

TEST(StoreSubmission, DirectionComesFromTheUnit) {
  // X per second: higher is better (the memory suite writes memory-latency in load/s).
  for (const char* u : {"B/s", "FLOP/s", "load/s", "OP/s", "hop/s"}) EXPECT_FALSE(lower_is_better(u)) << u;
  // Time, or time per X: lower is better.
  for (const char* u : {"ns", "us", "\u00b5s", "ms", "s", "ns/load", "ms/iteration", "cycles/load"}) {
    EXPECT_TRUE(lower_is_better(u)) << u;
  }
  // Anything else (a count, a ratio, no unit): higher.
  for (const char* u : {"", "B", "x", "threads"}) EXPECT_FALSE(lower_is_better(u)) << u;
}

// A browser's document (the /run page): machine.browser is checked like every other field, and
// the run is marked as measured in a browser, in a class of the adapter the browser reported.
nlohmann::json browser_doc() {
  auto d = make_document({.vendor = "google", .architecture = "swiftshader", .device = "", .backend = "",
                          .adapter_type = ""},
                         {{.id = "read-linear", .value = 1e10}});
  d["machine"]["adapter"]["description"] = "SwiftShader Device (Subzero)";
  d["machine"]["browser"] = {{"user_agent", "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36"},
                             {"webgpu_thread", "worker"},
                             {"timestamp_quantization_ns", 1}};
  return d;
}

TEST(StoreSubmission, BrowserDocumentsAreMarkedAndClassedByTheirAdapter) {
  auto s = make_submission(browser_doc());
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->runtime, "chromium");  // the implementation that measured it, from its user agent
  EXPECT_EQ(s->device_class.backend, "webgpu");
  EXPECT_EQ(s->device_class.key, "google/swiftshader/swiftshader-device-subzero/webgpu");
  auto native = make_submission(good());
  ASSERT_TRUE(native);
  EXPECT_EQ(native->runtime, "native");
  // A CPU adapter in a page: no CPU model to read (a native document's machine.host would be
  // required to have one), the logical CPUs the browser reports tell it apart.
  auto cpu = browser_doc();
  cpu["machine"]["adapter"]["adapter_type"] = "cpu";
  cpu["machine"]["host"] = {{"runtime", "browser"}, {"user_agent", "Mozilla/5.0"}, {"logical_cpus", 2}};
  cpu["runtime"] = "browser";
  auto on_cpu = make_submission(cpu);
  ASSERT_TRUE(on_cpu) << on_cpu.error().message;
  EXPECT_EQ(on_cpu->device_class.key, "google/swiftshader/swiftshader-device-subzero-on-2-logical-cpus/webgpu");
  // A browser that names the API keeps it.
  auto d = browser_doc();
  d["machine"]["adapter"]["backend"] = "vulkan";
  EXPECT_EQ(make_submission(d)->device_class.backend, "vulkan");
}

TEST(StoreSubmission, BrowserFieldsAreChecked) {
  auto with = [](const char* key, nlohmann::json value) {
    auto d = browser_doc();
    d["machine"]["browser"][key] = std::move(value);
    return refusal(d);
  };
  EXPECT_NE(with("user_agent", std::string(513, 'a')).find("user_agent must be 1 to 512 bytes"), std::string::npos);
  EXPECT_NE(with("user_agent", "").find("user_agent"), std::string::npos);
  EXPECT_NE(with("user_agent", "Mozilla\n<script>").find("control character"), std::string::npos);
  EXPECT_NE(with("user_agent", 5).find("user_agent must be a string"), std::string::npos);
  EXPECT_NE(with("webgpu_thread", "gpu-process").find("webgpu_thread"), std::string::npos);
  EXPECT_NE(with("timestamp_quantization_ns", -1).find("timestamp_quantization_ns"), std::string::npos);
  auto mixed = browser_doc();
  mixed["runtime"] = "native";
  EXPECT_NE(refusal(mixed).find("machine.browser in a document whose runtime is \"native\""), std::string::npos);
  auto claimed = good();
  claimed["runtime"] = "browser";
  EXPECT_NE(refusal(claimed).find("without machine.browser"), std::string::npos);
  claimed["runtime"] = "wasm";
  EXPECT_NE(refusal(claimed).find("\"runtime\" must be"), std::string::npos);
  auto d = browser_doc();
  d["machine"]["browser"] = "Chrome";
  EXPECT_NE(refusal(d).find("machine.browser must be an object"), std::string::npos);
  // Markup is not refused (a user agent may hold anything printable): the pages escape it.
  EXPECT_EQ(with("user_agent", "<script>alert(1)</script>"), "");
  EXPECT_EQ(with("timestamp_quantization_ns", nullptr), "");
}

}  // namespace
}  // namespace wgb::store
