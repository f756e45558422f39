// The pages in a real browser: headless Chromium (Debian's `chromium`) loads the leaderboard and a
// run's page ("The Stack") from a seeded database on SQLite and on PostgreSQL, and the DOM it
// built shows the classes, the ranks, the charts, and markup from a document as text only.
// Without chromium the test skips, except in CI (scripts/test.sh installs it).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "store/server.hpp"
#include "store_test_support.hpp"

namespace wgb::store {
namespace {

using test::AdapterSpec;
using test::make_document;

std::string find_chromium() {
  if (const char* env = std::getenv("WGB_CHROMIUM"); env != nullptr && *env != '\0') return env;
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chromium"}) {
    if (std::filesystem::exists(p)) return p;
  }
  return "";
}

// Runs chromium headless (bounded by coreutils' timeout) and returns its stdout.
std::string chromium(const std::string& binary, const std::filesystem::path& profile, const std::string& args) {
  // Root in CI containers needs --no-sandbox; the page is our own, served on loopback.
  const std::string cmd = "timeout 90 '" + binary + "' --headless --no-sandbox --disable-gpu --disable-dev-shm-usage "
                          "--no-first-run --disable-extensions --user-data-dir='" + profile.string() + "' " + args +
                          " 2>/dev/null";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  std::array<char, 8192> buf{};
  for (std::size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
  pclose(p);
  return out;
}

class StorePages : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    chromium_ = find_chromium();
    if (chromium_.empty()) {
      if (test::in_ci()) FAIL() << "chromium is not installed (scripts/test.sh installs it)";
      GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
    }
    backend_ = std::make_unique<test::Backend>(GetParam());
    WGB_BACKEND_OR_SKIP(*backend_);
    auto s = Store::open(backend_->spec());
    ASSERT_TRUE(s) << s.error().message;
    store_ = std::move(*s);
    seed();
    ServerOptions o;
    o.port = 0;
    auto srv = Server::start(*store_, o);
    ASSERT_TRUE(srv) << srv.error().message;
    server_ = std::move(*srv);
    profile_ = test::temp_dir();
  }
  void TearDown() override {
    if (server_) server_->stop();
    std::error_code ec;
    if (!profile_.empty()) std::filesystem::remove_all(profile_, ec);
  }
  std::int64_t put(const nlohmann::json& doc) {
    auto sub = make_submission(doc);
    EXPECT_TRUE(sub) << sub.error().message;
    auto r = store_->insert(*sub);
    EXPECT_TRUE(r) << r.error().message;
    return r ? r->id : 0;
  }
  void seed() {
    AdapterSpec h200;
    AdapterSpec lvp{.vendor = "mesa", .architecture = "software", .device = "llvmpipe (LLVM 15.0.6, 256 bits)",
                    .backend = "vulkan", .adapter_type = "cpu"};
    AdapterSpec evil{.vendor = "evil", .architecture = "x", .device = "<script>document.title='pwned'</script><img "
                                                                      "src=x onerror=alert(1)>"};
    int n = 0;
    auto memory = [&](const AdapterSpec& a, double scale, bool unranked) {
      return make_document(a,
                           {{.id = "memory-read", .value = 4.1e12 * scale, .unranked = unranked},
                            {.id = "memory-write", .value = 3.9e12 * scale, .unranked = unranked},
                            {.id = "memory-copy", .value = 3.6e12 * scale, .unranked = unranked},
                            {.id = "memory-latency", .value = 650 / scale, .unit = "ns", .unranked = unranked,
                             .per_second = false}},
                           "memory", ++n);
    };
    for (double s : {1.0, 1.02, 0.97}) h200_run_ = put(memory(h200, s, false));
    put(memory(h200, 0.5, true));  // a capped working set: unranked
    for (double s : {0.0012, 0.0011}) put(memory(lvp, s, false));
    evil_run_ = put(memory(evil, 0.3, false));
  }
  std::string dom(const std::string& path) {
    return chromium(chromium_, profile_, "--dump-dom '" + server_->url() + path + "'");
  }

  std::string chromium_;
  std::unique_ptr<test::Backend> backend_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Server> server_;
  std::filesystem::path profile_;
  std::int64_t h200_run_ = 0, evil_run_ = 0;
};

TEST_P(StorePages, LeaderboardRendersGroupedByClass) {
  const std::string d = dom("/leaderboard?benchmark=memory-read");
  ASSERT_NE(d.find("<h1>Leaderboard: memory-read</h1>"), std::string::npos) << d.substr(0, 2000);
  // Three classes, the H200 first; the CPU driver's class marked variable; the unranked run shown.
  const auto h200 = d.find("NVIDIA H200");
  const auto lvp = d.find("llvmpipe (LLVM 15.0.6, 256 bits)");
  ASSERT_NE(h200, std::string::npos);
  ASSERT_NE(lvp, std::string::npos);
  EXPECT_LT(h200, lvp);
  EXPECT_NE(d.find(">variable</span>"), std::string::npos);
  EXPECT_NE(d.find("unranked"), std::string::npos);
  EXPECT_NE(d.find("<svg"), std::string::npos);
  EXPECT_NE(d.find("3 of 4 ranked"), std::string::npos);  // the H200 class: 3 ranked of 4 runs
  // The adapter name with markup is text in the DOM, not elements, and nothing ran.
  EXPECT_NE(d.find("&lt;script&gt;document.title="), std::string::npos);
  EXPECT_EQ(d.find("<img"), std::string::npos);
  EXPECT_EQ(d.find("pwned</title>"), std::string::npos);
  // And it is drawn: a screenshot of a page with tables and charts, not a blank (once is enough).
  if (GetParam() == "sqlite") {
    const auto png = profile_ / "leaderboard.png";
    chromium(chromium_, profile_,
             "--window-size=1200,900 --screenshot='" + png.string() + "' '" + server_->url() +
                 "/leaderboard?benchmark=memory-latency'");
    ASSERT_TRUE(std::filesystem::exists(png));
    EXPECT_GT(std::filesystem::file_size(png), 10000u);
  }
}

TEST_P(StorePages, TheStackShowsARunNextToItsClass) {
  const std::string d = dom("/runs/" + std::to_string(h200_run_));
  ASSERT_NE(d.find("The Stack: run #" + std::to_string(h200_run_)), std::string::npos) << d.substr(0, 2000);
  for (const char* phase : {"memory-read", "memory-write", "memory-copy", "memory-latency"}) {
    EXPECT_NE(d.find(phase), std::string::npos) << phase;
  }
  EXPECT_NE(d.find("class median"), std::string::npos);
  EXPECT_NE(d.find("<circle"), std::string::npos);         // this run's dot on each strip
  EXPECT_NE(d.find("/compare?a="), std::string::npos);     // links to compare with its class's runs
  const std::string evil = dom("/runs/" + std::to_string(evil_run_));
  EXPECT_NE(evil.find("&lt;script&gt;"), std::string::npos);
  EXPECT_EQ(evil.find("<img"), std::string::npos);
  EXPECT_EQ(evil.find("pwned</title>"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Backends, StorePages, ::testing::Values("sqlite", "postgres"), test::backend_name);

}  // namespace
}  // namespace wgb::store
