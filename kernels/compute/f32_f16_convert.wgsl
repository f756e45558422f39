// f32-f16-convert: eight independent chains x = f32(f16(x)) * m + c per invocation, 32 steps each
// per loop trip: an f32 -> f16 and an f16 -> f32 conversion per step (the multiply-add between
// them keeps the round trip from being an identity; m = 0.5 makes it contract towards 2c). The
// chain settles within a trip, so c moves every trip: cn = c + trip_frac(n) in [1, 2).
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
    let cn = c + p.f.w * trip_frac(n);  // p.f.w = 1
//#repeat s 32
//#repeat k 8
    x$k = f32(f16(x$k)) * m + cn;
//#end
//#end
  }
  out[t] = bitcast<u32>(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7);
}
