// The accuracy pass (`run --accuracy`, docs/method.md#accuracy): for a speed probe, every builtin
// it times is evaluated by its accuracy kernel (kernels/accuracy/) over its input set on the same
// device, and each result is compared with the exact one on the host. A result outside the
// specification's bound is a finding in the entry, never an error; an entry is an error only when
// the tool could not measure (the kernel did not compile or run, or left a result unwritten), and
// skipped, naming the feature, on an adapter without shader-f16 where a type is f16.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/accuracy/cases.hpp"
#include "catalog/common.hpp"
#include "webgpu_bench/accuracy.hpp"
#include "webgpu_bench/context.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::catalog::accuracy {

// The WGSL a case runs: `enable f16;` where a type is f16, the aliases A and R with their load and
// store functions, kernels/accuracy/prelude.wgsl, then the builtin's file (a --kernel-dir file, if
// one replaces it).
std::string source(const Case& c);

// The device's result for every pair of arguments, as bits of the result type (an f16 in the low
// half). Fails when the kernel does not compile or run, or leaves a result unwritten.
Expected<std::vector<std::uint32_t>> evaluate(gpu::Context& gpu, const Case& c, std::span<const Arguments> args);

// The results against the exact ones: errors, the worst input, the verdict. Host only (the tests
// feed it results of their own).
BuiltinAccuracy compare(const Case& c, std::span<const Arguments> args, std::span<const std::uint32_t> results);

// One case on the device (skipped without shader-f16 where a type is f16; `has_feature` defaults
// to the device's own features, the tests hide one).
BuiltinAccuracy measure(gpu::Context& gpu, const Case& c, const FeatureProbe& has_feature = {});

// Every case of one speed probe, in order (none for a probe that times no float builtin).
std::vector<BuiltinAccuracy> measure_probe(gpu::Context& gpu, std::string_view probe_id,
                                           const FeatureProbe& has_feature = {});

}  // namespace wgb::catalog::accuracy
