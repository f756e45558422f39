// The previous form of this kernel (a loop trip unrolled whole), kept to time it beside the shipped
// one on a GPU (bench/h200_alu.sh); it computes the same and validates like it.
// i32-div: eight independent i32 chains x = a / x + bn per invocation, 32 steps each per loop trip.
// The loop-carried value is the divisor, so no reciprocal of a loop-invariant can be hoisted and the
// division cannot be strength-reduced. a = ia >> 12 (152,671) from the uniform block; bn = 5 plus
// the top byte of trip_word(n) (5..260) moves every trip, so the stored result depends on the trip
// count. Every x stays in [5, a / 5 + 260] after the first step: never zero, never negative, no
// overflow, so WGSL's division (truncating; Dawn guards x == 0 and INT_MIN / -1) is plain division.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let a = i32(p.ia >> 12u);
//#repeat k 8
  var x$k = i32(bits(t, $ku) >> 17u) + 1;
//#end
  for (var n = 0u; n < p.iterations; n++) {
    let bn = 5 + i32(trip_word(n) >> 24u);
//#repeat s 32
//#repeat k 8
    x$k = a / x$k + bn;
//#end
//#end
  }
  out[t] = bitcast<u32>(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7);
}
