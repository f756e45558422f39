// The /run page end to end in headless Chromium: a small filtered run completes with every row
// validated and is submitted and listed; a browser without an adapter gets a clear message; a kernel
// whose output comes back wrong is an error row; Cancel keeps the completed rows; a hidden tab pauses
// progress; the browser and the native program validate the same outputs. The results server runs
// in this process on loopback with a temporary store. Skipped, with the reason, without Chromium, a
// WebGPU adapter in it, or the engine compiled to WebAssembly.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "browser/against_native.hpp"
#include "browser/cdp.hpp"
#include "tests/browser/ci_skip.hpp"
#include "store/server.hpp"
#include "store/store.hpp"

extern char** environ;

namespace wgb::browser {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

// Two fast benchmarks of different families (a bandwidth read and an ALU probe).
constexpr const char* kFilter = "read-linear,f32-fma-scalar";

class RunPage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("wgb-run-page-" + std::to_string(getpid()));
    fs::create_directories(dir_);
    auto db = store::Store::open((dir_ / "results.db").string());
    if (!db) {
      skip_ = db.error().message;
      return;
    }
    store_ = std::move(*db);
    store::ServerOptions o;
    o.port = 0;
    o.open_submissions = true;
    auto server = store::Server::start(*store_, o);
    if (!server) {
      skip_ = server.error().message;
      return;
    }
    server_ = std::move(*server);
    auto b = Browser::launch_with_adapter({});
    if (!b) {
      skip_ = b.error().message;
      return;
    }
    browser_ = std::move(*b);
    // Is the engine built in? The page says so once it knows its adapter.
    auto page = browser_->new_page(deadline_in(20s));
    if (!page || !(*page)->navigate(server_->url() + "/run", deadline_in(60s))) {
      skip_ = "the /run page does not load";
      return;
    }
    auto ready = (*page)->wait_until(
        "(() => { const s = window.wgbState; return s && (s.ready || s.phase === 'error') ? "
        "{ready: s.ready, error: s.error} : null; })()",
        deadline_in(90s), "the page to get ready");
    if (!ready) {
      skip_ = ready.error().message;
    } else if (!(*ready)["ready"].get<bool>()) {
      engine_skip_ = (*ready)["error"].is_string() ? (*ready)["error"].get<std::string>() : "the page is not ready";
    }
  }
  static void TearDownTestSuite() {
    browser_.reset();
    if (server_) server_->stop();
    server_.reset();
    store_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void SetUp() override {
    if (!browser_ || !server_) WGB_SKIP_UNLESS_CI(skip_);
  }
  static std::unique_ptr<Page> open(const std::string& query) {
    auto page = browser_->new_page(deadline_in(20s));
    if (!page) {
      ADD_FAILURE() << page.error().message;
      return nullptr;
    }
    if (auto st = (*page)->navigate(server_->url() + "/run" + query, deadline_in(60s)); !st) {
      ADD_FAILURE() << st.error().message;
      return nullptr;
    }
    return std::move(*page);
  }
  // Waits for the run to end (done, error or cancelled) and returns window.wgbState.
  static json finished(Page& page, std::chrono::seconds limit = 300s) {
    auto v = page.wait_until(
        "(() => { const s = window.wgbState; return s && ['done', 'error', 'cancelled'].includes(s.phase) ? "
        "JSON.parse(JSON.stringify(s)) : null; })()",
        deadline_in(limit), "the run to end", 250ms);
    if (!v) {
      std::string console;
      for (const auto& l : page.console()) console += "\n  " + l;
      ADD_FAILURE() << v.error().message << console;
      return json::object();
    }
    return *v;
  }

  static fs::path dir_;
  static std::unique_ptr<store::Store> store_;
  static std::unique_ptr<store::Server> server_;
  static std::unique_ptr<Browser> browser_;
  static std::string skip_, engine_skip_;
  static json completed_;  // the document of the first test's run, for the native comparison
};
fs::path RunPage::dir_;
std::unique_ptr<store::Store> RunPage::store_;
std::unique_ptr<store::Server> RunPage::server_;
std::unique_ptr<Browser> RunPage::browser_;
std::string RunPage::skip_, RunPage::engine_skip_;
json RunPage::completed_;

