// Variant: 160 steps per loop trip instead of 128 (fails validation by design: the host reference walks 128; read the timed rate x 160/128).
// i8-dp4a / u8-dp4a: eight accumulator chains per invocation, x_k = x_k + $DOT(x_k, x_(k+1 mod 8)),
// k = 0..7 in order (x_7 reads x_0 as just updated), 128 steps per loop trip = 1,024 dot products
// per trip. Both operands of every dot change every step, so no dot product is loop-invariant and
// nothing folds. On an H200 (docs/results/h200-2026-12-01-gaps.md) this form runs at 0.965 of
// CUDA's __dp4a(x, m, x): one loop-invariant operand (x + dot(a, x)) gave 0.83, both operands
// varying 0.89 with 32 steps per trip, 0.94 with 64 and 0.965 with 128 (the loop's robustness
// guard and the separate add SPIR-V needs after each dot are amortised over a longer body).
// The accumulators wrap.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
//#repeat k 8
  var x$k = bitcast<$ACC>(bits(t, $ku));
//#end
  for (var n = 0u; n < p.iterations; n++) {
//#repeat s 160
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
