// The shipped kernel with the loop guard naga (wgpu) adds to every loop written out in WGSL:
// a vec2<u32> countdown from 2^64 - 1, tested and decremented at the top of every iteration
// (naga back/spv, force_loop_bounding), so that Dawn runs what wgpu hands the driver.
// tile-shared / tile-shared-padded: the same 3x3 box filter as tile-direct, but each workgroup
// first copies its 16x16 tile into workgroup memory (one load per invocation), waits at a barrier,
// and reads the nine taps from there. The two benchmarks compile this file with only the kStride
// line changed: row stride 16 (tile-shared) or 17 (tile-shared-padded, which shifts each row by one
// bank). Loading and the barrier are inside the timed dispatch.
const kStride: u32 = 16u;

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;

var<workgroup> tile: array<f32, 16u * kStride>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let base = wid.x * 256u;
  let x = lid.x;
  let y = lid.y;
  tile[y * kStride + x] = src[base + y * 16u + x];
  workgroupBarrier();
  var s = 0.0;
  var lg0 = vec2<u32>(4294967295u, 4294967295u);
  for (var dy = 0u; dy < 3u; dy = dy + 1u) {
    if (all(lg0 == vec2<u32>(0u))) { break; }
    lg0 = lg0 - vec2<u32>(select(0u, 1u, lg0.y == 0u), 1u);
    let row = ((y + 15u + dy) & 15u) * kStride;
    var lg1 = vec2<u32>(4294967295u, 4294967295u);
    for (var dx = 0u; dx < 3u; dx = dx + 1u) {
      if (all(lg1 == vec2<u32>(0u))) { break; }
      lg1 = lg1 - vec2<u32>(select(0u, 1u, lg1.y == 0u), 1u);
      s = s + tile[row + ((x + 15u + dx) & 15u)];
    }
  }
  dst[base + y * 16u + x] = s * (1.0 / 9.0);
}
