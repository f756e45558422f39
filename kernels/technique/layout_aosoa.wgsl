// layout-aosoa: particles in blocks of 32: field f of particle i at
// ((i / 32) * 8 + f) * 32 + i % 32 (fields px py pz vx vy vz mass charge; the last block is padded).
// Same update as layout-aos: positions from the immutable input, written into the output in the
// same layout; the other fields are preserved.
struct Params {
  count: u32,  // particles
  dt: f32,
}
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= p.count) { return; }
  let base = (i / 32u) * 256u + (i % 32u);  // field 0 of particle i; field f adds f * 32
  dst[base] = src[base] + src[base + 96u] * p.dt;
  dst[base + 32u] = src[base + 32u] + src[base + 128u] * p.dt;
  dst[base + 64u] = src[base + 64u] + src[base + 160u] * p.dt;
}
