// The previous form of this kernel (four trips per pass for f16 too), kept to time it beside the
// shipped one on a GPU (bench/h200_alu.sh); it computes the same and validates like it.
// f32-fma-scalar / f32-fma-builtin / f16-fma-scalar: eight independent scalar FMA chains per
// invocation, 32 steps each per loop trip (the work knob `iterations`): 256 FMAs per trip. The step
// (the STEP substitution) is `x * m + c` for f32-fma-scalar, the multiply-add that WGSL lets a
// compiler contract into one FMA, and `fma(x, m, c)` for f32-fma-builtin and f16-fma-scalar, the
// fused operation asked for by name. The loop runs four trips per pass (1024 FMAs), then single
// trips for the remainder, because Dawn's robustness guards every pass of a loop and a short body
// would measure the guard (see fma_vec4.wgsl). Every chain does 32 x iterations FMAs in the same
// order either way. m < 1, so every chain contracts towards c / (1 - m) and stays finite at any
// loop count.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = T(p.f.x);
  let c = T(p.f.y);
//#repeat k 8
  var x$k = T(start(t, $ku));
//#end
  let passes = p.iterations / 4u;
  for (var n = 0u; n < passes; n++) {
//#repeat s 128
//#repeat k 8
    x$k = $STEP;
//#end
//#end
  }
  for (var n = passes * 4u; n < p.iterations; n++) {
//#repeat s 32
//#repeat k 8
    x$k = $STEP;
//#end
//#end
  }
  out[t] = bitcast<u32>(f32(x0) + f32(x1) + f32(x2) + f32(x3) + f32(x4) + f32(x5) + f32(x6) + f32(x7));
}
