// The previous form of this kernel (four vec4 chains), kept to time it beside the shipped one on a
// GPU (bench/h200_alu.sh). It computes other lanes than the shipped kernel, so its rows fail
// validation by design: only their rates are read.
// f32-fma-vec4 / f16-fma-vec4: four independent vec4 FMA chains (16 independent lanes) per
// invocation, 16 steps each per loop trip (the work knob `iterations`): 64 vec4 FMAs = 256 scalar
// FMAs per trip. Four chains, not eight, so a vec4<f32> probe stays within 32 registers (full
// occupancy on NVIDIA). The loop runs four trips per pass (256 vec4 FMAs), then single trips for the
// remainder: Dawn's robustness guards every pass of a loop, and on an H200 one trip per pass gave
// 63.3 (f32) and 122 (f16) TFLOP/s, four trips per pass 65.8 and 130, against CUDA's 66.1 and 131.4
// (docs/results/h200-2026-11-30.md). Every lane does 16 x iterations FMAs in the same order either
// way, so results and validation do not depend on the split.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  // The host sets f.z == f.x and f.w == f.y, but the compiler cannot know it: each operand is a
  // vector of two distinct uniform values rather than one broadcast scalar. For vec4<f16> that
  // makes every packed half2 operand a genuine pair; a broadcast (.H0_H0) operand kept NVIDIA's
  // f16 chains on the FMA pipe alone (half the f16 rate, measured on an H200).
  let m = vec4<T>(T(p.f.x), T(p.f.z), T(p.f.x), T(p.f.z));
  let c = vec4<T>(T(p.f.y), T(p.f.w), T(p.f.y), T(p.f.w));
//#repeat k 4
  var x$k = vec4<T>(T(start(t, 4u * $ku)), T(start(t, 4u * $ku + 1u)), T(start(t, 4u * $ku + 2u)), T(start(t, 4u * $ku + 3u)));
//#end
  let passes = p.iterations / 4u;
  for (var n = 0u; n < passes; n++) {
//#repeat s 64
//#repeat k 4
    x$k = fma(x$k, m, c);
//#end
//#end
  }
  for (var n = passes * 4u; n < p.iterations; n++) {
//#repeat s 16
//#repeat k 4
    x$k = fma(x$k, m, c);
//#end
//#end
  }
  let v = vec4<f32>(x0) + vec4<f32>(x1) + vec4<f32>(x2) + vec4<f32>(x3);
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
