// run_suite: the scheduler. Prepares every benchmark up front (unsupported ones resolve as skipped
// before any timing), then measures them one at a time in catalog order and yields a row as each
// completes. Pull style (SuiteRun::next or a range-for) or callback style.
#pragma once

#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <vector>

#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"
#include "webgpu_bench/progress.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb {

class SuiteRun {
 public:
  explicit SuiteRun(SuiteOptions options);
  ~SuiteRun();
  SuiteRun(SuiteRun&&) noexcept;
  SuiteRun& operator=(SuiteRun&&) noexcept;

  // Opens the device and prepares every benchmark. Called by next() when not called before;
  // fails with NoAdapter / Usage / DeviceLost.
  Status start();
  // The next completed row, or nullopt at the end (or after cancel / device loss: the remaining
  // benchmarks are then reported as cancelled rows first).
  std::optional<BenchmarkResult> next();
  // The error that ended the run early (device lost, ...), if any.
  const std::optional<Error>& fatal_error() const;
  gpu::Context* context();
  std::size_t benchmark_count() const;
  const std::vector<BenchmarkDefinition>& benchmarks() const;
  // Per-benchmark initial time estimates (s) from the sampling budget, for SuiteProgress.
  std::vector<double> initial_estimates_s() const;

  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = BenchmarkResult;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(SuiteRun* run) : run_(run) { ++*this; }
    const BenchmarkResult& operator*() const { return *current_; }
    iterator& operator++() {
      current_ = run_->next();
      if (!current_) run_ = nullptr;
      return *this;
    }
    void operator++(int) { ++*this; }
    bool operator==(const iterator& o) const { return run_ == o.run_; }

   private:
    SuiteRun* run_ = nullptr;
    std::optional<BenchmarkResult> current_;
  };
  iterator begin() { return iterator(this); }
  iterator end() { return iterator(); }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Pull style: for (const auto& row : run_suite(options)) { ... }
SuiteRun run_suite(SuiteOptions options);

// Callback style: calls on_result for every row; returns the fatal error, if any.
Status run_suite(SuiteOptions options, const std::function<void(const BenchmarkResult&)>& on_result);

// The built-in catalog (all definitions, in catalog order) and its default suite.
const std::vector<BenchmarkDefinition>& builtin_benchmarks();
std::vector<BenchmarkDefinition> default_suite();

}  // namespace wgb
