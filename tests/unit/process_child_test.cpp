// process::Child: a child that hangs is ended at its deadline with everything in its group; a
// child started while this process ignores and blocks signals gets default handling; the log's tail
// for messages; a missing program is a one-line error; exit statuses, cancel, the environment, and
// nothing of a group left after the object.
#include "process/child.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace wgb::process {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Gone, or a zombie waiting for init to reap it: either way it runs nothing any more.
bool ended(pid_t pid) {
  if (kill(pid, 0) != 0) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string all;
  std::getline(stat, all);
  const auto close = all.rfind(')');
  return close == std::string::npos || all.substr(close + 2, 1) == "Z";
}

class ChildTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "wgb-process-XXXXXX").string();
    ASSERT_NE(mkdtemp(t.data()), nullptr);
    dir_ = t;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  Options sh(const std::string& script) {
    Options o;
    o.argv = {"sh", "-c", script};
    o.log = (dir_ / "log.txt").string();
    return o;
  }
  fs::path dir_;
};

TEST_F(ChildTest, AHangingChildIsEndedAtItsDeadlineWithItsGroup) {
  // The grandchild stands for a browser's helper: in the same group, unknown to us.
  auto c = Child::spawn(sh("sleep 60 & echo $!; sleep 60"));
  ASSERT_TRUE(c) << c.error().message;
  const pid_t group = c->pid();
  const auto start = Clock::now();
  auto e = c->wait(deadline_in(400ms));
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_TRUE(e->timed_out);
  EXPECT_FALSE(e->success());
  EXPECT_NE(e->describe().find("deadline"), std::string::npos) << e->describe();
  EXPECT_LT(Clock::now() - start, 5s);
  const pid_t helper = std::atoi(slurp(dir_ / "log.txt").c_str());
  ASSERT_GT(helper, 0);
  EXPECT_TRUE(ended(helper));
  EXPECT_NE(kill(-group, 0), 0) << "a process of the group is left";
}

TEST_F(ChildTest, ChildrenGetDefaultSignalsWhateverThisProcessBlocksOrIgnores) {
  // As the program does: SIGINT handled or ignored, Ctrl-Z blocked for the job-control thread.
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTSTP);
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &block, &old), 0);
  auto previous = std::signal(SIGINT, SIG_IGN);
  Options o;
  o.argv = {"grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status"};
  o.log = (dir_ / "status.txt").string();
  auto c = Child::spawn(o);
  Options sleep_options;
  sleep_options.argv = {"sleep", "30"};  // no shell between: the signal meets the program itself
  auto sleeper = Child::spawn(sleep_options);
  std::signal(SIGINT, previous);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE(c->wait(deadline_in(10s)));
  const std::string status = slurp(dir_ / "status.txt");
  EXPECT_NE(status.find("SigBlk:\t0000000000000000"), std::string::npos) << status;
  EXPECT_NE(status.find("SigIgn:\t0000000000000000"), std::string::npos) << status;
  // And a Ctrl-C (SIGINT to its group) ends it.
  ASSERT_TRUE(sleeper) << sleeper.error().message;
  sleeper->signal(SIGINT);
  auto e = sleeper->wait(deadline_in(10s));
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_EQ(e->signal, SIGINT) << e->describe();
}

TEST_F(ChildTest, TheLogTailIsTheLastLinesWithoutNoise) {
  auto c = Child::spawn(sh("echo one; echo two >&2; echo; echo dbus says; echo three; exit 3"));
  ASSERT_TRUE(c) << c.error().message;
  auto e = c->wait(deadline_in(10s));
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_EQ(e->code, 3);
  EXPECT_EQ(e->status(), 3);
  EXPECT_EQ(e->describe(), "exit status 3");
  EXPECT_EQ(c->log_tail(2), "dbus says | three");
  EXPECT_EQ(c->log_tail(2, [](std::string_view l) { return l.find("dbus") != std::string_view::npos; }),
            "two | three");
  EXPECT_EQ(c->log_tail(10), "one | two | dbus says | three");
}

TEST_F(ChildTest, AMissingProgramIsOneLineNamingIt) {
  Options o;
  o.argv = {"/nonexistent/firefox-esr", "--headless"};
  auto c = Child::spawn(o);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("/nonexistent/firefox-esr"), std::string::npos) << c.error().message;
  EXPECT_EQ(c.error().message.find('\n'), std::string::npos);
  o.argv = {"wgb-no-such-program-anywhere"};
  auto d = Child::spawn(o);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("no such program on PATH"), std::string::npos) << d.error().message;
  EXPECT_EQ(find_program("wgb-no-such-program-anywhere"), "");
  EXPECT_NE(find_program("sh"), "");
}

