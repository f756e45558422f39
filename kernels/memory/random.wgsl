// memory-random (docs/method.md#memory-workload): 1M invocations, each making 16 gathers of one
// vec4<u32> at xorshift addresses, alternating between the two buffers (even gathers from A, odd
// from B). Addresses depend only on the xorshift state, never on loaded data, so all 16 gathers can
// be in flight: this measures scattered-access throughput, not latency. The fold is kept alive by
// the sentinel compare of the read kernel; the validator recomputes one invocation's fold on the
// host (memory::random_fold).
struct Params {
  mask: u32,  // elements per buffer - 1 (a power of two minus one)
  seed: u32,  // differs between the two alternating bind groups
  magic0: u32,
  magic1: u32,
}
@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> sink: array<vec4<u32>>;
@group(0) @binding(3) var<uniform> p: Params;

fn hash32(x0: u32) -> u32 {
  var x = x0;
  x = x ^ (x >> 16u); x = x * 0x7feb352du;
  x = x ^ (x >> 15u); x = x * 0x846ca68bu;
  x = x ^ (x >> 16u);
  return x;
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  var s = hash32(t ^ p.seed) | 1u;  // xorshift32 must not start at 0
  var acc = vec4<u32>(0u);
  for (var g = 0u; g < 16u; g = g + 1u) {
    s = s ^ (s << 13u);
    s = s ^ (s >> 17u);
    s = s ^ (s << 5u);
    let i = s & p.mask;
    if ((g & 1u) == 0u) {
      acc = acc ^ a[i];
    } else {
      acc = acc ^ b[i];
    }
  }
  if (acc.x == p.magic0 && acc.y == p.magic1) {
    sink[t & 255u] = acc;
  }
}
