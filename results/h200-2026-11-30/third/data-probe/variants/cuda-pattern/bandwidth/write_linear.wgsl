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
@group(0) @binding(0) var<storage, read_write> dst: array<vec4<u32>>;
@group(0) @binding(1) var<uniform> p: Params;

fn value(i: u32) -> vec4<u32> {
  let w = i * 4u; return vec4<u32>(w ^ p.seed, w ^ (p.seed ^ 1u), w ^ (p.seed ^ 2u), w ^ (p.seed ^ 3u));
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let T = p.threads;
  var i = gid.x;
  // Main body: four independent stores per step.
  loop {
    if (i + 3u * T >= p.count) { break; }
    dst[i] = value(i);
    dst[i + T] = value(i + T);
    dst[i + 2u * T] = value(i + 2u * T);
    dst[i + 3u * T] = value(i + 3u * T);
    i = i + 4u * T;
  }
  // Tail (sizes that are not a multiple of 4 * threads).
  loop {
    if (i >= p.count) { break; }
    dst[i] = value(i);
    i = i + T;
  }
}
fn h(x0: u32) -> u32 { var x = x0; x = x ^ (x >> 16u); x = x * 0x7feb352du; x = x ^ (x >> 15u); x = x * 0x846ca68bu; return x ^ (x >> 16u); }
