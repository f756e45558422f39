// Not a probe: the contraction check that the f32 FMA rows record (alu.hpp, check_contraction).
// x * m + c with x = m = 1 + 3 * 2^-13 and c = -(x * m rounded to f32): the exact product is
// 1 + 3 * 2^-12 + 2^-23 + 2^-26, and f32 keeps only down to 2^-23. Contracted into one FMA the
// product is not rounded and 2^-26 remains; as a multiply and a separate add the result is 0.
// Invocation 0 evaluates the form f32-fma-scalar writes, invocation 1 fma() (f32-fma-builtin);
// the operands come from the uniform block, so no compiler can evaluate either when it builds the
// pipeline.
@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  var x = p.f.x;
  let m = p.f.y;
  let c = p.f.z;
  if (t == 0u) {
    x = x * m + c;
  } else {
    x = fma(x, m, c);
  }
  out[t] = bitcast<u32>(x);
}
