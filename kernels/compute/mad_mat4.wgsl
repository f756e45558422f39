// i32-mad-mat4: the mat4 probe in wrapping i32 arithmetic (WGSL has no integer matrices, so the
// columns are vec4<i32>): S' = M S + C with M and C from the uniform block; one update is 64 MADs,
// four updates per loop trip = 256 MADs.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
//#repeat k 4
  let M$k = bitcast<vec4<i32>>(p.IM[$k]);
  let C$k = bitcast<vec4<i32>>(p.IC[$k]);
//#end
//#repeat j 4
  var s$j = bitcast<vec4<i32>>(vec4<u32>(bits(t, 4u * $ju), bits(t, 4u * $ju + 1u), bits(t, 4u * $ju + 2u), bits(t, 4u * $ju + 3u)));
//#end
  for (var n = 0u; n < p.iterations; n++) {
//#repeat r 4
//#repeat j 4
    s$j = C$j + M3 * vec4<i32>(s$j.w) + M2 * vec4<i32>(s$j.z) + M1 * vec4<i32>(s$j.y) + M0 * vec4<i32>(s$j.x);
//#end
//#end
  }
  let v = s0 + s1 + s2 + s3;
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
