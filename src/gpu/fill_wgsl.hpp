// The kernel behind Context::fill_hashed, shared by the native context and the browser engine's, so
// both fill buffers with the same words.
#pragma once

#include <string_view>

namespace wgb::gpu {

// WGSL for fill_hashed: word i of the bound range becomes hash32((base + i) ^ seed), the same
// function as gpu::hash32 on the host, so validators can recompute any input word.
inline constexpr std::string_view kFillWgsl = R"(
struct Params { base: u32, count: u32, seed: u32, pad: u32 }
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<uniform> p: Params;
fn hash32(x0: u32) -> u32 {
  var x = x0;
  x = x ^ (x >> 16u); x = x * 0x7feb352du;
  x = x ^ (x >> 15u); x = x * 0x846ca68bu;
  x = x ^ (x >> 16u);
  return x;
}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i < p.count) { data[i] = hash32((p.base + i) ^ p.seed); }
}
)";

}  // namespace wgb::gpu
