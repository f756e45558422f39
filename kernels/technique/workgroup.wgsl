// workgroup-64/-128/-256: one u32 element per invocation, 16 identical arithmetic steps, one store.
// The three benchmarks compile this file with only the kWorkgroupSize line changed (64 here), so
// the workgroup size is provably the only difference. The step count comes from a uniform so the
// compiler cannot fold the chain; the host reference is workgroup_reference() in reference.cpp.
const kWorkgroupSize: u32 = 64u;

struct Params {
  count: u32,  // elements
  steps: u32,  // 16
}
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(kWorkgroupSize)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= p.count) { return; }  // the tail of a size that is not a multiple of the workgroup
  var x = src[i];
  for (var s = 0u; s < p.steps; s = s + 1u) {
    x = (x ^ (x >> 15u)) * 0x2c1b3c6du + 0x297a2d39u;
  }
  dst[i] = x;
}
