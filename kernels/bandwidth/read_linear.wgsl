// read-linear: coalesced grid-stride streaming reads of vec4<u32> (16-byte loads).
// Each invocation XOR-folds four independent loads per step (neighbouring invocations touch
// neighbouring addresses) and keeps the result alive with a sentinel compare against uniforms:
// a match is practically impossible, but the compiler cannot prove it, so no load is removed.
// The validator sets the sentinels to one invocation's expected fold and checks it was written.
struct Params {
  count: u32,    // vec4 elements in the buffer
  threads: u32,  // total invocations (grid stride)
  magic0: u32,
  magic1: u32,
}
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> sink: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  let T = p.threads;
  var acc = vec4<u32>(0u);
  var i = t;
  // Main body: four independent loads in flight per step.
  loop {
    if (i + 3u * T >= p.count) { break; }
    let a = src[i];
    let b = src[i + T];
    let c = src[i + 2u * T];
    let d = src[i + 3u * T];
    acc = acc ^ ((a ^ b) ^ (c ^ d));
    i = i + 4u * T;
  }
  // Tail (sizes that are not a multiple of 4 * threads).
  loop {
    if (i >= p.count) { break; }
    acc = acc ^ src[i];
    i = i + T;
  }
  if (acc.x == p.magic0 && acc.y == p.magic1) {
    sink[t & 255u] = acc;
  }
}
