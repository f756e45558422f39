// f32-f16-convert: eight independent chains x = f32(f16(x)) * m + c per invocation, 32 steps each
// per loop trip: an f32 -> f16 and an f16 -> f32 conversion per step (the multiply-add between
// them keeps the round trip from being an identity; m = 0.5 makes it contract towards 2c, which c
// keeps off the f16 grid, so the rounding shows in the result). Compilers fold f32(f16(x)) into x
// when nothing separates the two (Mesa's NIR does, and the H200 ran such a kernel at FMA speed), so
// the f16 bits of each pair of chains pass through an XOR with a uniform that is 0 at run time
// (p.pad1), which no compiler can see through. The chain settles within a trip, so c moves every
// trip: cn = c + trip_frac(n). The 32 steps of a trip run as GROUPS passes of GROUP_LEN: on GPUs one
// pass of 32 (an H200 ran the whole trip straight-line at 20.3 TOP/s, passes of one at 18.9), on CPU
// adapters 32 of one: lavapipe expands the conversions with per-lane branches, and a trip unrolled
// whole ran 1.4x slower there than the plain fixture kernel, passes of two 1.1x (float_unary.wgsl
// says why; results/alu-lavapipe-2026-12-03.md).
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = p.f.x;
  let c = p.f.y;
  let key = p.pad1;
//#repeat k 4
  var x$k = start(t, $ku);
  var y$k = start(t, $ku + 4u);
//#end
  for (var n = 0u; n < p.iterations; n++) {
    let cn = c + p.f.w * trip_frac(n);  // p.f.w = 1
    for (var g = 0u; g < $GROUPSu; g++) {
//#repeat s $GROUP_LEN
//#repeat k 4
      {
        let h = bitcast<vec2<f16>>(bitcast<u32>(vec2<f16>(f16(x$k), f16(y$k))) ^ key);
        x$k = f32(h.x) * m + cn;
        y$k = f32(h.y) * m + cn;
      }
//#end
//#end
    }
  }
  out[t] = bitcast<u32>(x0 + x1 + x2 + x3 + y0 + y1 + y2 + y3);
}
