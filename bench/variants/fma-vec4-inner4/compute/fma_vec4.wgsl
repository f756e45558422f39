// f32-fma-vec4 / f16-fma-vec4: two independent vec4 FMA chains (8 independent lanes) per invocation,
// 32 steps each per loop trip (the work knob `iterations`): 64 vec4 FMAs = 256 scalar FMAs per trip.
// The loop runs four trips per pass (256 vec4 FMAs straight-line), then single trips for the
// remainder: Dawn's robustness guards every pass of a loop, and on an H200 one trip per pass gave
// 63.3 (f32) and 122 (f16) TFLOP/s, four trips per pass 65.8 and 130, against CUDA's 66.1 and 131.4
// (results/h200-2026-11-30.md). Every lane does 32 x iterations FMAs in the same order either
// way, so results and validation do not depend on the split.
//
// Two chains and two operand values, not more: Mesa's lavapipe compiles a straight-line body whose
// live vectors (chains plus operands) exceed ten one chain after another, which makes it bound by
// the FMA latency. Four chains with four operand values ran at 0.41 of the plain fixture kernel
// there; these eight lanes on two values run as fast as it in f32 (results/alu-lavapipe-2026-12-03.md).
// In f16, which lavapipe computes in f32 between two conversions, the four-trip body is long enough
// to run at 0.92-0.96 of the fixture there (two trips per pass: 0.98). It stays for the H200's sake;
// bench/h200_alu.sh times the two-trip form on it.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  // m = (a, b, a, b) and c = (b, a, b, a) from the uniform block: even lanes step x' = a x + b, odd
  // lanes x' = b x + a. Each operand is a vector of two distinct values, never one broadcast scalar:
  // for vec4<f16> that makes every packed half2 operand a genuine pair (a broadcast .H0_H0 operand
  // kept NVIDIA's f16 chains on the FMA pipe alone, half the f16 rate, measured on an H200), and the
  // two vectors hold the same two values, so a CPU driver keeps two registers for them.
  let a = T(p.f.x);
  let b = T(p.f.y);
  let m = vec4<T>(a, b, a, b);
  // The probe substitutes c's expression: f32 builds c from a and b; f16 reads it from the
  // uniform's other two components (equal to b, a at run time): with c built from a and b, NVIDIA's
  // compiler ran the f16 chains at half rate (H200: 66.7 TFLOP/s, 108 with c apart; probably c made
  // from m by a swizzle; results/alu-h200-2026-12-03.md).
  let c = $CVEC;
//#repeat k $CHAINS
  var x$k = vec4<T>(T(start(t, 4u * $ku)), T(start(t, 4u * $ku + 1u)), T(start(t, 4u * $ku + 2u)), T(start(t, 4u * $ku + 3u)));
//#end
  let passes = p.iterations / 4u;
  for (var n = 0u; n < passes; n++) {
    for (var r = 0u; r < 4u; r++) {
//#repeat s $STEPS
//#repeat k $CHAINS
      x$k = fma(x$k, m, c);
//#end
//#end
    }
  }
  for (var n = passes * 4u; n < p.iterations; n++) {
//#repeat s $STEPS
//#repeat k $CHAINS
    x$k = fma(x$k, m, c);
//#end
//#end
  }
  var v = vec4<f32>(0.0);
//#repeat k $CHAINS
  v += vec4<f32>(x$k);
//#end
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
