// i32-f32-convert: eight independent chains x = i32(f32(x) * h + c) per invocation, 32 steps each
// per loop trip: an i32 -> f32 and an f32 -> i32 conversion per step (the multiply-add between
// them keeps the round trip from being an identity). h = 0.5 and c is a small per-chain integer
// (1000 + 0..1023) plus the per-trip 0..255 (trip_word's top byte: the chain settles at 2c within a
// trip, so c moves every trip), so every intermediate is exact in f32 (below 2^13) and the host
// reproduces the result bit for bit.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let h = p.f.x;
//#repeat k 8
  var x$k = i32(bits(t, $ku) >> 20u);
  let c$k = p.f.y + f32(bits(t, 8u + $ku) >> 22u);
//#end
  for (var n = 0u; n < p.iterations; n++) {
    let dn = f32(trip_word(n) >> 24u);
//#repeat k 8
    let cn$k = c$k + dn;
//#end
//#repeat s 32
//#repeat k 8
    x$k = i32(f32(x$k) * h + cn$k);
//#end
//#end
  }
  out[t] = bitcast<u32>(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7);
}
