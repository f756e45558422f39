// branch-vec4-if: the same values, masks, steps and arms as branch-vec4-select, written as four
// scalar if/else statements per step (one per component). Whether the compiler emits real branches
// or predication is its choice; the test does not force either.
struct Params {
  count: u32,
  steps: u32,
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
  let m = masks[i];
  for (var s = 0u; s < p.steps; s = s + 1u) {
    if (((m >> (s & 31u)) & 1u) != 0u) {
      x.x = x.x * 0x01000193u + s;
    } else {
      x.x = (x.x ^ (x.x >> 7u)) + 0x9e3779b9u;
    }
    if (((m >> ((s + 8u) & 31u)) & 1u) != 0u) {
      x.y = x.y * 0x01000193u + s;
    } else {
      x.y = (x.y ^ (x.y >> 7u)) + 0x9e3779b9u;
    }
    if (((m >> ((s + 16u) & 31u)) & 1u) != 0u) {
      x.z = x.z * 0x01000193u + s;
    } else {
      x.z = (x.z ^ (x.z >> 7u)) + 0x9e3779b9u;
    }
    if (((m >> ((s + 24u) & 31u)) & 1u) != 0u) {
      x.w = x.w * 0x01000193u + s;
    } else {
      x.w = (x.w ^ (x.w >> 7u)) + 0x9e3779b9u;
    }
  }
  dst[i] = x;
}
