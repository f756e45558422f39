// VARIANT (bench/variants/chase-unroll16, for --kernel-dir): the shipped kernel with its hop loop
// unrolled by 16.
// read-dependent-chain: exactly one invocation follows `hops` dependent links through a seeded
// single-cycle permutation (Sattolo) filling a 4 MiB buffer: each load's address is the previous
// load's value, so no two loads overlap. Every repetition starts at the same index, so repeated
// measurements reuse the same footprint and starting point. The final index is stored and checked
// against chain_walk(). The cost per hop includes the loop and, amortised, the dispatch.
struct Params {
  start: u32,
  hops: u32,  // 4,096
}
@group(0) @binding(0) var<storage, read> next: array<u32>;
@group(0) @binding(1) var<storage, read_write> result: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(1)
fn main() {
  var i = p.start;
  // Unrolled by 16, as nvcc unrolls the CUDA reference's chase (16 LDG.E per loop trip); the
  // same number of hops, so the final position and its validation are unchanged.
  let n = p.hops;
  var h = 0u;
  for (; h + 16u <= n; h = h + 16u) {
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
    i = next[i];
  }
  for (; h < n; h = h + 1u) {
    i = next[i];
  }
  result[0] = i;
}
