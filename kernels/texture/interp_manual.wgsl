// texture-interp-manual: the scan of prelude.wgsl with the interpolation done in the shader: the
// two neighbouring texels fetched unfiltered with textureLoad and blended with mix(), the way the
// filtering hardware does it (texel space u * width - 0.5, wrapped to the row like a repeat
// sampler). No sampler and no filterable format needed.
fn interpolate(u: f32) -> vec4<f32> {
  let pos = u * f32(p.width) - 0.5;
  let fl = floor(pos);
  let i0 = u32(i32(fl) + i32(p.width)) & (p.width - 1u);
  let i1 = (i0 + 1u) & (p.width - 1u);
  let a = textureLoad(tex, vec2<u32>(i0, 0u), 0);
  let b = textureLoad(tex, vec2<u32>(i1, 0u), 0);
  return mix(a, b, pos - fl);
}

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
    sum$k += interpolate(coordinate(base + $su * 4u + $ku, mask));
//#end
//#end
  }
  let v = sum0 + sum1 + sum2 + sum3;
  out[t] = bitcast<u32>(v.x + v.y + v.z + v.w);
}
