// The shipped kernel with the loop guard naga (wgpu) adds to every loop written out in WGSL:
// a vec2<u32> countdown from 2^64 - 1, tested and decremented at the top of every iteration
// (naga back/spv, force_loop_bounding), so that Dawn runs what wgpu hands the driver.
// write-scatter-16kb / -4mb / -64mb: every vec4 of a power-of-two window is written exactly once
// per round through a unique-destination permutation, for `rounds` rounds per pass (so small
// windows still fill a big GPU) and `passes` passes per dispatch (the work knob; pass q runs rounds
// q * rounds onward, so every round has its own permutation). Global element g in [0, rounds * n)
// of a pass is element i = g & mask of round r = g >> bits; it goes to dst[perm(i, r)]. perm is a
// bijection of [0, n): every step of it (XOR with a constant, multiplication by an odd constant
// modulo n, x ^= x >> s) is invertible on bits-wide values, so no two elements of a round share a
// destination. The buffer extends past the window by a sentinel region that nothing may touch.
struct Params {
  total: u32,    // rounds * window elements
  threads: u32,  // total invocations (grid stride)
  seed: u32,
  mask: u32,     // window elements - 1
  bits: u32,     // log2(window elements)
  s1: u32,       // xorshift amounts of the permutation (>= 1)
  s2: u32,
  passes: u32,   // passes per dispatch (the work knob)
}
@group(0) @binding(0) var<storage, read_write> dst: array<vec4<u32>>;
@group(0) @binding(1) var<uniform> p: Params;

fn perm(i: u32, r: u32) -> u32 {
  var x = (i ^ (p.seed + r * 0x9e3779b9u)) & p.mask;
  x = (x * 0x7feb352du) & p.mask;
  x = x ^ (x >> p.s1);
  x = (x * 0x846ca68bu) & p.mask;
  x = x ^ (x >> p.s2);
  return x;
}

fn store(g: u32, first_round: u32) {
  let i = g & p.mask;
  let r = (g >> p.bits) + first_round;
  dst[perm(i, r)] = vec4<u32>(i, r, i ^ p.seed, g);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let T = p.threads;
  var lg0 = vec2<u32>(4294967295u, 4294967295u);
  for (var q = 0u; q < p.passes; q++) {
    if (all(lg0 == vec2<u32>(0u))) { break; }
    lg0 = lg0 - vec2<u32>(select(0u, 1u, lg0.y == 0u), 1u);
    let first_round = q * (p.total >> p.bits);
    var g = gid.x;
    var lg1 = vec2<u32>(4294967295u, 4294967295u);
    loop {
      if (all(lg1 == vec2<u32>(0u))) { break; }
      lg1 = lg1 - vec2<u32>(select(0u, 1u, lg1.y == 0u), 1u);
      if (g + 3u * T >= p.total) { break; }
      store(g, first_round);
      store(g + T, first_round);
      store(g + 2u * T, first_round);
      store(g + 3u * T, first_round);
      g = g + 4u * T;
    }
    var lg2 = vec2<u32>(4294967295u, 4294967295u);
    loop {
      if (all(lg2 == vec2<u32>(0u))) { break; }
      lg2 = lg2 - vec2<u32>(select(0u, 1u, lg2.y == 0u), 1u);
      if (g >= p.total) { break; }
      store(g, first_round);
      g = g + T;
    }
  }
}
