// reduction-subgroup: the same segment sums as reduction-serial; one workgroup of 256 per segment.
// Each invocation adds its strided share, subgroupAdd sums each subgroup, and one invocation per
// subgroup adds that sum into a workgroup atomic. Nothing assumes a subgroup width or how
// subgroups map to local indices: whatever the partition, every invocation's value reaches exactly
// one subgroup sum, and every subgroup adds exactly once. Needs the `subgroups` feature.
enable subgroups;

struct Params {
  segments: u32,
  length: u32,
}
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

var<workgroup> total: atomic<u32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32,
        @builtin(subgroup_invocation_id) sid: u32) {
  let seg = wid.x;
  let base = seg * p.length;
  if (lid == 0u) {
    atomicStore(&total, 0u);
  }
  workgroupBarrier();
  var acc = 0u;
  for (var k = lid; k < p.length; k = k + 256u) {
    acc = acc + src[base + k];
  }
  let subgroup_sum = subgroupAdd(acc);
  if (sid == 0u) {
    atomicAdd(&total, subgroup_sum);
  }
  workgroupBarrier();
  if (lid == 0u) {
    sums[seg] = atomicLoad(&total);
  }
}
