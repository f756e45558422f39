// read-latency-spread: the dependent-load latency of the cache the whole device shares. `walkers`
// invocations, one per workgroup (so the scheduler spreads them over the compute units), each follow
// their own random cycle (Sattolo) through their own slice of the working set, nodes 64 bytes apart.
// Every load is an atomic load: device-coherent, so it is served by the device-wide levels and never
// by a compute unit's private cache. Where a shared cache is split between groups of compute units
// (NVIDIA's two L2 partitions), one walker alone fills only its own group's part; walkers on every
// unit fill all of it. Positions carry across dispatches in `state`; the hop count per walker per
// dispatch comes from a uniform (the work knob the scheduler calibrates).
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
    idx = atomicLoad(&chain[idx]);
  }
  state[w] = idx;
}
