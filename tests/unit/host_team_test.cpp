// The thread team gives the calling thread back every CPU it had, whatever order teams end in: a
// caller left pinned would start every later process (the --repro second process) on one CPU.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <memory>

#include "host/team.hpp"

namespace wgb::host {
namespace {

cpu_set_t caller_mask() {
  cpu_set_t s;
  CPU_ZERO(&s);
  pthread_getaffinity_np(pthread_self(), sizeof(s), &s);
  return s;
}

TEST(ThreadTeam, TheCallerGetsItsCpusBackWhateverOrderTeamsEndIn) {
  const cpu_set_t before = caller_mask();
  if (CPU_COUNT(&before) < 2) GTEST_SKIP() << "needs two CPUs this process may use";
  std::vector<int> allowed;
  for (int c = 0; c < CPU_SETSIZE && allowed.size() < 2; ++c) {
    if (CPU_ISSET(c, &before)) allowed.push_back(c);
  }
  auto a = ThreadTeam::create(1, {allowed[0]});
  ASSERT_TRUE(a) << a.error().message;
  const cpu_set_t pinned = caller_mask();
  EXPECT_EQ(CPU_COUNT(&pinned), 1);  // pinned while the team lives
  auto b = ThreadTeam::create(1, {allowed[1]});  // made while the first still lives
  ASSERT_TRUE(b) << b.error().message;
  a->reset();  // the first team ends first
  b->reset();
  const cpu_set_t after = caller_mask();
  EXPECT_TRUE(CPU_EQUAL(&before, &after)) << CPU_COUNT(&after) << " CPUs after, " << CPU_COUNT(&before) << " before";
}

}  // namespace
}  // namespace wgb::host
