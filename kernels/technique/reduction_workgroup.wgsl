// reduction-workgroup: the same segment sums as reduction-serial; one workgroup of 256 per segment.
// Each invocation adds its strided share of the segment (exactly one value when the segment has
// 256), then a shared-memory tree halves the partial sums with a barrier per level.
struct Params {
  segments: u32,
  length: u32,
}
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

var<workgroup> partial: array<u32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let seg = wid.x;
  let base = seg * p.length;
  var acc = 0u;
  for (var k = lid; k < p.length; k = k + 256u) {
    acc = acc + src[base + k];
  }
  partial[lid] = acc;
  workgroupBarrier();
  for (var width = 128u; width > 0u; width = width >> 1u) {
    if (lid < width) {
      partial[lid] = partial[lid] + partial[lid + width];
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    sums[seg] = partial[0];
  }
}
