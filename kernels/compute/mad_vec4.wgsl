// i32-mad-vec4: two independent vec4<i32> multiply-add chains (8 lanes) per invocation, 32 steps
// each per loop trip: 64 vec4 MADs = 256 scalar MADs per trip. Two chains, not more: as for
// fma_vec4.wgsl, a CPU driver (lavapipe) runs more live chains one after another and becomes bound
// by the multiply's latency (four chains ran 1.7x slower there than these two).
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = vec4<i32>(bitcast<i32>(p.ia));
  let c = vec4<i32>(bitcast<i32>(p.ib));
//#repeat k 2
  var x$k = bitcast<vec4<i32>>(vec4<u32>(bits(t, 4u * $ku), bits(t, 4u * $ku + 1u), bits(t, 4u * $ku + 2u), bits(t, 4u * $ku + 3u)));
//#end
  for (var n = 0u; n < p.iterations; n++) {
//#repeat s 32
//#repeat k 2
    x$k = x$k * m + c;
//#end
//#end
  }
  let v = x0 + x1;
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