TEST_F(ChildTest, ALogThatCannotBeCreatedIsAnIoError) {
  Options o = sh("true");
  o.log = (dir_ / "no-such-folder" / "log.txt").string();
  auto c = Child::spawn(o);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, ErrorKind::Io);
  EXPECT_NE(c.error().message.find("no-such-folder"), std::string::npos) << c.error().message;
}

TEST_F(ChildTest, ACancelIsPassedOnAsSigintAndTheChildMayFinish) {
  std::atomic<bool> cancel{false};
  // A child that finishes its work on SIGINT, as this program does (exit 130).
  auto c = Child::spawn(sh("trap 'echo kept; exit 130' INT; while :; do sleep 0.05; done"));
  ASSERT_TRUE(c) << c.error().message;
  std::thread press([&] {
    std::this_thread::sleep_for(200ms);
    cancel = true;
  });
  auto e = c->wait(deadline_in(20s), &cancel, 10s);
  press.join();
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_TRUE(e->cancelled);
  EXPECT_FALSE(e->timed_out);
  EXPECT_EQ(e->code, 130) << e->describe();
  EXPECT_EQ(c->log_tail(1), "kept");
}

TEST_F(ChildTest, ACancelledChildThatIgnoresSigintIsKilledAfterTheGrace) {
  std::atomic<bool> cancel{false};
  auto c = Child::spawn(sh("trap '' INT; echo ready; sleep 30"));
  ASSERT_TRUE(c) << c.error().message;
  // Only once the shell ignores SIGINT (a signal before its trap would end it at once).
  for (int i = 0; i < 500 && c->log_tail(1) != "ready"; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(c->log_tail(1), "ready");
  cancel = true;
  const auto start = Clock::now();
  auto e = c->wait(deadline_in(20s), &cancel, 300ms);
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_TRUE(e->cancelled);
  EXPECT_NE(e->signal, 0) << e->describe();
  EXPECT_GE(Clock::now() - start, 300ms);  // it was given its grace
  EXPECT_LT(Clock::now() - start, 5s);
}

TEST_F(ChildTest, TheEnvironmentIsChangedAsAskedAndStdoutCanGoToAFile) {
  setenv("WGB_PROCESS_TEST_GONE", "here", 1);
  Options o = sh("echo \"$WGB_PROCESS_TEST_SET ${WGB_PROCESS_TEST_GONE-unset}\"; echo err >&2");
  o.env = {"WGB_PROCESS_TEST_SET=yes", "WGB_PROCESS_TEST_GONE"};
  o.out = Sink::File;
  o.out_file = (dir_ / "out.txt").string();
  auto c = Child::spawn(o);
  unsetenv("WGB_PROCESS_TEST_GONE");
  ASSERT_TRUE(c) << c.error().message;
  auto e = c->wait(deadline_in(10s));
  ASSERT_TRUE(e && e->success());
  EXPECT_EQ(slurp(dir_ / "out.txt"), "yes unset\n");
  EXPECT_EQ(c->log_tail(5), "err");  // stderr alone in the log
}

TEST_F(ChildTest, NothingOfTheGroupOutlivesTheObject) {
  pid_t group = -1;
  {
    auto c = Child::spawn(sh("sleep 60 & sleep 60"));
    ASSERT_TRUE(c) << c.error().message;
    group = c->pid();
    EXPECT_TRUE(c->running());
    EXPECT_FALSE(c->poll());
    EXPECT_EQ(kill(-group, 0), 0);
    Child moved = std::move(*c);  // the group belongs to the moved-to object
    EXPECT_FALSE(c->running());
    EXPECT_TRUE(moved.running());
  }
  EXPECT_NE(kill(-group, 0), 0);
}

TEST_F(ChildTest, SignalAllReachesEveryLiveChild) {
  Options o;
  o.argv = {"sleep", "30"};
  auto a = Child::spawn(o);
  auto b = Child::spawn(o);
  ASSERT_TRUE(a && b);
  signal_all(SIGTERM);
  auto ea = a->wait(deadline_in(10s));
  auto eb = b->wait(deadline_in(10s));
  ASSERT_TRUE(ea && eb);
  EXPECT_EQ(ea->signal, SIGTERM);
  EXPECT_EQ(eb->signal, SIGTERM);
}

TEST(SelfCommand, IsThisProgram) {
  const auto cmd = self_command(1);
  ASSERT_FALSE(cmd.empty());
  EXPECT_TRUE(fs::exists(cmd.back())) << cmd.back();
}

}  // namespace
}  // namespace wgb::process
