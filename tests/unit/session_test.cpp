// The command-line session (cli/session.hpp) without starting the program: the one signal handler,
// writing that keeps the first failure, and the exit code's order (files, network, interrupt, rows).
#include "cli/session.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>

namespace wgb::cli {
namespace {

extern "C" void previous_handler(int) {}

TEST(Interrupt, TheFirstSignalCancelsAndThePreviousHandlerComesBack) {
  std::signal(SIGINT, previous_handler);
  {
    Interrupt interrupt(/*also_sigterm=*/true);
    EXPECT_FALSE(interrupt.requested());
    EXPECT_FALSE(interrupt.token().cancelled());
    std::raise(SIGTERM);  // serve's stop: sets the flag, never exits
    EXPECT_TRUE(interrupt.requested());
    EXPECT_TRUE(interrupt.token().cancelled());
  }
  EXPECT_EQ(std::signal(SIGINT, SIG_DFL), previous_handler);
  Interrupt again;  // a new session starts uncancelled
  EXPECT_FALSE(again.requested());
}

TEST(Session, AnUnwritableOutputIsExitCode5AndNamesThePath) {
  OutputFlags f;
  f.quiet = true;
  f.json_path = (std::filesystem::temp_directory_path() / "wgb-no-such-folder" / "out.json").string();
  Session session(f);
  report::ResultDocument doc("default", {"webgpu-bench", "run"});
  auto st = session.write_first(doc);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find(f.json_path), std::string::npos) << st.error().message;
  session.write(doc);  // kept: finish() reports it before anything else
  Outcome o;
  o.cancelled = true;
  EXPECT_EQ(session.finish(doc.json(), o), kExitIo);
}

TEST(Session, ExitCodesFollowTheOutcome) {
  OutputFlags f;
  f.quiet = true;
  const nlohmann::json doc = nlohmann::json::object();
  {
    Session s(f);
    EXPECT_EQ(s.finish(doc, Outcome{}), kExitOk);
  }
  {
    Session s(f);
    Outcome o;
    o.cancelled = true;
    o.any_error = true;
    EXPECT_EQ(s.finish(doc, o), kExitCancelled);
  }
  {
    Session s(f);
    Outcome o;
    o.fatal = Error{ErrorKind::DeviceLost, "lost"};
    EXPECT_EQ(s.finish(doc, o), kExitDeviceLost);
  }
  {
    Session s(f);
    Outcome o;
    o.any_error = true;
    EXPECT_EQ(s.finish(doc, o), kExitBenchmarkFailed);
  }
}

TEST(Session, ASubmissionThatFailsOnTheNetworkIsExitCode6) {
  EXPECT_EQ(submit_exit_code(Error{ErrorKind::Io, "cannot reach http://127.0.0.1:9: Could not establish connection"}),
            kExitNetwork);
  EXPECT_EQ(submit_exit_code(Error{ErrorKind::Usage, "http://h refused the document (HTTP 422): bad"}), kExitNetwork);
  EXPECT_EQ(submit_exit_code(Error{ErrorKind::Usage, "ftp://x: the server URL must start with http://"}), kExitUsage);
  OutputFlags f;
  f.quiet = true;
  f.submit_url = "ftp://example";
  Session s(f);
  EXPECT_FALSE(s.check_before_work());  // a malformed URL fails before any work
}

}  // namespace
}  // namespace wgb::cli
