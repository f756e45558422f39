// VARIANT (bench/variants/chase-readwrite, for --kernel-dir): the shipped chase with its chain bound
// read_write instead of read, so Dawn's SPIR-V marks each hop's load NonPrivatePointer.
// read-latency: one invocation follows a single random cycle (Sattolo) through nodes spaced 64 bytes
// apart; each address depends on the previous load, so the time per hop approximates a load's round
// trip at this working-set size (L1, L2 or DRAM, TLB misses included). The position is carried across
// dispatches in `state`, so no dispatch replays a warm path; the hop count per dispatch comes from a
// uniform (the work knob the scheduler calibrates).
struct Params {
  iterations: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}
@group(0) @binding(0) var<storage, read_write> chain: array<u32>;
@group(0) @binding(1) var<storage, read_write> state: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(1)
fn main() {
  var idx = state[0];
  for (var i = 0u; i < p.iterations; i++) {
    idx = chain[idx];
  }
  state[0] = idx;
}
