// The HTML report of REAL output: the built webgpu-bench runs tiny versions of run (two
// bandwidth probes, f32-fma-vec4, the workgroup family), sweep (read-latency at two sizes), the
// memory suite (16 MiB, short budgets) and the host suite (--quick) on this machine's adapter (the
// CPU driver in CI); one report is made of the four documents and rendered by headless Chromium,
// whose DOM must hold every chart and whose screenshot must be a real PNG. Everything is written to
// a temporary folder, never into the repository. Without an adapter the test skips (fails with
// WGB_REQUIRE_ADAPTER=1); without Chromium it skips (fails with CI=true), like
// tests/golden/report_html_test.cpp.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class Folder {
 public:
  Folder() : path_(fs::temp_directory_path() / fmt::format("wgb-report-real-{}", ::getpid())) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

Result sh(const std::string& command, const Folder& dir) {
  const auto out = dir / "cmd.out", err = dir / "cmd.err";
  const int status = std::system(fmt::format("{} >'{}' 2>'{}'", command, out.string(), err.string()).c_str());
  Result r;
  r.code = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

std::string q(const fs::path& p) { return fmt::format("'{}'", p.string()); }

bool env_is(const char* name, const char* value) {
  const char* v = std::getenv(name);
  return v != nullptr && std::string(v) == value;
}

std::string find_chromium() {
  if (const char* c = std::getenv("WGB_CHROMIUM"); c != nullptr && *c != '\0') return c;
  for (const char* dir : {"/usr/bin", "/usr/local/bin", "/snap/bin"}) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const fs::path p = fs::path(dir) / name;
      if (::access(p.c_str(), X_OK) == 0) return p.string();
    }
  }
  return {};
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

bool has_svg(const std::string& dom, const std::string& id_regex) {
  return std::regex_search(dom, std::regex(fmt::format("<svg[^>]*id=\"{}\"", id_regex)));
}

