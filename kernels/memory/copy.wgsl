// memory-copy and memory-sustain (docs/method.md#memory-workload): load from one buffer, store to
// the other, four elements per invocation in the read kernel's grid-stride layout. Every byte
// counts twice (read + write). Consecutive dispatches copy A to B, then B to A.
struct Params {
  threads: u32,  // total invocations = elements / 4 (the grid stride)
  pad0: u32,
  pad1: u32,
  pad2: u32,
}
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> p: Params;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  let T = p.threads;
  // Four independent loads in flight before the first store.
  let a = src[t];
  let b = src[t + T];
  let c = src[t + 2u * T];
  let d = src[t + 3u * T];
  dst[t] = a;
  dst[t + T] = b;
  dst[t + 2u * T] = c;
  dst[t + 3u * T] = d;
}
