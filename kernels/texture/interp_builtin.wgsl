// texture-interp-builtin: the scan of prelude.wgsl, each sample filtered by the texture unit:
// textureSampleLevel through a linear sampler (repeat addressing, level 0), so the hardware
// fetches the two neighbouring texels and interpolates them. Linear filtering of rgba32float needs
// the float32-filterable feature.
@group(0) @binding(3) var samp: sampler;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
  let mask = 4u * p.width - 1u;
  let start = hash32(t ^ p.seed);
//#repeat k 4
  var sum$k = vec4<f32>(0.0);
//#end
  for (var n = 0u; n < p.iterations; n++) {
    let base = start + n * 256u;
//#repeat s 64
//#repeat k 4
    sum$k += textureSampleLevel(tex, samp, vec2<f32>(coordinate(base + $su * 4u + $ku, mask), 0.5), 0.0);
//#end
//#end
  }
  let v = sum0 + sum1 + sum2 + sum3;
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
