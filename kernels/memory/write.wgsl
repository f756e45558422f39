// memory-write (docs/method.md#memory-workload): four 16-byte stores per invocation in the read
// kernel's grid-stride layout. The data varies per element (and per buffer, through the seed), so
// no store can be merged with another or predicted; the validator recomputes value() on the host
// (memory::written_value) and spot-checks both buffers.
struct Params {
  threads: u32,  // total invocations = elements / 4 (the grid stride)
  seed: u32,     // differs between the two buffers
  pad0: u32,
  pad1: u32,
}
@group(0) @binding(0) var<storage, read_write> dst: array<vec4<u32>>;
@group(0) @binding(1) var<uniform> p: Params;

fn value(i: u32) -> vec4<u32> {
  return vec4<u32>(i ^ p.seed, (i * 0x9e3779b9u) ^ p.seed, (~i) ^ p.seed, i + p.seed);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  let T = p.threads;
  dst[t] = value(t);
  dst[t + T] = value(t + T);
  dst[t + 2u * T] = value(t + 2u * T);
  dst[t + 3u * T] = value(t + 3u * T);
}
