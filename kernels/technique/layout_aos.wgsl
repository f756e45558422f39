// layout-aos: particles as an array of structs (eight f32 fields, 32 bytes each). Each invocation
// reads one particle's position and velocity from the immutable input and writes the updated
// position into the output particle in the same layout; the other five output fields (uploaded as
// a copy of the input) are preserved, never rewritten. Reference: layout_reference().
struct Particle {
  px: f32, py: f32, pz: f32,
  vx: f32, vy: f32, vz: f32,
  mass: f32, charge: f32,
}
struct Params {
  count: u32,  // particles
  dt: f32,
}
@group(0) @binding(0) var<storage, read> src: array<Particle>;
@group(0) @binding(1) var<storage, read_write> dst: array<Particle>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= p.count) { return; }
  dst[i].px = src[i].px + src[i].vx * p.dt;
  dst[i].py = src[i].py + src[i].vy * p.dt;
  dst[i].pz = src[i].pz + src[i].vz * p.dt;
}
