// layout-soa: particles as a structure of arrays: field f of particle i at f * count + i (fields
// px py pz vx vy vz mass charge). Same update as layout-aos: positions from the immutable input,
// written into the output in the same layout; the other fields are preserved.
struct Params {
  count: u32,  // particles (also the field stride)
  dt: f32,
}
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  let n = p.count;
  if (i >= n) { return; }
  dst[i] = src[i] + src[3u * n + i] * p.dt;
  dst[n + i] = src[n + i] + src[4u * n + i] * p.dt;
  dst[2u * n + i] = src[2u * n + i] + src[5u * n + i] * p.dt;
}
