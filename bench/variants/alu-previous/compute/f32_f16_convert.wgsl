// The previous form of this kernel (a loop trip unrolled whole), kept to time it beside the shipped
// one on a GPU (bench/h200_alu.sh); it computes the same and validates like it.
// f32-f16-convert: eight independent chains x = f32(f16(x)) * m + c per invocation, 32 steps each
// per loop trip: an f32 -> f16 and an f16 -> f32 conversion per step (the multiply-add between
// them keeps the round trip from being an identity; m = 0.5 makes it contract towards 2c, which c
// keeps off the f16 grid, so the rounding shows in the result). Compilers fold f32(f16(x)) into x
// when nothing separates the two (Mesa's NIR does, and the H200 ran such a kernel at FMA speed), so
// the f16 bits of each pair of chains pass through an XOR with a uniform that is 0 at run time
// (p.pad1), which no compiler can see through. The chain settles within a trip, so c moves every
// trip: cn = c + trip_frac(n).
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
//#repeat s 32
//#repeat k 4
    {
      let h = bitcast<vec2<f16>>(bitcast<u32>(vec2<f16>(f16(x$k), f16(y$k))) ^ key);
      x$k = f32(h.x) * m + cn;
      y$k = f32(h.y) * m + cn;
    }
//#end
//#end
  }
  out[t] = bitcast<u32>(x0 + x1 + x2 + x3 + y0 + y1 + y2 + y3);
}
