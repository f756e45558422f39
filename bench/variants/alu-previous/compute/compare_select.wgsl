// The previous form of f32-select, f32-clamp and f32-minmax (kernels/compute/compare_select.wgsl
// without the branch around the steps), kept to time it beside the shipped one on a GPU
// (bench/h200_alu.sh); it computes the same and validates like it.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = p.f.x;
  let c = p.f.y;
//#repeat k 8
  var x$k = start(t, $ku);
//#end
  for (var n = 0u; n < p.iterations; n++) {
    let cn = c + p.f.w * trip_frac(n);
//#repeat s 32
//#repeat k 8
    x$k = $OP;
//#end
//#end
  }
  out[t] = bitcast<u32>(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7);
}
