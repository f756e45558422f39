// i8-dp4a / u8-dp4a: eight independent accumulator chains x = x + $DOT(a, x) per invocation, where
// a is a per-invocation packed 4x8-bit operand and the accumulator's own bytes are the other
// operand, so no dot product is loop-invariant (a hoisted dot would leave only adds). 32 steps per
// chain per loop trip = 256 dot products per trip. The accumulators wrap.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
//#repeat k 8
  let a$k = bits(t, 8u + $ku);
  var x$k = bitcast<$ACC>(bits(t, $ku));
//#end
  for (var n = 0u; n < p.iterations; n++) {
//#repeat s 128
    x0 = x0 + $DOT(bitcast<u32>(x0), bitcast<u32>(x1));
    x1 = x1 + $DOT(bitcast<u32>(x1), bitcast<u32>(x2));
    x2 = x2 + $DOT(bitcast<u32>(x2), bitcast<u32>(x3));
    x3 = x3 + $DOT(bitcast<u32>(x3), bitcast<u32>(x4));
    x4 = x4 + $DOT(bitcast<u32>(x4), bitcast<u32>(x5));
    x5 = x5 + $DOT(bitcast<u32>(x5), bitcast<u32>(x6));
    x6 = x6 + $DOT(bitcast<u32>(x6), bitcast<u32>(x7));
    x7 = x7 + $DOT(bitcast<u32>(x7), bitcast<u32>(x0));
//#end
  }
  out[t] = bitcast<u32>(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7);
}
