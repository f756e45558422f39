// u32-countonebits / -reversebits / -firstleadingbit: eight independent chains x = op(x) per
// invocation, 32 steps each per loop trip. The add of a per-chain operand after each bit operation
// keeps reverseBits from cancelling itself and the counting operations' chains from collapsing to
// one value for every invocation. The counting chains settle within a trip (x stays near the
// operand), so the operand changes every trip: cn = c + trip_word(n) (eight adds per trip).
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
//#repeat k 8
  var x$k = bits(t, $ku);
  let c$k = bits(t, 8u + $ku);
//#end
  for (var n = 0u; n < p.iterations; n++) {
    let w = trip_word(n);
//#repeat k 8
    let cn$k = c$k + w;
//#end
//#repeat s 32
//#repeat k 8
    x$k = $OP;
//#end
//#end
  }
  out[t] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
