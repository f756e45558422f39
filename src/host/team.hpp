// A team of threads with a controlled count and a stated affinity (recorded: count, affinity
// policy, and how it was set). The calling thread is member 0, so N members occupy N
// CPUs and nothing is oversubscribed; members 1..N-1 are std::jthreads. Pinning is done by each
// member itself with pthread_setaffinity_np before it does anything else, so the first touch of
// its data already happens on its own CPU (and NUMA node).
//
// run(fn) is one parallel region: fn(member) on every member, returning when all are done. The
// timed region of a multi-threaded kernel is exactly one run() call, stragglers included.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "webgpu_bench/expected.hpp"

namespace wgb::host {

enum class Affinity {
  Cores,  // pinned, one member per physical core (SMT siblings only after every core has one)
  None,   // not pinned: the OS scheduler places the threads
};
const char* to_string(Affinity a) noexcept;

// The CPUs a team of `threads` uses under `policy`: the first `threads` of one_per_core, then SMT
// siblings. Empty for Affinity::None. Usage error when more threads than allowed CPUs are pinned.
Expected<std::vector<int>> choose_cpus(unsigned threads, Affinity policy, const std::vector<int>& one_per_core,
                                       const std::vector<int>& smt_siblings);

class ThreadTeam {
 public:
  // cpus: one per member, or empty (unpinned) with `threads` members. Members wait for work by
  // spinning for a few milliseconds (so back-to-back timed regions start without a futex wake-up)
  // and then sleep on an atomic wait; with more members than CPUs they sleep at once.
  static Expected<std::unique_ptr<ThreadTeam>> create(unsigned threads, std::vector<int> cpus);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  unsigned size() const noexcept { return size_; }
  const std::vector<int>& cpus() const noexcept { return cpus_; }
  bool pinned() const noexcept { return !cpus_.empty(); }

  void run(const std::function<void(unsigned)>& fn);

 private:
  ThreadTeam(unsigned threads, std::vector<int> cpus);
  void worker(unsigned id);

  unsigned size_ = 1;
  std::vector<int> cpus_;
  bool spin_ = true;
  bool restore_caller_ = false;  // this team pinned the caller: it counts among the pinning teams
  const std::function<void(unsigned)>* task_ = nullptr;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<unsigned> remaining_{0};
  std::atomic<unsigned> ready_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::string> pin_errors_;
  std::vector<std::jthread> threads_;
};

// Contiguous block [begin, end) of member `t` of `members` over n elements, boundaries on whole
// 64-byte lines of doubles so no two members write the same cache line. The same function places
// the first touch, the kernel and the check.
struct Block {
  std::size_t begin = 0, end = 0;
  std::size_t size() const { return end - begin; }
};
Block block_of(std::size_t n, unsigned t, unsigned members, std::size_t align_elements = 8);

}  // namespace wgb::host
