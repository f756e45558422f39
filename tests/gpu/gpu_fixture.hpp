// Shared GPU for the gpu-labelled tests: one device per test binary, on the best adapter (in CI,
// the CPU Vulkan driver). Skips with a reason only where no adapter exists at all; with
// WGB_REQUIRE_ADAPTER=1 (set by .ci/run) a missing adapter fails instead, so CI cannot pass by
// skipping everything.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "webgpu_bench/context.hpp"
#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::test {

// A device with `options`, or null with the reason in `reason`. Each getter below (and a test file's
// own, for other options) keeps one in a function-local static: one device per binary and kind.
inline std::unique_ptr<gpu::Context> create_or_reason(const gpu::ContextOptions& options, std::string& reason) {
  auto c = gpu::Context::create(options);
  if (!c) {
    reason = c.error().message;
    return nullptr;
  }
  return std::move(*c);
}

inline gpu::Context* shared_context(std::string* why = nullptr) {
  static std::string reason;
  static std::unique_ptr<gpu::Context> ctx = create_or_reason({}, reason);
  if (why != nullptr) *why = reason;
  return ctx.get();
}

inline bool adapter_required() {
  const char* v = std::getenv("WGB_REQUIRE_ADAPTER");
  return v != nullptr && std::string(v) == "1";
}

// Use at the top of a test: ASSERT/skip when there is no adapter, else yields the context that
// `getter(std::string* why)` returns.
#define WGB_CONTEXT_OR_SKIP(var, getter)                                             \
  std::string wgb_why_;                                                              \
  ::wgb::gpu::Context* var = getter(&wgb_why_);                                      \
  if (var == nullptr) {                                                              \
    if (::wgb::test::adapter_required()) {                                           \
      FAIL() << "no adapter: " << wgb_why_;                                          \
    }                                                                                \
    GTEST_SKIP() << "no WebGPU adapter on this machine: " << wgb_why_;               \
  }

// The same on the shared device of the best adapter.
#define WGB_GPU_OR_SKIP(var) WGB_CONTEXT_OR_SKIP(var, ::wgb::test::shared_context)

// Small, fast sampling for tests that run the scheduler on the CPU driver.
inline SamplingOptions quick_sampling() {
  SamplingOptions s;
  s.target_dispatch_ms = 2;
  s.measurement_ms = 5;
  s.idle_gap_ms = 0;
  s.min_rounds = 2;
  s.stable_rounds = 1;
  s.max_rounds = 3;
  s.cooldown_ms = 0;
  s.max_cooldowns = 0;
  // Tests check correctness, not thermal behaviour: on a shared 2-core machine timing noise would
  // otherwise flag rows as throttled.
  s.throttle_ratio = 1000;
  return s;
}

}  // namespace wgb::test
