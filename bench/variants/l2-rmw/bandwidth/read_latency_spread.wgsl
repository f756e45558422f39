// read-latency-spread, each hop an atomic read-modify-write that changes nothing (atomicAdd of 0)
// instead of an atomic load. A read-modify-write is performed where the line is homed, not copied
// near the reader: on a GPU whose shared cache keeps copies of far lines in the reader's part (as
// NVIDIA's partitioned L2 may), this chase holds every node once, so its last step is the whole
// cache's capacity. Same cycles, same validation (the values never change).
struct Params {
  iterations: u32,
  walkers: u32,
  pad1: u32,
  pad2: u32,
}
@group(0) @binding(0) var<storage, read_write> chain: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> state: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wg: vec3<u32>) {
  let w = wg.x;
  if (w >= p.walkers) {
    return;
  }
  var idx = state[w];
  for (var i = 0u; i < p.iterations; i++) {
    idx = atomicAdd(&chain[idx], 0u);
  }
  state[w] = idx;
}
