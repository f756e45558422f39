// branch-vec4-select: 65,536 vec4<u32> values, 64 steps; at every step each component chooses one
// of two arms by a seeded mask bit (bit (step + 8 * component) mod 32 of the element's mask). This
// variant computes both arms for the whole vector and picks per component with select(). The
// arithmetic wraps mod 2^32 (bounded, exact). Reference: branch_reference().
struct Params {
  count: u32,  // elements
  steps: u32,  // 64
}
@group(0) @binding(0) var<storage, read> values: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> masks: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<vec4<u32>>;
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= p.count) { return; }
  var x = values[i];
  let m = vec4<u32>(masks[i]);
  let lanes = vec4<u32>(0u, 8u, 16u, 24u);
  for (var s = 0u; s < p.steps; s = s + 1u) {
    let take = ((m >> ((vec4<u32>(s) + lanes) & vec4<u32>(31u))) & vec4<u32>(1u)) != vec4<u32>(0u);
    let taken = x * 0x01000193u + vec4<u32>(s);
    let other = (x ^ (x >> vec4<u32>(7u))) + vec4<u32>(0x9e3779b9u);
    x = select(other, taken, take);
  }
  dst[i] = x;
}
