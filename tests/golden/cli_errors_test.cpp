// Errors and help as a user meets them (the built binary; no GPU needed): a mistyped command or
// option names the nearest valid one; every file error is one line with the path given and the
// system's reason; network failures have their own exit code (6) and say what happened; help
// offers only what each command accepts, in readable words.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "report/document.hpp"
#include "report/files.hpp"
#include "tests/golden/process.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb {
namespace {

using test::quoted;
using test::run_command;

std::string bin() { return quoted(WGB_CLI_BIN); }

void expect_one_line(const test::CommandResult& r, int code, const std::vector<std::string>& needles) {
  EXPECT_EQ(r.exit_code, code) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  for (const auto& n : needles) EXPECT_NE(r.err.find(n), std::string::npos) << "no '" << n << "' in: " << r.err;
}

TEST(CliErrors, UnknownCommandSuggestsTheNearest) {
  test::TempFolder dir("cli-err-cmd");
  expect_one_line(run_command(fmt::format("{} runn", bin()), dir), 2,
                  {"unknown command 'runn'", "did you mean 'run'?"});
  expect_one_line(run_command(fmt::format("{} memroy --quick", bin()), dir), 2, {"did you mean 'memory'?"});
  // Nothing near: no suggestion, still one line.
  const auto r = run_command(fmt::format("{} xyzzyplugh", bin()), dir);
  expect_one_line(r, 2, {"unknown command 'xyzzyplugh'"});
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  expect_one_line(run_command(bin(), dir), 2, {"a command is required", "run"});
}

TEST(CliErrors, UnknownOptionSuggestsTheNearest) {
  test::TempFolder dir("cli-err-opt");
  expect_one_line(run_command(fmt::format("{} run --fliter read-linear", bin()), dir), 2,
                  {"unknown option --fliter", "did you mean --filter?"});
  expect_one_line(run_command(fmt::format("{} host --thread=2", bin()), dir), 2,
                  {"unknown option --thread", "did you mean --threads?"});
  expect_one_line(run_command(fmt::format("{} compare a.json b.json --fail-on-regresion 5", bin()), dir), 2,
                  {"did you mean --fail-on-regression?"});
}

TEST(CliErrors, OutputErrorsNameThePathAndTheReason) {
  test::TempFolder dir("cli-err-io");
  const std::string host =
      fmt::format("{} host --quick --filter host-fma-f64 --threads 1 --no-thread-sweep --quiet", bin());
  // --json naming a folder (it used to say "cannot replace ...: Success").
  auto r = run_command(fmt::format("{} --json {}", host, quoted(dir.path())), dir);
  expect_one_line(r, 5, {dir.path().string(), "Is a directory"});
  EXPECT_EQ(r.err.find("Success"), std::string::npos) << r.err;
  // A folder that does not exist: the path given, not a temporary file.
  const auto missing = dir / "no-such-folder" / "out.json";
  r = run_command(fmt::format("{} --json {}", host, quoted(missing)), dir);
  expect_one_line(r, 5, {missing.string(), "No such file or directory"});
  EXPECT_EQ(r.err.find(".tmp-"), std::string::npos) << r.err;
  // A read-only folder (root writes anywhere: nothing to test there).
  if (geteuid() != 0) {
    const auto ro = dir / "ro";
    std::filesystem::create_directories(ro);
    std::filesystem::permissions(ro, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    r = run_command(fmt::format("{} --csv {}", host, quoted(ro / "out.csv")), dir);
    expect_one_line(r, 5, {(ro / "out.csv").string(), "Permission denied"});
    std::filesystem::permissions(ro, std::filesystem::perms::owner_all);
  }
}

TEST(CliErrors, AMissingInputIsWordedAlikeEverywhere) {
  test::TempFolder dir("cli-err-in");
  const auto good = dir / "good.json";
  ASSERT_TRUE(report::write_json_atomic(good, test::synthetic_document().json()));
  const auto missing = dir / "missing.json";
  const std::string why = fmt::format("{}: cannot open the file: No such file or directory", missing.string());
  expect_one_line(run_command(fmt::format("{} report {}", bin(), quoted(missing)), dir), 2, {why});
  expect_one_line(run_command(fmt::format("{} compare {} {}", bin(), quoted(good), quoted(missing)), dir), 2, {why});
  expect_one_line(run_command(fmt::format("{} submit {} --to http://127.0.0.1:9", bin(), quoted(missing)), dir), 2,
                  {why});
  expect_one_line(run_command(fmt::format("{} run --ceilings {}", bin(), quoted(missing)), dir), 2, {why});
}

// One connection answered with `status`, then closed: a results server that fails.
class FailingServer {
 public:
  explicit FailingServer(int status) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    listen(fd_, 4);
    socklen_t len = sizeof a;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this, status] {
      const int c = accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      char buf[65536];
      timeval tv{1, 0};
      setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      while (read(c, buf, sizeof buf) == static_cast<ssize_t>(sizeof buf)) {
      }
      const std::string body = "{\"error\": \"store unavailable\"}";
      const std::string reply = fmt::format(
          "HTTP/1.1 {} Failing\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
          status, body.size(), body);
      (void)!write(c, reply.data(), reply.size());
      close(c);
    });
  }
  ~FailingServer() {
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    thread_.join();
  }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
};

