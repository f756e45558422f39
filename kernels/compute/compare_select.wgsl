// f32-select / f32-clamp / f32-minmax: eight independent f32 chains x = op(x) per invocation, 32 steps
// each per loop trip: a bounded walk whose direction is a run-time compare (select), or a
// multiply-add bounded to [0, 1] by clamp() or by a minimum and a maximum. As in float_unary.wgsl
// every map takes the per-trip operand (cn = c + d, d = w * trip_frac(n)), so the stored value
// depends on the trip count.
//
// The steps of a trip run under `if (p.pad2 == 0u)`, a uniform word that is 0 at run time. Written
// straight after the per-trip operand, lavapipe (Mesa 25, LLVM 15) compiled the 256 steps of clamp
// and min/max one chain after another, bound by the latency of a step (multiply, add, minimum,
// maximum); under the branch they come out interleaved and ran 2.4x faster
// (results/alu-lavapipe-2026-12-03.md). The condition is loop-invariant: lavapipe hoists the
// branch out of the loop, and a compiler that keeps it pays one uniform branch per 256 steps.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = p.f.x;
  let c = p.f.y;
//#repeat k 8
  var x$k = start(t, $ku);
//#end
  for (var n = 0u; n < p.iterations; n++) {
    let cn = c + p.f.w * trip_frac(n);
    if (p.pad2 == 0u) {
//#repeat s 32
//#repeat k 8
      x$k = $OP;
//#end
//#end
    }
  }
  out[t] = bitcast<u32>(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7);
}
