// write-linear: coalesced grid-stride streaming writes of vec4<u32> (16-byte stores).
// Each invocation issues four independent stores per step (neighbouring invocations write
// neighbouring addresses). The stored value is a cheap function of the element index and a
// uniform seed, so the validator can check every element and nothing is a constant store.
struct Params {
  count: u32,    // vec4 elements in the buffer
  threads: u32,  // total invocations (grid stride)
  seed: u32,
  pad: u32,
}
@group(0) @binding(0) var<storage, read_write> dst: array<u32>;
@group(0) @binding(1) var<uniform> p: Params;

fn value(i: u32) -> vec4<u32> {
  return vec4<u32>(i, i ^ p.seed, ~i, i + p.seed);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let T = p.threads;
  var i = gid.x;
  // Main body: four independent stores per step.
  loop {
    if (i + 3u * T >= p.count) { break; }
    put(i);
    put(i + T);
    put(i + 2u * T);
    put(i + 3u * T);
    i = i + 4u * T;
  }
  // Tail (sizes that are not a multiple of 4 * threads).
  loop {
    if (i >= p.count) { break; }
    put(i);
    i = i + T;
  }
}
fn put(i: u32) { let v = value(i); dst[4u * i] = v.x; dst[4u * i + 1u] = v.y; dst[4u * i + 2u] = v.z; dst[4u * i + 3u] = v.w; }
