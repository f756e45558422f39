// Plain fixture of f32-fma-vec4 and f16-fma-vec4: two vec4 chains with the probe's operand vectors,
// 32 steps per loop trip, two plain loops.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = vec4<T>(T(p.f.x), T(p.f.y), T(p.f.x), T(p.f.y));
  let c = vec4<T>(T(p.f.y), T(p.f.x), T(p.f.y), T(p.f.x));
//#repeat k $CHAINS
  var x$k = vec4<T>(T(start(t, 4u * $ku)), T(start(t, 4u * $ku + 1u)), T(start(t, 4u * $ku + 2u)), T(start(t, 4u * $ku + 3u)));
//#end
  for (var n = 0u; n < p.iterations; n++) {
    for (var s = 0u; s < $STEPSu; s++) {
//#repeat k $CHAINS
      x$k = fma(x$k, m, c);
//#end
    }
  }
  var v = vec4<f32>(0.0);
//#repeat k $CHAINS
  v += vec4<f32>(x$k);
//#end
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
