// The shipped kernel with the loop guard naga (wgpu) adds to every loop written out in WGSL:
// a vec2<u32> countdown from 2^64 - 1, tested and decremented at the top of every iteration
// (naga back/spv, force_loop_bounding), so that Dawn runs what wgpu hands the driver.
// tile-direct: a 3x3 box filter on independent 16x16 tiles (tile t at t * 256, row-major inside),
// wrapping within each tile. One workgroup per tile, one output per invocation; every one of the
// nine taps is a storage read (the caches do whatever reuse they can). The nine values are summed
// in row-major order and scaled by 1/9, exactly as tile_reference() and the shared variants do.
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let base = wid.x * 256u;
  let x = lid.x;
  let y = lid.y;
  var s = 0.0;
  var lg0 = vec2<u32>(4294967295u, 4294967295u);
  for (var dy = 0u; dy < 3u; dy = dy + 1u) {
    if (all(lg0 == vec2<u32>(0u))) { break; }
    lg0 = lg0 - vec2<u32>(select(0u, 1u, lg0.y == 0u), 1u);
    let row = base + ((y + 15u + dy) & 15u) * 16u;
    var lg1 = vec2<u32>(4294967295u, 4294967295u);
    for (var dx = 0u; dx < 3u; dx = dx + 1u) {
      if (all(lg1 == vec2<u32>(0u))) { break; }
      lg1 = lg1 - vec2<u32>(select(0u, 1u, lg1.y == 0u), 1u);
      s = s + src[row + ((x + 15u + dx) & 15u)];
    }
  }
  dst[base + y * 16u + x] = s * (1.0 / 9.0);
}