bool validated(const json& row) {
  const std::string status = row.value("status", "");
  return (status == "ok" || status == "throttled" || status == "suspect") && !row.value("validation", "").empty();
}

json knob(const json& row) { return row.value("procedure", json::object()).value("knob", json()); }

TEST_F(RunPage, AFilteredRunCompletesValidatedAndIsStoredAndListed) {
  if (!engine_skip_.empty()) WGB_SKIP_UNLESS_CI(engine_skip_);
  auto page = open(std::string("?filter=") + kFilter + "&autorun=1&submit=1");
  ASSERT_TRUE(page);
  const json s = finished(*page);
  ASSERT_EQ(s.value("phase", ""), "done") << s.dump().substr(0, 2000);
  EXPECT_EQ(s["exit_code"], 0);
  const json& doc = s["document"];
  ASSERT_EQ(doc["rows"].size(), 2u);
  for (const auto& row : doc["rows"]) EXPECT_TRUE(validated(row)) << row.dump().substr(0, 1000);
  EXPECT_EQ(doc["machine"]["browser"]["webgpu_thread"], "worker");
  completed_ = doc;
  // Submitted (submit=1) and listed by the server.
  auto url = page->wait_until("window.wgbState.submitted_url", deadline_in(30s), "the submission");
  ASSERT_TRUE(url) << url.error().message;
  auto listed = page->evaluate("fetch('/api/v1/results').then(r => r.json())", deadline_in(10s));
  ASSERT_TRUE(listed) << listed.error().message;
  ASSERT_GE((*listed)["total"].get<int>(), 1);
  const std::string id = url->get<std::string>().substr(url->get<std::string>().rfind('/') + 1);
  bool found = false;
  for (const auto& r : (*listed)["runs"]) found = found || std::to_string(r.value("id", -1)) == id;
  EXPECT_TRUE(found) << listed->dump().substr(0, 1000);
}

TEST_F(RunPage, TheBrowserAndTheNativeProgramValidateTheSameOutputs) {
  if (!engine_skip_.empty()) WGB_SKIP_UNLESS_CI(engine_skip_);
  if (!fs::exists("/usr/lib/chromium/vk_swiftshader_icd.json")) {
    WGB_SKIP_UNLESS_CI("no SwiftShader Vulkan driver at /usr/lib/chromium/vk_swiftshader_icd.json");
  }
  // The browser's run (each test runs in its own process under ctest: nothing carries over).
  if (completed_.is_null()) {
    auto page = open(std::string("?filter=") + kFilter + "&autorun=1");
    ASSERT_TRUE(page);
    const json s = finished(*page);
    ASSERT_EQ(s.value("phase", ""), "done") << s.dump().substr(0, 2000);
    completed_ = s["document"];
  }
  const std::string out = (dir_ / "native.json").string();
  // Natively on the same SwiftShader the browser uses.
  std::vector<std::string> args = {WGB_BIN, "run", "--quiet", "--filter", kFilter, "--json", out};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_strings = {"VK_DRIVER_FILES=/usr/lib/chromium/vk_swiftshader_icd.json"};
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string(*e).rfind("VK_DRIVER_FILES=", 0) != 0 && std::string(*e).rfind("VK_ICD_FILENAMES=", 0) != 0) {
      env_strings.emplace_back(*e);
    }
  }
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data()), 0);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  std::ifstream in(out);
  const json native = json::parse(in);
  ASSERT_EQ(native["rows"].size(), completed_["rows"].size());
  bool read_linear = false;
  for (std::size_t i = 0; i < native["rows"].size(); ++i) {
    const json& n = native["rows"][i];
    const json& b = completed_["rows"][i];
    EXPECT_EQ(n["id"], b["id"]);
    EXPECT_TRUE(validated(n) && validated(b)) << n.dump().substr(0, 500) << "\n" << b.dump().substr(0, 500);
    EXPECT_EQ(n["wgsl_hash"], b["wgsl_hash"]) << n["id"];
    // The calibrated loop count is the one input each run chooses for itself (from its timings).
    // Equal loop counts: the same inputs, so the very same validation (which invocation, which
    // value, which error). Different ones: the same check passed, its numbers follow the count.
    if (knob(n) == knob(b)) {
      EXPECT_EQ(n["validation"], b["validation"]) << n["id"];
    } else {
      EXPECT_EQ(without_numbers(n.value("validation", "")), without_numbers(b.value("validation", ""))) << n["id"];
    }
    if (n["id"] == "read-linear") {
      read_linear = true;
      EXPECT_EQ(knob(n), knob(b));  // no work knob: always the same inputs
    }
  }
  EXPECT_TRUE(read_linear) << "the filter names read-linear: " << kFilter;
}

