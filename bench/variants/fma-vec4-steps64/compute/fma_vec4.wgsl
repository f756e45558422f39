// VARIANT (bench/variants/fma-vec4-steps64, for --kernel-dir): f32-fma-vec4 / f16-fma-vec4 with a loop
// body four times as long (64 steps per chain per trip instead of 16: 256 vec4 FMAs, 512 half2 FMAs
// for f16), so Dawn's loop guard and the trip-count test are amortised over four times the work.
// Trips of 64 steps run iterations / 4 times, then trips of 16 steps for the remainder: every lane
// does exactly the shipped kernel's 16 x iterations FMAs in the same order, so results and
// validation are unchanged.
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = vec4<T>(T(p.f.x), T(p.f.z), T(p.f.x), T(p.f.z));
  let c = vec4<T>(T(p.f.y), T(p.f.w), T(p.f.y), T(p.f.w));
//#repeat k 4
  var x$k = vec4<T>(T(start(t, 4u * $ku)), T(start(t, 4u * $ku + 1u)), T(start(t, 4u * $ku + 2u)), T(start(t, 4u * $ku + 3u)));
//#end
  let long_trips = p.iterations / 4u;
  for (var n = 0u; n < long_trips; n++) {
//#repeat s 64
//#repeat k 4
    x$k = fma(x$k, m, c);
//#end
//#end
  }
  for (var n = long_trips * 4u; n < p.iterations; n++) {
//#repeat s 16
//#repeat k 4
    x$k = fma(x$k, m, c);
//#end
//#end
  }
  let v = vec4<f32>(x0) + vec4<f32>(x1) + vec4<f32>(x2) + vec4<f32>(x3);
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
