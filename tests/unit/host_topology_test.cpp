// Unit tests for host topology and thread teams: cpu lists, the partition shared by first touch,
// kernel and check, the choice of pinned CPUs, size and thread sweeps, and a ThreadTeam that runs
// every member once per region on the CPU it was pinned to and leaves the caller as it found it.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <set>

#include "host/host.hpp"
#include "host/team.hpp"
#include "host/topology.hpp"

namespace wgb::host {
namespace {

TEST(HostTopology, CpuListsRoundTrip) {
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list("5"), (std::vector<int>{5}));
  EXPECT_EQ(parse_cpu_list(""), (std::vector<int>{}));
  EXPECT_EQ(parse_cpu_list("3,1,2,x,1"), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(format_cpu_list({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(format_cpu_list({}), "");
}

TEST(HostTopology, ThisMachineHasCpusAndMemory) {
  const Topology t = read_topology();
  ASSERT_FALSE(t.allowed_cpus.empty());
  ASSERT_FALSE(t.one_per_core.empty());
  EXPECT_LE(t.one_per_core.size(), t.allowed_cpus.size());
  EXPECT_EQ(t.one_per_core.size() + t.smt_siblings.size(), t.allowed_cpus.size());
  EXPECT_GT(t.mem_total_bytes, 0u);
  EXPECT_FALSE(t.mempolicy.empty());
  const report::HostTopologyRecord r = topology_record(t);
  EXPECT_EQ(r.allowed_cpu_count, t.allowed_cpus.size());
  EXPECT_EQ(r.physical_cores_allowed, t.one_per_core.size());
  EXPECT_EQ(r.allowed_cpus, format_cpu_list(t.allowed_cpus));
  EXPECT_EQ(r.memory_total_bytes, t.mem_total_bytes);
  EXPECT_EQ(r.numa_node_count, t.numa_nodes.size());
  for (const auto& c : r.caches) EXPECT_EQ(c.total_bytes, c.bytes * static_cast<std::uint64_t>(c.instances));
}

TEST(HostTeam, BlocksCoverTheArrayDisjointlyOnLineBoundaries) {
  for (std::size_t n : {0u, 1u, 7u, 64u, 1000u, 100003u}) {
    for (unsigned members : {1u, 2u, 3u, 16u}) {
      std::size_t covered = 0, expected_begin = 0;
      for (unsigned t = 0; t < members; ++t) {
        const Block b = block_of(n, t, members);
        EXPECT_EQ(b.begin, expected_begin);
        if (b.size() > 0 && b.end < n) {
          EXPECT_EQ(b.end % 8, 0u);
        }
        covered += b.size();
        expected_begin = b.end;
      }
      EXPECT_EQ(covered, n) << n << " " << members;
    }
  }
}

TEST(HostTeam, ChooseCpusOnePerCoreThenSiblings) {
  auto c = choose_cpus(3, Affinity::Cores, {0, 1, 2, 3}, {4, 5, 6, 7});
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, (std::vector<int>{0, 1, 2}));
  c = choose_cpus(6, Affinity::Cores, {0, 1, 2, 3}, {4, 5, 6, 7});
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_FALSE(choose_cpus(9, Affinity::Cores, {0, 1, 2, 3}, {4, 5, 6, 7}));
  EXPECT_EQ(choose_cpus(9, Affinity::Cores, {0, 1}, {}).error().kind, ErrorKind::Usage);
  c = choose_cpus(9, Affinity::None, {0, 1}, {});
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->empty());
  EXPECT_FALSE(choose_cpus(0, Affinity::None, {0}, {}));
}

TEST(HostTeam, RunsEveryMemberOncePerRegionOnItsCpu) {
  const Topology t = read_topology();
  const unsigned n = static_cast<unsigned>(std::min<std::size_t>(2, t.one_per_core.size()));
  auto cpus = choose_cpus(n, Affinity::Cores, t.one_per_core, t.smt_siblings);
  ASSERT_TRUE(cpus);
  cpu_set_t before;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof(before), &before), 0);
  {
    auto team = ThreadTeam::create(n, *cpus);
    ASSERT_TRUE(team) << team.error().message;
    std::vector<std::atomic<int>> hits(n);
    std::vector<int> where(n, -1);
    std::function<void(unsigned)> f = [&](unsigned m) {
      hits[m].fetch_add(1);
      where[m] = sched_getcpu();
    };
    for (int i = 0; i < 50; ++i) (*team)->run(f);
    for (unsigned m = 0; m < n; ++m) {
      EXPECT_EQ(hits[m].load(), 50);
      EXPECT_EQ(where[m], (*cpus)[m]);  // pinned before it ran anything
    }
  }
  cpu_set_t after;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof(after), &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after));  // the caller (member 0) got its mask back
}

TEST(HostTeam, PinningToAForbiddenCpuIsAnError) {
  auto team = ThreadTeam::create(1, {CPU_SETSIZE - 1});
  EXPECT_FALSE(team);
}

TEST(HostSweeps, SizePointsAreGeometricAndIncludeBothEnds) {
  const auto s = size_points(4096, 65536, 2, 64);
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s.front(), 4096u);
  EXPECT_EQ(s.back(), 65536u);
  EXPECT_EQ(s.size(), 9u);  // 4 octaves x 2 + 1
  for (std::size_t i = 1; i < s.size(); ++i) {
    EXPECT_GT(s[i], s[i - 1]);
    EXPECT_EQ(s[i] % 64, 0u);
  }
  EXPECT_EQ(size_points(1000, 1000, 1, 64), (std::vector<std::uint64_t>{1024}));
}

TEST(HostSweeps, DefaultThreadList) {
  EXPECT_EQ(default_thread_list(1), (std::vector<unsigned>{1}));
  EXPECT_EQ(default_thread_list(2), (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(default_thread_list(16), (std::vector<unsigned>{1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16}));
  const auto l = default_thread_list(13);
  EXPECT_EQ(l.back(), 13u);
}

}  // namespace
}  // namespace wgb::host
