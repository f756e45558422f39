// i32-mad-matvec: a register-resident 4x4 i32 matrix A per invocation (hashed) applied to two
// independent vectors, x' = A x + c (wrapping): 32 MADs per update, eight updates per loop trip =
// 256 MADs.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let c = vec4<i32>(bitcast<i32>(p.ib));
//#repeat k 4
  let a$k = bitcast<vec4<i32>>(vec4<u32>(bits(t, 16u + 4u * $ku), bits(t, 17u + 4u * $ku), bits(t, 18u + 4u * $ku), bits(t, 19u + 4u * $ku)));
//#end
  var x = bitcast<vec4<i32>>(vec4<u32>(bits(t, 0u), bits(t, 1u), bits(t, 2u), bits(t, 3u)));
  var y = bitcast<vec4<i32>>(vec4<u32>(bits(t, 4u), bits(t, 5u), bits(t, 6u), bits(t, 7u)));
  for (var n = 0u; n < p.iterations; n++) {
//#repeat s 8
    x = c + a3 * vec4<i32>(x.w) + a2 * vec4<i32>(x.z) + a1 * vec4<i32>(x.y) + a0 * vec4<i32>(x.x);
    y = c + a3 * vec4<i32>(y.w) + a2 * vec4<i32>(y.z) + a1 * vec4<i32>(y.y) + a0 * vec4<i32>(y.x);
//#end
  }
  let v = x + y;
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
