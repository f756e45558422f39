// i8-dp4a-matvec: a register-resident 4x16 int8 matrix W per invocation (four rows of four packed
// words) times a 16-element int8 vector x (four packed words); each output row is c + four
// dot4I8Packed products, and the four i32 outputs, reinterpreted as 16 packed bytes, are the next
// input (x' = W x + c). One update is 16 dot products with accumulate; 16 updates per loop trip =
// 256 per trip.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
//#repeat r 4
  let w$r = vec4<u32>(bits(t, 8u + 4u * $ru), bits(t, 9u + 4u * $ru), bits(t, 10u + 4u * $ru), bits(t, 11u + 4u * $ru));
//#end
  let c = bitcast<vec4<i32>>(p.IC[0]);
  var x = vec4<u32>(bits(t, 0u), bits(t, 1u), bits(t, 2u), bits(t, 3u));
  for (var n = 0u; n < p.iterations; n++) {
//#repeat s 16
    x = bitcast<vec4<u32>>(vec4<i32>(
        c.x + dot4I8Packed(w0.x, x.x) + dot4I8Packed(w0.y, x.y) + dot4I8Packed(w0.z, x.z) + dot4I8Packed(w0.w, x.w),
        c.y + dot4I8Packed(w1.x, x.x) + dot4I8Packed(w1.y, x.y) + dot4I8Packed(w1.z, x.z) + dot4I8Packed(w1.w, x.w),
        c.z + dot4I8Packed(w2.x, x.x) + dot4I8Packed(w2.y, x.y) + dot4I8Packed(w2.z, x.z) + dot4I8Packed(w2.w, x.w),
        c.w + dot4I8Packed(w3.x, x.x) + dot4I8Packed(w3.y, x.y) + dot4I8Packed(w3.z, x.z) + dot4I8Packed(w3.w, x.w)));
//#end
  }
  out[t] = x.x + x.y + x.z + x.w;
}
