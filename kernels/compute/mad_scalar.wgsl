// i32-mad-scalar: eight independent i32 multiply-add chains x = x * m + c (wrapping) per
// invocation, 32 steps each per loop trip (256 MADs per trip). m is odd, so the chains never
// collapse to zero; m and c come from the uniform block.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = bitcast<i32>(p.ia);
  let c = bitcast<i32>(p.ib);
//#repeat k 8
  var x$k = bitcast<i32>(bits(t, $ku));
//#end
  for (var n = 0u; n < p.iterations; n++) {
//#repeat s 32
//#repeat k 8
    x$k = x$k * m + c;
//#end
//#end
  }
  out[t] = bitcast<u32>(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7);
}