TEST_F(RunPage, AKernelWhoseOutputComesBackWrongIsAnErrorRow) {
  if (!engine_skip_.empty()) WGB_SKIP_UNLESS_CI(engine_skip_);
  auto page = browser_->new_page(deadline_in(20s));
  ASSERT_TRUE(page) << page.error().message;
  // WebGPU on the page's main thread (webgpu_thread=main), where this script reaches it: every
  // byte the device host's `read` request maps comes back flipped (timestamps, mapped by its timed
  // pass, stay right), so the engine's validation sees a wrong output.
  ASSERT_TRUE((*page)->add_init_script(
      "(() => { const get = GPUBuffer.prototype.getMappedRange;"
      " GPUBuffer.prototype.getMappedRange = function (...a) { const r = get.apply(this, a);"
      " if (new Error().stack.includes('WgbDeviceHost.read')) { const b = new Uint8Array(r);"
      " for (let i = 0; i < b.length; ++i) b[i] ^= 0x5a; console.log('flipped', b.length); }"
      " return r; }; })()",
      deadline_in(10s)));
  ASSERT_TRUE((*page)->navigate(server_->url() + "/run?filter=read-linear&autorun=1&webgpu_thread=main",
                                deadline_in(60s)));
  const json s = finished(**page);
  ASSERT_EQ(s.value("phase", ""), "done") << s.dump().substr(0, 2000);
  EXPECT_EQ(s["exit_code"], 1);  // a benchmark failed; the run completed
  ASSERT_EQ(s["document"]["rows"].size(), 1u);
  const json& row = s["document"]["rows"][0];
  std::string console;
  for (const auto& l : (*page)->console()) console += "\n  " + l;
  EXPECT_EQ(row["status"], "error") << row.dump().substr(0, 300) << console;
  EXPECT_FALSE(row.value("message", "").empty());
  EXPECT_EQ(s["document"]["machine"]["browser"]["webgpu_thread"], "main");
}

TEST_F(RunPage, CancelKeepsTheCompletedRows) {
  if (!engine_skip_.empty()) WGB_SKIP_UNLESS_CI(engine_skip_);
  auto page = open("?filter=read-linear,f32-fma-scalar,write-linear&autorun=1");
  ASSERT_TRUE(page);
  auto first = page->wait_until("window.wgbState.rows.length >= 1", deadline_in(300s), "a first row");
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_TRUE(page->evaluate("document.getElementById('cancel').click(); 1", deadline_in(10s)));
  const json s = finished(*page, 120s);
  ASSERT_EQ(s.value("phase", ""), "cancelled") << s.dump().substr(0, 2000);
  EXPECT_EQ(s["exit_code"], 130);
  ASSERT_GE(s["rows"].size(), 1u);
  EXPECT_TRUE(validated(s["rows"][0])) << s["rows"][0].dump().substr(0, 500);
  // A run cancelled after its first row always ends with a document (the engine writes it before it
  // reports the cancel): it keeps the completed rows, and every benchmark has a row, what did not
  // run saying cancelled. The cancel came right after the first of three rows of several seconds
  // each, so at least the last one cannot have run.
  ASSERT_TRUE(s["document"].is_object()) << s.dump().substr(0, 2000);
  const json& rows = s["document"]["rows"];
  ASSERT_EQ(rows.size(), 3u) << rows.dump().substr(0, 1000);
  EXPECT_TRUE(validated(rows[0])) << rows[0].dump().substr(0, 500);
  EXPECT_EQ(rows[2].value("status", ""), "cancelled") << rows.dump().substr(0, 1000);
  for (const auto& r : rows) EXPECT_TRUE(validated(r) || r.value("status", "") == "cancelled") << r.dump().substr(0, 500);
}

