// Shared by every ALU probe (kernels/compute/*.wgsl; src/catalog/compute/alu.cpp prepends
// `enable f16;` where needed and `alias T = f32;` or `f16;`, then this prelude, then the probe's
// template with its //#repeat blocks unrolled). The uniform block carries the loop count (the work
// knob the scheduler calibrates) and every operand, so nothing can be constant-folded; per-invocation
// starting values come from a hash of the invocation id and the seed. Each invocation stores one
// 32-bit result (a float's bits for float probes), so no chain is dead code.
struct Params {
  iterations: u32,  // loop trips: the work knob
  seed: u32,
  ia: u32,          // integer operands (ia is odd: an invertible multiplier)
  ib: u32,
  threads: u32,     // invocations that compute (the grid is rounded up to whole workgroups)
  workgroup: u32,   // = wg_size (the host references of branch-coherent need it; unused here)
  pad1: u32,        // 0 at run time; f32-f16-convert XORs f16 bits with it (no compiler can fold that)
  pad2: u32,
  f: vec4<f32>,     // float operands; every value is exact in f16
  M: mat4x4<f32>,   // mat4 probes: S' = M S + C
  C: mat4x4<f32>,
  IM: array<vec4<u32>, 4>,
  IC: array<vec4<u32>, 4>,
}
// The workgroup size of every ALU probe: an override constant, 256 unless the pipeline sets it
// (SuiteOptions::compute_workgroup_size, `sweep --param workgroup`). The WGSL text, and so its hash,
// is the same at every size.
override wg_size: u32 = 256u;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> p: Params;

fn hash32(x0: u32) -> u32 {
  var x = x0;
  x = x ^ (x >> 16u); x = x * 0x7feb352du;
  x = x ^ (x >> 15u); x = x * 0x846ca68bu;
  x = x ^ (x >> 16u);
  return x;
}
// Word k of invocation t's operand stream.
fn bits(t: u32, k: u32) -> u32 { return hash32((t * 64u + k) ^ p.seed); }
// In [1, 2) on a 2^-10 grid: exact in f16 and f32, so the host reference starts from the same values.
fn start(t: u32, k: u32) -> f32 { return 1.0 + f32(bits(t, k) >> 22u) * (1.0 / 1024.0); }
// In [-16, 15] / 1024: the off-diagonal entries of a per-invocation contracting matrix.
fn small(t: u32, k: u32) -> f32 { return f32(i32(bits(t, k) >> 27u) - 16) * (1.0 / 1024.0); }
// The per-trip operand of the probes whose maps settle within one trip (float_unary, the
// conversions, u32_unary): a word from trip n and a uniform, so every trip moves the chains to a new
// place and the stored result depends on the trip count (a kernel that ran fewer trips fails
// validation). Consecutive trips, and trips two apart, always differ in the top byte: the
// golden-ratio multiplier steps it by 0x9E or 0x9F per trip (0x3C or 0x3D per two).
fn trip_word(n: u32) -> u32 { return (p.ib + n) * 0x9e3779b9u; }
// Its top byte as a fraction in [0, 1) on a 2^-8 grid: exact in f16 and f32, also when added to c < 4.
fn trip_frac(n: u32) -> f32 { return f32(trip_word(n) >> 24u) * (1.0 / 256.0); }
