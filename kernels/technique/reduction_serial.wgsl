// reduction-serial: independent segment sums of bounded u32 values (segment s holds values
// s * length .. s * length + length - 1); one invocation adds up a whole segment in order.
// Output: one sum per segment (reduction_reference()).
struct Params {
  segments: u32,
  length: u32,  // values per segment (256 in the benchmark)
}
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let seg = gid.x;
  if (seg >= p.segments) { return; }
  let base = seg * p.length;
  var acc = 0u;
  for (var k = 0u; k < p.length; k = k + 1u) {
    acc = acc + src[base + k];
  }
  sums[seg] = acc;
}
