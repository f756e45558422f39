// u32-shift: eight independent chains of variable-amount shifts, four left and four right; the
// amount cycles through all 32 values over the 32 steps of a loop trip ((ib + s) & 31, shared by
// the eight chains of a step), and each shift is followed by an XOR with a uniform so the value
// keeps its bits. 256 shifts per trip.
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let c = p.ia;
//#repeat k 8
  var x$k = bits(t, $ku);
//#end
  for (var n = 0u; n < p.iterations; n++) {
//#repeat s 32
    {
      let a = (p.ib + $su) & 31u;
      x0 = (x0 << a) ^ c; x1 = (x1 << a) ^ c; x2 = (x2 << a) ^ c; x3 = (x3 << a) ^ c;
      x4 = (x4 >> a) ^ c; x5 = (x5 >> a) ^ c; x6 = (x6 >> a) ^ c; x7 = (x7 >> a) ^ c;
    }
//#end
  }
  out[t] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
