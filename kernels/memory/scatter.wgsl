// Latency set-up (docs/method.md#memory-workload): the host builds the cycle with Sattolo's
// algorithm as a compact array of successor slots; this kernel scatters it into place, one word per
// 64-byte slot, as the word index of the successor (so the chase kernel can load `chain[idx]`
// directly).
struct Params {
  slots: u32,
  stride: u32,  // words per slot (16 = 64 bytes)
  pad0: u32,
  pad1: u32,
}
@group(0) @binding(0) var<storage, read> next: array<u32>;
@group(0) @binding(1) var<storage, read_write> chain: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let s = gid.x + gid.y * nwg.x * 256u;
  if (s < p.slots) {
    chain[s * p.stride] = next[s] * p.stride;
  }
}
