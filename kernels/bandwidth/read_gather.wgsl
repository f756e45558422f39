// read-gather-16kb / -4mb / -64mb: per pass the same number of 16-byte loads as a pass of
// read-linear, but each load hits a pseudo-random vec4 inside a power-of-two window at the start of
// the buffer; `passes` passes per dispatch (the work knob) continue the same address streams, so
// launch and drain are a negligible part of a dispatch and the window stays the footprint. Load k
// of invocation t reads element (lcg_k >> shift) & mask, where each of the four per-step streams is
// a 32-bit LCG seeded from hash32(t, stream, seed): the top bits of an LCG are well mixed, and one
// multiply-add per address keeps the address arithmetic far below the load rate. Four independent
// loads are in flight per step; they are XOR-folded and kept alive by a sentinel compare (as in
// read-linear), and the validator replays one invocation's addresses on the host.
struct Params {
  count: u32,    // loads per pass (vec4 elements of the buffer)
  threads: u32,  // total invocations (grid stride)
  magic0: u32,
  magic1: u32,
  seed: u32,
  mask: u32,     // window elements - 1 (the window is a power of two)
  shift: u32,    // 32 - log2(window elements), clamped so the shift stays below 32
  passes: u32,   // passes per dispatch (the work knob)
}
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> sink: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> p: Params;

fn hash32(x0: u32) -> u32 {
  var x = x0;
  x = x ^ (x >> 16u); x = x * 0x7feb352du;
  x = x ^ (x >> 15u); x = x * 0x846ca68bu;
  x = x ^ (x >> 16u);
  return x;
}

const A: u32 = 1664525u;     // Numerical Recipes LCG
const C: u32 = 1013904223u;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  let T = p.threads;
  var s0 = hash32((t * 4u + 0u) ^ p.seed);
  var s1 = hash32((t * 4u + 1u) ^ p.seed);
  var s2 = hash32((t * 4u + 2u) ^ p.seed);
  var s3 = hash32((t * 4u + 3u) ^ p.seed);
  var acc = vec4<u32>(0u);
  for (var q = 0u; q < p.passes; q++) {
    var i = t;
    loop {
      if (i + 3u * T >= p.count) { break; }
      s0 = s0 * A + C; s1 = s1 * A + C; s2 = s2 * A + C; s3 = s3 * A + C;
      let a = src[(s0 >> p.shift) & p.mask];
      let b = src[(s1 >> p.shift) & p.mask];
      let c = src[(s2 >> p.shift) & p.mask];
      let d = src[(s3 >> p.shift) & p.mask];
      acc = acc ^ ((a ^ b) ^ (c ^ d));
      i = i + 4u * T;
    }
    // Tail: stream 0 only.
    loop {
      if (i >= p.count) { break; }
      s0 = s0 * A + C;
      acc = acc ^ src[(s0 >> p.shift) & p.mask];
      i = i + T;
    }
  }
  if (acc.x == p.magic0 && acc.y == p.magic1) {
    sink[t & 255u] = acc;
  }
}
