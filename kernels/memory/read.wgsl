// memory-read (sequential read; docs/method.md#memory-workload): four independent 16-byte loads per
// invocation, grid-stride (neighbouring invocations touch neighbouring addresses), XOR-folded. The
// fold is compared with sentinels drawn from a uniform: a match is practically impossible, but the
// compiler cannot prove it, so no load is removed. The validator sets the sentinels to one
// invocation's true fold and checks that exactly that value was written.
struct Params {
  threads: u32,  // total invocations = elements / 4 (the grid stride)
  magic0: u32,
  magic1: u32,
  pad: u32,
}
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> sink: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> p: Params;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  let T = p.threads;
  let a = src[t];
  let b = src[t + T];
  let c = src[t + 2u * T];
  let d = src[t + 3u * T];
  let r = (a ^ b) ^ (c ^ d);
  if (r.x == p.magic0 && r.y == p.magic1) {
    sink[t & 255u] = r;
  }
}
