// What only the browser knows, for the result document (machine.browser): the device host's `init`
// reply (user agent, which thread owns the GPUDevice) and the timestamp step observed.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

#include "report/page_messages.hpp"

namespace wgb::web {

const report::PageInit& init_reply();
// The greatest common step of the GPU timestamp differences seen so far (ns); before any, the step
// the host reported in its init reply (`timestamp_quantization_ns`), else nullopt.
std::optional<std::uint64_t> timestamp_quantum_ns();

}  // namespace wgb::web
