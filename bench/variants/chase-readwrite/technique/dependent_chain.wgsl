// VARIANT (bench/variants/chase-readwrite, for --kernel-dir): the shipped chase with its chain bound
// read_write instead of read, so Dawn's SPIR-V marks each hop's load NonPrivatePointer.
// read-dependent-chain: exactly one invocation follows `hops` dependent links through a seeded
// single-cycle permutation (Sattolo) filling a 4 MiB buffer: each load's address is the previous
// load's value, so no two loads overlap. Every repetition starts at the same index, so repeated
// measurements reuse the same footprint and starting point. The final index is stored and checked
// against chain_walk(). The cost per hop includes the loop and, amortised, the dispatch.
struct Params {
  start: u32,
  hops: u32,  // 4,096
}
@group(0) @binding(0) var<storage, read_write> next: array<u32>;
@group(0) @binding(1) var<storage, read_write> result: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(1)
fn main() {
  var i = p.start;
  for (var h = 0u; h < p.hops; h = h + 1u) {
    i = next[i];
  }
  result[0] = i;
}
