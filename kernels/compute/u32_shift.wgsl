// u32-shift: eight independent chains of variable-amount shifts, four left and four right. The
// amount cycles through all 32 values over the 32 steps of a loop trip ((ib + n + s) & 31, shared
// by the eight chains of a step; the trip number n rotates the cycle so consecutive trips differ),
// and each shift is followed by an XOR with a per-chain operand so the value keeps bits (a shift
// chain alone drains to zero). 256 shifts per trip.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
//#repeat k 8
  var x$k = bits(t, $ku);
  let c$k = bits(t, 8u + $ku);
//#end
  for (var n = 0u; n < p.iterations; n++) {
    let base = p.ib + n;
//#repeat s 32
    {
      let a = (base + $su) & 31u;
      x0 = (x0 << a) ^ c0; x1 = (x1 << a) ^ c1; x2 = (x2 << a) ^ c2; x3 = (x3 << a) ^ c3;
      x4 = (x4 >> a) ^ c4; x5 = (x5 >> a) ^ c5; x6 = (x6 >> a) ^ c6; x7 = (x7 >> a) ^ c7;
    }
//#end
  }
  out[t] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
