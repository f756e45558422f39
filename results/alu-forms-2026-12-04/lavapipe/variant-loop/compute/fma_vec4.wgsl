// f32-fma-vec4 / f16-fma-vec4: $CHAINS independent vec4 FMA chains per invocation, $STEPS steps each
// per loop trip (the work knob `iterations`): 64 vec4 FMAs = 256 scalar FMAs per trip either way.
// The loop runs $PASS_TRIPS trips per pass ($PASS_STEPS steps of every chain straight-line), then
// single trips for the remainder. Every lane does $STEPS x iterations FMAs in the same order however
// the trips are split, so results and validation do not depend on the split.
//
// f32: two chains, four trips per pass. Dawn's robustness guards every pass of a loop, and on an
// H200 four trips per pass ran at 65.8-66.1 TFLOP/s against one trip's 63.3-63.8 (CUDA: 66.1). Two
// chains and two operand values, not more: Mesa's lavapipe compiles a straight-line body whose live
// vectors (chains plus operands) exceed its registers one chain after another, which makes it bound
// by the FMA latency (four chains with four operand values ran at 0.41 of the plain fixture kernel
// there; two run as fast as it; results/alu-lavapipe-2026-12-03.md).
// f16: four chains, in two forms (the probe's substitutions; the row's kernel_form says which ran).
// NVIDIA's packed f16 FMAs need eight independent half2 chains per invocation: with two vec4 chains
// an H200 ran 108 TFLOP/s, with four 122 at one trip per pass and 130 at four (CUDA: 131.4); with c
// built from a and b, as f32 does, 66.7 in every form (probably c made from m by a swizzle). So on
// GPUs: four trips per pass, c read from the uniform's other two components. lavapipe computes f16
// in f32 between two conversions, and ran that form at 0.36 of the plain fixture kernel (two trips
// 0.62, one trip 0.95-0.96, one trip with c built from a and b as the fixture has it 0.94-1.00). So
// on CPU adapters: one trip per pass, c built from a and b (results/alu-f16-2026-12-03.md).
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
  let passes = p.iterations / $PASS_TRIPSu;
  for (var n = 0u; n < passes; n++) {
    for (var g = 0u; g < 16u; g++) {
//#repeat k $CHAINS
    x$k = fma(x$k, m, c);
//#end
    }
  }
  for (var n = passes * $PASS_TRIPSu; n < p.iterations; n++) {
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
