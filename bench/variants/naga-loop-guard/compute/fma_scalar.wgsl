// The shipped kernel with the loop guard naga (wgpu) adds to every loop written out in WGSL:
// a vec2<u32> countdown from 2^64 - 1, tested and decremented at the top of every iteration
// (naga back/spv, force_loop_bounding), so that Dawn runs what wgpu hands the driver.
// f32-fma-scalar / f32-fma-builtin / f16-fma-scalar: eight independent scalar FMA chains per
// invocation, 32 steps each per loop trip (the work knob `iterations`): 256 FMAs per trip. The step
// (the STEP substitution) is `x * m + c` for f32-fma-scalar, the multiply-add that WGSL lets a
// compiler contract into one FMA, and `fma(x, m, c)` for f32-fma-builtin and f16-fma-scalar, the
// fused operation asked for by name. The loop runs PASS_TRIPS trips per pass (PASS_LEN steps of the
// eight chains), then single trips for the remainder, because Dawn's robustness guards every pass
// of a loop and a short body would measure the guard (see fma_vec4.wgsl): four trips (1024 FMAs)
// for f32, one (256) for f16. A CPU driver without f16 arithmetic (lavapipe) rounds every f16 step
// with two conversions, and there a body of 1024 of them ran 0.83-0.89 of the plain fixture kernel,
// 512 0.95-0.99, 256 as fast as it (results/alu-lavapipe-2026-12-03.md). Every chain does 32 x iterations FMAs in
// the same order either way. m < 1, so every chain contracts towards c / (1 - m) and stays finite
// at any loop count.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = T(p.f.x);
  let c = T(p.f.y);
//#repeat k 8
  var x$k = T(start(t, $ku));
//#end
  let passes = p.iterations / $PASS_TRIPSu;
  var lg0 = vec2<u32>(4294967295u, 4294967295u);
  for (var n = 0u; n < passes; n++) {
    if (all(lg0 == vec2<u32>(0u))) { break; }
    lg0 = lg0 - vec2<u32>(select(0u, 1u, lg0.y == 0u), 1u);
//#repeat s $PASS_LEN
//#repeat k 8
    x$k = $STEP;
//#end
//#end
  }
  var lg1 = vec2<u32>(4294967295u, 4294967295u);
  for (var n = passes * $PASS_TRIPSu; n < p.iterations; n++) {
    if (all(lg1 == vec2<u32>(0u))) { break; }
    lg1 = lg1 - vec2<u32>(select(0u, 1u, lg1.y == 0u), 1u);
//#repeat s 32
//#repeat k 8
    x$k = $STEP;
//#end
//#end
  }
  out[t] = bitcast<u32>(f32(x0) + f32(x1) + f32(x2) + f32(x3) + f32(x4) + f32(x5) + f32(x6) + f32(x7));
}
