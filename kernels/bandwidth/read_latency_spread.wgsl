// read-latency-spread: the dependent-access latency of the cache the whole device shares. `walkers`
// invocations, one per workgroup (so the scheduler spreads them over the compute units), each follow
// their own random cycle (Sattolo) through their own slice of the working set, nodes 64 bytes apart.
// Every hop is an atomic read-modify-write that changes nothing (atomicAdd of 0) and returns the
// next node: device-coherent, so never served by a compute unit's private cache, and performed
// where the line is homed, so that a cache split between groups of compute units holds every node
// once. Atomic loads were not enough: on an H200 (two L2 partitions) walkers on every SM held only
// 32-40 MiB of the 60 with them, as if a load also left a copy of a line homed in the far partition
// in the near one; with read-modify-writes they hold 48 MiB and step at 52, and one walker alone
// sees the whole L2 too (docs/method.md#hierarchy).
// Positions carry across dispatches in `state`; the hop count per walker per dispatch comes from a
// uniform (the work knob the scheduler calibrates).
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