TEST_F(RunPage, AHiddenTabPausesProgress) {
  if (!engine_skip_.empty()) WGB_SKIP_UNLESS_CI(engine_skip_);
  auto page = open("?filter=read-linear,f32-fma-scalar&autorun=1");
  ASSERT_TRUE(page);
  auto running = page->wait_until("window.wgbState.progress && window.wgbState.phase === 'running'", deadline_in(120s),
                                  "the first progress event");
  ASSERT_TRUE(running) << running.error().message;
  ASSERT_TRUE(page->set_hidden(true, deadline_in(10s)));
  auto paused = page->wait_until("window.wgbState.progress.paused ? window.wgbState.progress : null", deadline_in(30s),
                                 "progress to say paused");
  ASSERT_TRUE(paused) << paused.error().message;
  const double fraction = (*paused)["fraction"].get<double>();
  std::this_thread::sleep_for(1500ms);
  auto still = page->evaluate("[window.wgbState.progress.paused, window.wgbState.progress.fraction, window.wgbState.phase]",
                              deadline_in(10s));
  ASSERT_TRUE(still) << still.error().message;
  EXPECT_EQ((*still)[0], true);
  EXPECT_EQ((*still)[1].get<double>(), fraction);  // no benchmark advanced while hidden
  EXPECT_EQ((*still)[2], "running");
  ASSERT_TRUE(page->set_hidden(false, deadline_in(10s)));
  auto resumed = page->wait_until("!window.wgbState.progress.paused || window.wgbState.phase !== 'running'",
                                  deadline_in(60s), "progress to resume");
  ASSERT_TRUE(resumed) << resumed.error().message;
  ASSERT_TRUE(page->evaluate("document.getElementById('cancel').click(); 1", deadline_in(10s)));
  (void)finished(*page, 120s);
}

// A separate browser without --enable-unsafe-webgpu: on Linux Chromium then offers no adapter.
TEST(RunPageNoAdapter, SaysSoClearly) {
  if (auto p = find_chromium(""); !p) WGB_SKIP_UNLESS_CI(p.error().message);
  const fs::path dir = fs::temp_directory_path() / ("wgb-no-adapter-" + std::to_string(getpid()));
  fs::create_directories(dir);
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{dir};
  auto db = store::Store::open((dir / "results.db").string());
  ASSERT_TRUE(db) << db.error().message;
  store::ServerOptions o;
  o.port = 0;
  auto server = store::Server::start(**db, o);
  ASSERT_TRUE(server) << server.error().message;
  LaunchOptions lo;
  lo.unsafe_webgpu = false;
  auto b = Browser::launch(lo);
  ASSERT_TRUE(b) << b.error().message;
  auto page = (*b)->new_page(deadline_in(20s));
  ASSERT_TRUE(page) << page.error().message;
  ASSERT_TRUE((*page)->navigate((*server)->url() + "/run?autorun=1", deadline_in(60s)));
  auto has_gpu = (*page)->evaluate(
      "navigator.gpu ? navigator.gpu.requestAdapter().then(a => !!a) : false", deadline_in(20s));
  ASSERT_TRUE(has_gpu) << has_gpu.error().message;
  if (*has_gpu == true) GTEST_SKIP() << "this Chromium offers an adapter even without --enable-unsafe-webgpu";
  auto s = (*page)->wait_until(
      "window.wgbState && window.wgbState.phase === 'error' ? "
      "{error: window.wgbState.error, shown: document.getElementById('message').textContent, "
      " hidden: document.getElementById('message').hidden} : null",
      deadline_in(60s), "the page's error");
  ASSERT_TRUE(s) << s.error().message;
  const std::string error = (*s)["error"].get<std::string>();
  EXPECT_NE(error.find("adapter"), std::string::npos) << error;
  EXPECT_EQ((*s)["shown"], (*s)["error"]);
  EXPECT_EQ((*s)["hidden"], false);
}

}  // namespace
}  // namespace wgb::browser
