// f32-fma-vec4 / f16-fma-vec4: four independent vec4 FMA chains (16 independent lanes) per
// invocation, 16 steps each per loop trip: 64 vec4 FMAs = 256 scalar FMAs per trip. Four chains,
// not eight, so a vec4<f32> probe stays within 32 registers (full occupancy on NVIDIA).
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  // The host sets f.z == f.x and f.w == f.y, but the compiler cannot know it: each operand is a
  // vector of two distinct uniform values rather than one broadcast scalar. For vec4<f16> that
  // makes every packed half2 operand a genuine pair; a broadcast (.H0_H0) operand kept NVIDIA's
  // f16 chains on the FMA pipe alone (half the f16 rate, measured on an H200).
  let m = vec4<T>(T(p.f.x), T(p.f.z), T(p.f.x), T(p.f.z));
  let c = vec4<T>(T(p.f.y), T(p.f.w), T(p.f.y), T(p.f.w));
//#repeat k 4
  var x$k = vec4<T>(T(start(t, 4u * $ku)), T(start(t, 4u * $ku + 1u)), T(start(t, 4u * $ku + 2u)), T(start(t, 4u * $ku + 3u)));
//#end
  for (var n = 0u; n < p.iterations; n++) {
//#repeat s 16
//#repeat k 4
    x$k = fma(x$k, m, c);
//#end
//#end
  }
  let v = vec4<f32>(x0) + vec4<f32>(x1) + vec4<f32>(x2) + vec4<f32>(x3);
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
