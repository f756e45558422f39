// VARIANT (bench/variants/f16-vec2, for --kernel-dir): f32-fma-vec4 / f16-fma-vec4 with each vec4
// chain split into two vec2 chains (a = lanes 0-1, b = lanes 2-3). Every lane does the same FMAs on
// the same values in the same order as the shipped kernel, so results and validation are unchanged;
// only the vector width the driver sees differs (for f16: one half2 per SPIR-V FMA).
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = vec2<T>(T(p.f.x), T(p.f.z));
  let c = vec2<T>(T(p.f.y), T(p.f.w));
//#repeat k 4
  var a$k = vec2<T>(T(start(t, 4u * $ku)), T(start(t, 4u * $ku + 1u)));
  var b$k = vec2<T>(T(start(t, 4u * $ku + 2u)), T(start(t, 4u * $ku + 3u)));
//#end
  for (var n = 0u; n < p.iterations; n++) {
//#repeat s 16
//#repeat k 4
    a$k = fma(a$k, m, c);
    b$k = fma(b$k, m, c);
//#end
//#end
  }
  let v = vec4<f32>(vec4<T>(a0, b0)) + vec4<f32>(vec4<T>(a1, b1)) + vec4<f32>(vec4<T>(a2, b2)) +
          vec4<f32>(vec4<T>(a3, b3));
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