TEST(ReportReal, RealDocumentsRenderWithEveryChart) {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    if (env_is("CI", "true")) FAIL() << "CI=true but Chromium is not installed (scripts/test.sh installs it)";
    GTEST_SKIP() << "Chromium is not installed (Debian package `chromium`); CI installs it";
  }
  Folder dir;
  const std::string bin = q(WGB_CLI);
  // Small, fast sampling: the report's charts are under test, not the numbers.
  const std::string sampling =
      "--target-dispatch-ms 2 --measurement-ms 5 --idle-gap-ms 0 --min-rounds 3 --max-rounds 3 --stable-rounds 1 "
      "--throttle-ratio 100 --cooldown-ms 0 --max-cooldowns 0 --quiet";
  auto r = sh(fmt::format("{} run --filter 'read-linear,write-linear,f32-fma-vec4,workgroup-*' --bandwidth-mib 1 {} "
                          "--json {}",
                          bin, sampling, q(dir / "run.json")),
              dir);
  if (r.code == 3) {
    if (env_is("WGB_REQUIRE_ADAPTER", "1")) FAIL() << "no adapter: " << r.err;
    GTEST_SKIP() << "no WebGPU adapter on this machine: " << r.err;
  }
  ASSERT_EQ(r.code, 0) << r.err;
  // The adapter description (review item 5): every limit, the adapter's features and the device's.
  {
    const auto run = nlohmann::json::parse(slurp(dir / "run.json"));
    const auto& a = run["machine"]["adapter"];
    EXPECT_GE(a["limits"].size(), 30u);
    ASSERT_TRUE(a["adapter_features"].is_array());
    for (const auto& f : a["features"]) {
      EXPECT_NE(std::find(a["adapter_features"].begin(), a["adapter_features"].end(), f), a["adapter_features"].end())
          << "device feature " << f << " not offered by the adapter";
    }
    EXPECT_GE(a["adapter_features"].size(), a["features"].size());
  }
  r = sh(fmt::format("{} sweep read-latency --param size --values 16K,64K {} --json {}", bin, sampling,
                     q(dir / "sweep.json")),
         dir);
  ASSERT_EQ(r.code, 0) << r.err;
  r = sh(fmt::format("{} memory --working-set 16 --min-working-set 16 --budget-ms 60 --latency-budget-ms 60 "
                     "--sustain-ms 300 --sample-ms 2 --latency-sample-ms 2 --warmup-ms 2 --transition-ms 0 "
                     "--min-samples 3 --quiet --json {}",
                     bin, q(dir / "memory.json")),
         dir);
  ASSERT_EQ(r.code, 0) << r.err;
  // The host suite at its smallest: the f32 peak, triad (the host's bandwidth ceiling) and the latency
  // chase, two sizes up to 256 KiB, three repetitions.
  r = sh(fmt::format("{} host --quick --filter 'host-fma-f32,host-stream-triad,host-load-latency' --repetitions 3 "
                     "--warmup-ms 1 --sweep-max-bytes 262144 --latency-max-bytes 262144 --quiet --json {}",
                     bin, q(dir / "host.json")),
         dir);
  ASSERT_EQ(r.code, 0) << r.err;

  const auto page = dir / "report.html";
  r = sh(fmt::format("{} report {} {} {} {} -o {}", bin, q(dir / "run.json"), q(dir / "sweep.json"),
                     q(dir / "memory.json"), q(dir / "host.json"), q(page)),
         dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string html = slurp(page);
  EXPECT_EQ(html.find("<script"), std::string::npos);

  const std::string flags = fmt::format(
      "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking "
      "--disable-component-update --disable-sync --user-data-dir={} --window-size=1200,2400",
      q(dir / "profile"));
  const auto shot = dir / "shot.png";
  r = sh(fmt::format("timeout 120 {} {} --screenshot={} file://{}", chromium, flags, q(shot), page.string()), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string png = slurp(shot);
  ASSERT_GE(png.size(), 24u) << "no screenshot";
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_GT(png.size(), 40000u) << "the screenshot looks empty";

  r = sh(fmt::format("timeout 120 {} {} --dump-dom file://{}", chromium, flags, page.string()), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string& dom = r.out;
  // WGB_HTML_OUT=<folder>: keep the page and its screenshot there, to look at them.
  if (const char* keep = std::getenv("WGB_HTML_OUT"); keep != nullptr && *keep != '\0') {
    fs::copy_file(page, fs::path(keep) / "report_real.html", fs::copy_options::overwrite_existing);
    fs::copy_file(shot, fs::path(keep) / "report_real.png", fs::copy_options::overwrite_existing);
  }
  // The GPU's roofline (run.json) and the host's (host.json); memory.json has its own ceilings too.
  EXPECT_TRUE(has_svg(dom, "roofline-chart")) << "GPU roofline";
  EXPECT_GE(count(dom, "<svg id=\"roofline-chart"), 2u) << "GPU and host rooflines";
  EXPECT_NE(dom.find("Roofline: host CPU"), std::string::npos);
  EXPECT_TRUE(has_svg(dom, "sweep-read-latency-size")) << "latency curve";
  EXPECT_TRUE(has_svg(dom, "family-workgroup")) << "family bars";
  EXPECT_NE(dom.find("id=\"verdict-workgroup\""), std::string::npos) << "family verdict";
  EXPECT_TRUE(has_svg(dom, "sustain-chart")) << "sustain timeline";
  EXPECT_NE(dom.find("over the first 20%): "), std::string::npos) << "what the retention says";
  EXPECT_TRUE(has_svg(dom, "host-threads-threads")) << "host thread curve";
  EXPECT_TRUE(has_svg(dom, "host-working_set-working_set_bytes")) << "host working-set curve";
  EXPECT_EQ(count(dom, "<h2 id=\"machine"), 4u) << "one machine card per document";
  EXPECT_GE(count(dom, "<circle"), 10u);
}

}  // namespace
