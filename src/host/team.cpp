// ThreadTeam: pinned std::jthreads, a generation counter to start a region, a countdown to end it.
#include "host/team.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <cstring>
#include <mutex>

namespace wgb::host {

namespace {

// The calling thread's affinity before the first pinning team, restored when the last one ends,
// whatever order the teams end in (a team made while another still lives finds the caller already
// pinned; restoring what each team found would leave the caller pinned, and every process it starts,
// such as --repro's second process, would inherit one CPU). Teams are made by one thread.
struct CallerMask {
  std::mutex mutex;
  int teams = 0;
  cpu_set_t original{};
  bool saved = false;
};
CallerMask& caller_mask() {
  static CallerMask m;
  return m;
}

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// Spinning keeps the start of back-to-back regions to a cache-line transfer; after this long
// without work a member sleeps (a run() after a long pause then pays one futex wake-up, which is
// why the harness warms up before timing).
constexpr auto kSpinFor = std::chrono::milliseconds(20);

template <class T, class Pred>
void spin_then_wait(const std::atomic<T>& a, bool spin, Pred done) {
  if (spin) {
    const auto until = std::chrono::steady_clock::now() + kSpinFor;
    for (unsigned i = 1;; ++i) {
      if (done(a.load(std::memory_order_acquire))) return;
      cpu_relax();
      if ((i & 1023u) == 0 && std::chrono::steady_clock::now() > until) break;
    }
  }
  for (;;) {
    const T v = a.load(std::memory_order_acquire);
    if (done(v)) return;
    a.wait(v, std::memory_order_acquire);
  }
}

std::string pin_self(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  const int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
  if (rc != 0) return fmt::format("pthread_setaffinity_np(cpu {}): {}", cpu, std::strerror(rc));
  return {};
}

}  // namespace

const char* to_string(Affinity a) noexcept { return a == Affinity::Cores ? "cores" : "none"; }

Expected<std::vector<int>> choose_cpus(unsigned threads, Affinity policy, const std::vector<int>& one_per_core,
                                       const std::vector<int>& smt_siblings) {
  if (threads == 0) return make_error(ErrorKind::Usage, "thread count must be at least 1");
  if (policy == Affinity::None) return std::vector<int>{};
  std::vector<int> order = one_per_core;
  order.insert(order.end(), smt_siblings.begin(), smt_siblings.end());
  if (threads > order.size()) {
    return make_error(ErrorKind::Usage, fmt::format("{} pinned threads requested but this process may use {} CPUs "
                                                    "(use fewer threads, or --affinity none to oversubscribe)",
                                                    threads, order.size()));
  }
  order.resize(threads);
  return order;
}

Block block_of(std::size_t n, unsigned t, unsigned members, std::size_t align_elements) {
  if (members == 0) return {};
  std::size_t chunk = (n + members - 1) / members;
  if (align_elements > 1) chunk = (chunk + align_elements - 1) / align_elements * align_elements;
  const std::size_t begin = std::min(n, static_cast<std::size_t>(t) * chunk);
  const std::size_t end = std::min(n, begin + chunk);
  return {begin, end};
}

ThreadTeam::ThreadTeam(unsigned threads, std::vector<int> cpus) : size_(threads), cpus_(std::move(cpus)) {
  // Spinning members must not compete with each other for a CPU.
  const unsigned online = std::max(1u, std::thread::hardware_concurrency());
  spin_ = !cpus_.empty() || threads <= online;
}

Expected<std::unique_ptr<ThreadTeam>> ThreadTeam::create(unsigned threads, std::vector<int> cpus) {
  if (threads == 0) return make_error(ErrorKind::Usage, "thread count must be at least 1");
  if (!cpus.empty() && cpus.size() != threads) {
    return make_error(ErrorKind::Failed, "internal: cpu list does not match the thread count");
  }
  std::unique_ptr<ThreadTeam> team(new ThreadTeam(threads, std::move(cpus)));
  team->pin_errors_.assign(threads, {});
  if (team->pinned()) {
    // Member 0 is the caller: the first pinning team remembers its mask, the last one restores it.
    auto& m = caller_mask();
    std::lock_guard lock(m.mutex);
    if (m.teams++ == 0) {
      CPU_ZERO(&m.original);
      m.saved = pthread_getaffinity_np(pthread_self(), sizeof(m.original), &m.original) == 0;
    }
    team->restore_caller_ = true;
    team->pin_errors_[0] = pin_self(team->cpus_[0]);
  }
  team->threads_.reserve(threads - 1);
  for (unsigned id = 1; id < threads; ++id) {
    team->threads_.emplace_back([t = team.get(), id] { t->worker(id); });
  }
  spin_then_wait(team->ready_, true, [n = threads - 1](unsigned v) { return v >= n; });
  for (const auto& e : team->pin_errors_) {
    if (!e.empty()) return make_error(ErrorKind::Usage, e);  // the destructor joins the members
  }
  return team;
}

ThreadTeam::~ThreadTeam() {
  stop_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  generation_.notify_all();
  threads_.clear();  // jthread joins
  if (restore_caller_) {
    auto& m = caller_mask();
    std::lock_guard lock(m.mutex);
    if (--m.teams == 0 && m.saved) pthread_setaffinity_np(pthread_self(), sizeof(m.original), &m.original);
  }
}

void ThreadTeam::worker(unsigned id) {
  if (pinned()) pin_errors_[id] = pin_self(cpus_[id]);
  std::uint64_t seen = generation_.load(std::memory_order_acquire);
  ready_.fetch_add(1, std::memory_order_acq_rel);
  ready_.notify_all();
  for (;;) {
    spin_then_wait(generation_, spin_, [seen](std::uint64_t g) { return g != seen; });
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_acquire)) return;
    (*task_)(id);
    if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) remaining_.notify_one();
  }
}

void ThreadTeam::run(const std::function<void(unsigned)>& fn) {
  if (size_ == 1) {
    fn(0);
    return;
  }
  task_ = &fn;
  remaining_.store(size_ - 1, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_acq_rel);  // publishes task_ and remaining_
  generation_.notify_all();
  fn(0);
  spin_then_wait(remaining_, spin_, [](unsigned v) { return v == 0; });
}

}  // namespace wgb::host
