// pipeline-create: a kernel of the size and shape of a typical probe (parameters in a uniform, a
// storage buffer, a hashed start value, a loop of four independent multiply-add chains, a folded
// store), created anew for every timed pipeline. `salt` differs for every pipeline and enters the
// arithmetic, so the generated code differs too and no compiler cache below WebGPU can hit; the
// host prepends a comment with the same number so the WGSL text, and with it the shader module,
// is new as well.
override salt: u32 = 0u;
override wg_size: u32 = 64u;

struct Params {
  iterations: u32,
  seed: u32,
  pad0: u32,
  pad1: u32,
}

@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> params: Params;

fn hash32(x0: u32) -> u32 {
  var x = x0;
  x = x ^ (x >> 16u);
  x = x * 0x7feb352du;
  x = x ^ (x >> 15u);
  x = x * 0x846ca68bu;
  x = x ^ (x >> 16u);
  return x;
}

@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&out)) {
    return;
  }
  var x0 = hash32(i ^ params.seed ^ salt);
  var x1 = x0 ^ 0x9e3779b9u;
  var x2 = x0 ^ 0x7f4a7c15u;
  var x3 = x0 ^ 0x85ebca6bu;
  let a = hash32(salt) | 1u;
  let b = salt * 2654435761u + 1u;
  for (var k = 0u; k < params.iterations; k = k + 1u) {
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
  }
  out[i] = x0 ^ x1 ^ x2 ^ x3;
}
