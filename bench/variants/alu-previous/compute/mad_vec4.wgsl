// The previous form of this kernel (four vec4 chains), kept to time it beside the shipped one on a
// GPU (bench/h200_alu.sh). It computes other lanes than the shipped kernel, so its rows fail
// validation by design: only their rates are read.
// i32-mad-vec4: four independent vec4<i32> multiply-add chains (16 lanes) per invocation, 16 steps
// each per loop trip: 64 vec4 MADs = 256 scalar MADs per trip.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = vec4<i32>(bitcast<i32>(p.ia));
  let c = vec4<i32>(bitcast<i32>(p.ib));
//#repeat k 4
  var x$k = bitcast<vec4<i32>>(vec4<u32>(bits(t, 4u * $ku), bits(t, 4u * $ku + 1u), bits(t, 4u * $ku + 2u), bits(t, 4u * $ku + 3u)));
//#end
  for (var n = 0u; n < p.iterations; n++) {
//#repeat s 16
//#repeat k 4
    x$k = x$k * m + c;
//#end
//#end
  }
  let v = x0 + x1 + x2 + x3;
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
