// read-latency, each hop an atomic read-modify-write that changes nothing (atomicAdd of 0): one
// walker whose every hop is served where its line is homed (see read_latency_spread.wgsl here).
struct Params {
  iterations: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}
@group(0) @binding(0) var<storage, read_write> chain: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> state: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(1)
fn main() {
  var idx = state[0];
  for (var i = 0u; i < p.iterations; i++) {
    idx = atomicAdd(&chain[idx], 0u);
  }
  state[0] = idx;
}
