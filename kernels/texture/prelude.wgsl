// Shared by texture-interp-builtin and texture-interp-manual (src/catalog/texture/texture.cpp puts
// it before each kernel, whose //#repeat blocks are unrolled like the ALU probes'). Both scan a
// one-row rgba32float texture of `width` texels (a power of two) the same way: invocation t starts
// at a hashed position and advances a quarter of a texel per sample, 256 samples per loop trip
// (the work knob `iterations`), into four vec4 accumulators; it stores the sum of their components.
// A quarter-texel step puts every sample at a filter weight of 0, 1/4, 1/2 or 3/4, exact in the
// 8-bit sub-texel precision filtering hardware uses, so the host reproduces each sample exactly.
struct Params {
  iterations: u32,  // loop trips: the work knob
  threads: u32,     // invocations that compute (the grid is rounded up to whole workgroups)
  width: u32,       // texels in the row, a power of two
  seed: u32,
  inv: f32,         // 1 / (4 width), from the host (a shader division may be off by an ulp)
  pad0: u32,
  pad1: u32,
  pad2: u32,
}
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> p: Params;
@group(0) @binding(2) var tex: texture_2d<f32>;

fn hash32(x0: u32) -> u32 {
  var x = x0;
  x = x ^ (x >> 16u); x = x * 0x7feb352du;
  x = x ^ (x >> 15u); x = x * 0x846ca68bu;
  x = x ^ (x >> 16u);
  return x;
}
// Sample q of the scan (q counts quarter texels, wrapped to the row) as a normalized coordinate:
// texel centres sit at (i + 0.5) / width, so q / 4 - 0.5 texels in is u = (q + 2) / (4 width),
// exact in f32 (width is a power of two).
fn coordinate(q: u32, mask: u32) -> f32 { return f32(q & mask) * p.inv + 2.0 * p.inv; }
