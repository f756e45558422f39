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
  for (var dy = 0u; dy < 3u; dy = dy + 1u) {
    let row = base + ((y + 15u + dy) & 15u) * 16u;
    for (var dx = 0u; dx < 3u; dx = dx + 1u) {
      s = s + src[row + ((x + 15u + dx) & 15u)];
    }
  }
  dst[base + y * 16u + x] = s * (1.0 / 9.0);
}