TEST(CliErrors, NetworkFailuresHaveTheirOwnExitCode) {
  test::TempFolder dir("cli-err-net");
  const auto good = dir / "good.json";
  // A document the client accepts: the synthetic rows of the default suite only (its memory rows
  // would be refused before sending, as a server refuses them).
  auto doc = test::synthetic_document().json();
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : doc["rows"]) {
    if (row["id"].get<std::string>().rfind("memory-", 0) != 0) rows.push_back(row);
  }
  doc["rows"] = rows;
  ASSERT_TRUE(report::write_json_atomic(good, doc));
  // Nobody listens on port 9 of the loopback: the connection error, in full, exit 6.
  auto r = run_command(fmt::format("{} submit {} --timeout 2 --to http://127.0.0.1:9", bin(), quoted(good)), dir);
  expect_one_line(r, 6, {"cannot reach http://127.0.0.1:9", "could not connect"});
  // A server answering 503 (busy) once, then not at all: the client says it tries again, then
  // gives up with the last failure, exit 6; every line it writes is one line of its own.
  FailingServer server(503);
  r = run_command(fmt::format("{} submit {} --timeout 2 --to http://127.0.0.1:{}", bin(), quoted(good), server.port()),
                  dir);
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(r.err.find("answered HTTP 503 (store unavailable): trying again"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cannot reach"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
}

TEST(CliErrors, HelpOffersWhatEachCommandAccepts) {
  test::TempFolder dir("cli-err-help");
  // Help is wrapped to the terminal (COLUMNS=100 here): every line fits, and the assertions below
  // read the text with each run of whitespace as one space.
  auto words = [](const std::string& s) {
    std::string out;
    for (char ch : s) {
      const bool space = ch == ' ' || ch == '\n';
      if (!space) out += ch;
      else if (!out.empty() && out.back() != ' ') out += ' ';
    }
    return out;
  };
  auto help = [&](const std::string& cmd) {
    const auto r = run_command(fmt::format("COLUMNS=100 {} {} --help", bin(), cmd), dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::size_t start = 0;
    while (start < r.out.size()) {
      const auto end = std::min(r.out.find('\n', start), r.out.size());
      EXPECT_LE(end - start, 100u) << cmd << ": " << r.out.substr(start, end - start);
      start = end + 1;
    }
    return words(r.out);
  };
  const std::string run = help("run"), memory = help("memory"), sweep = help("sweep"), host = help("host");
  const std::string compare = help("compare"), serve = help("serve"), submit = help("submit");
  // The host's options are listed by `host --help` only (run accepts them with --device host).
  EXPECT_EQ(run.find("--threads-list"), std::string::npos) << run;
  EXPECT_EQ(run.find("--huge-pages"), std::string::npos) << run;
  EXPECT_NE(host.find("--threads-list"), std::string::npos) << host;
  EXPECT_NE(run.find("webgpu-bench host --help"), std::string::npos) << run;
  // --adapter all only where it is accepted.
  EXPECT_NE(run.find("'all'"), std::string::npos) << run;
  EXPECT_EQ(memory.find("'all'"), std::string::npos) << memory;
  EXPECT_EQ(sweep.find("'all'"), std::string::npos) << sweep;
  // --token wherever --submit is.
  for (const auto* text : {&run, &memory, &host}) {
    EXPECT_NE(text->find("--submit"), std::string::npos) << *text;
    EXPECT_NE(text->find("--token"), std::string::npos) << *text;
  }
  // Readable types: no CLI11 validator text such as "UINT:INT in [1 - 1048576]".
  for (const auto* text : {&run, &memory, &sweep, &host, &compare, &serve, &submit}) {
    EXPECT_EQ(text->find(" in ["), std::string::npos) << *text;
    EXPECT_EQ(text->find("UINT"), std::string::npos) << *text;
    EXPECT_EQ(text->find(":{"), std::string::npos) << *text;
  }
  // The range is still said, in words.
  EXPECT_NE(serve.find("(2 to 256)"), std::string::npos) << serve;
  // The exit codes, network included.
  const std::string top = help("");
  EXPECT_NE(top.find("6 network"), std::string::npos) << top;
  EXPECT_NE(help("browser").find("--native-option"), std::string::npos);
  // memory and sweep refuse --adapter all with one line.
  expect_one_line(run_command(fmt::format("{} memory --adapter all", bin()), dir), 2, {"--adapter all"});
}

}  // namespace
}  // namespace wgb
