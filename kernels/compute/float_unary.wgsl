// f32-/f16- div, sqrt, rsqrt, log, pow, sincos: eight independent chains x = op(x) per invocation,
// 32 steps each per loop trip. Each map contracts towards a fixed point (|derivative| < 1 there),
// so values stay finite and rounding errors do not accumulate at any loop count; m, c and e come
// from the uniform block. A contraction forgets where it started within a trip, so every map also
// takes the per-trip operand d = w * trip_frac(n) in [0, w) (w = p.f.w: 1, or 0.25 for sincos, whose
// map stops contracting above x = pi/2), directly or as cn = c + d: each trip moves the fixed point,
// and the stored value depends on the trip count.
//
// The 32 steps of a trip run as GROUPS passes of GROUP_LEN: eight of four in f32, 32 of one in f16.
// These operations are dozens of instructions each on a CPU driver (lavapipe expands the f16 ones
// lane by lane, with conversions around every step), and a trip unrolled whole (256 of them) no
// longer fits the instruction cache: f16-sincos ran 2.1x and f32-sincos 1.1x slower there than in
// passes of four, the others alike, and f16-sincos in passes of four still ran 0.88-0.92 of the
// plain fixture kernel, in passes of one as fast as it (results/alu-lavapipe-2026-12-03.md). On
// GPUs they are bound by the special-function units, which the pass loop's own instructions do not
// use.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = T(p.f.x);
  let c = T(p.f.y);
  let e = T(p.f.z);
//#repeat k 8
  var x$k = T(start(t, $ku));
//#end
  for (var n = 0u; n < p.iterations; n++) {
    let d = T(p.f.w * trip_frac(n));
    let cn = c + d;
    for (var g = 0u; g < $GROUPSu; g++) {
//#repeat s $GROUP_LEN
//#repeat k 8
      x$k = $OP;
//#end
//#end
    }
  }
  out[t] = bitcast<u32>(f32(x0) + f32(x1) + f32(x2) + f32(x3) + f32(x4) + f32(x5) + f32(x6) + f32(x7));
}
