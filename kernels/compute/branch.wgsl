// branch-none / -uniform / -coherent / -divergent: the f32 scalar FMA chains (eight chains, 32
// steps per loop trip) inside `if ($COND) { A } else { B }`, with equal work on both sides. Side A
// is x = fma(x, m, c) per chain; side B swaps the chains of each pair and uses other operands
// (m2, c2), so the two sides cannot be merged into one FMA stream with selected operands. The
// condition alternates with the loop trip n and is the same for all lanes (uniform), for a
// workgroup (coherent), or flips per lane (divergent); branch-none's condition is `true`, leaving
// the bare chains. Either side does 256 FMAs per trip.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let m = p.f.x;
  let c = p.f.y;
  let m2 = p.f.z;
  let c2 = p.f.w;
//#repeat k 8
  var x$k = start(t, $ku);
//#end
  for (var n = 0u; n < p.iterations; n++) {
    if ($COND) {
//#repeat s 32
      x0 = fma(x0, m, c); x1 = fma(x1, m, c); x2 = fma(x2, m, c); x3 = fma(x3, m, c);
      x4 = fma(x4, m, c); x5 = fma(x5, m, c); x6 = fma(x6, m, c); x7 = fma(x7, m, c);
//#end
    } else {
//#repeat s 32
      {
        let y0 = x0; x0 = fma(x1, m2, c2); x1 = fma(y0, m2, c2);
        let y2 = x2; x2 = fma(x3, m2, c2); x3 = fma(y2, m2, c2);
        let y4 = x4; x4 = fma(x5, m2, c2); x5 = fma(y4, m2, c2);
        let y6 = x6; x6 = fma(x7, m2, c2); x7 = fma(y6, m2, c2);
      }
//#end
    }
  }
  out[t] = bitcast<u32>(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7);
}
