// VARIANT (bench/variants/chase-unroll16, for --kernel-dir): the shipped kernel with its hop loop
// unrolled by 16.
// memory-latency (dependent-load chase; docs/method.md#memory-workload): one invocation follows a
// single random cycle through slots 64 bytes apart; each address depends on the previous load, so
// the time per hop approximates a round trip to memory, TLB misses included. The position is
// carried across dispatches in `state`, so no pass replays a warm path; the validator compares the
// final position with the host's walk of the same cycle.
struct Params {
  iters: u32,  // hops in this dispatch
  pad0: u32,
  pad1: u32,
  pad2: u32,
}
@group(0) @binding(0) var<storage, read> chain: array<u32>;
@group(0) @binding(1) var<storage, read_write> state: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;
@compute @workgroup_size(1)
fn main() {
  var idx = state[0];
  // Unrolled by 16, as nvcc unrolls the CUDA reference's chase (16 LDG.E per loop trip); the
  // same number of hops, so the final position and its validation are unchanged.
  let n = p.iters;
  var i = 0u;
  for (; i + 16u <= n; i = i + 16u) {
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
    idx = chain[idx];
  }
  for (; i < n; i = i + 1u) {
    idx = chain[idx];
  }
  state[0] = idx;
}
