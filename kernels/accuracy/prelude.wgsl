// Shared by every accuracy kernel (kernels/accuracy/*.wgsl; docs/method.md#accuracy). Before it,
// src/catalog/accuracy/ puts `enable f16;` where needed, the aliases A (the arguments' type) and R
// (the result's) and the functions that read an A from a word and write an R into one; after it,
// the builtin's file, which defines value(a, b). Invocation i evaluates value() on the i-th pair of
// arguments and stores the result's bits, so every input is a run-time value no compiler can fold.
@group(0) @binding(0) var<storage, read> args: array<u32>;  // x0, y0, x1, y1, ... (an f16 in the low half)
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = gid.x + gid.y * groups.x * 64u;
  if (i >= arrayLength(&out)) { return; }
  out[i] = store_r(value(load_a(args[2u * i]), load_a(args[2u * i + 1u])));
}
