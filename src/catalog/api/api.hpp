// The `api` family: what WebGPU's own API costs (uploads, read-backs, buffer copies, dispatches,
// submits, pipeline creation). The host twins of its checks live here so tests can run a check on
// corrupted data and see it fail, and reach the device buffer a workload validates.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::catalog::api {

// The data every transfer moves is hashed (gpu::filled_word of kDataSeed); the destination starts
// out holding another hash (kStaleSeed), so a transfer that did not happen cannot pass.
inline constexpr std::uint32_t kDataSeed = 0xa7c0ffeeU;
inline constexpr std::uint32_t kStaleSeed = 0x5eed0badU;

// Bytes a transfer row moves per operation: SuiteOptions::bandwidth_bytes (64 MiB by default,
// `sweep --param size`), capped by the adapter's maxBufferSize and rounded down to a multiple of 4.
std::uint64_t transfer_bytes(const SuiteOptions& options, const gpu::Context& gpu);

// Word i of `words` must be filled_word(i, seed); names `what` and the first difference otherwise.
Expected<std::string> check_hashed(std::span<const std::uint32_t> words, std::uint32_t seed, std::string_view what);

// dispatch-overhead: the counter must equal the dispatches submitted (both modulo 2^32).
Expected<std::string> check_dispatch_count(std::uint32_t counter, std::uint64_t dispatched);

// pipeline-create: the WGSL of pipeline number `instance` (the kernel with a leading comment that
// names the instance) and what invocation i of it stores (kernels/api/pipeline_typical.wgsl).
std::string pipeline_wgsl(std::uint32_t instance);
std::uint32_t pipeline_value(std::uint32_t i, std::uint32_t salt, std::uint32_t seed, std::uint32_t iterations);
Expected<std::string> check_pipeline_output(std::span<const std::uint32_t> words, std::uint32_t salt,
                                            std::uint32_t seed, std::uint32_t iterations);

// A workload of this family whose validation reads a device buffer (the destination of an upload
// or a copy, the source of a read-back, the dispatch counter): tests corrupt it to see validation fail.
class CheckedWorkload {
 public:
  virtual ~CheckedWorkload() = default;
  virtual wgpu::Buffer checked_buffer() const = 0;
};

}  // namespace wgb::catalog::api
