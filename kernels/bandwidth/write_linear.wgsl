// write-linear: streaming writes of vec4<u32> (16-byte stores) to two buffers, `passes`
// whole-buffer passes per dispatch alternating between them (A, B, A, ...), handed out in blocks by
// a ticket counter in order, exactly as read-linear reads (docs/method.md#streaming). Each
// invocation issues four independent stores per step, neighbouring invocations on neighbouring
// addresses. The stored value is a cheap function of the element index and of a seed that changes
// with every pass, so nothing is a constant store and the validator can check every element.
struct Params {
  count: u32,   // vec4 elements per buffer
  blocks: u32,  // blocks per buffer: ceil(count / (steps * 1024))
  seed: u32,
  passes: u32,  // whole-buffer passes per dispatch (the work knob)
  steps: u32,   // steps of four stores per invocation per block
  run: u32,     // invocations whose stores of one step are contiguous (read_linear.wgsl)
  pad1: u32,
  pad2: u32,
}
@group(0) @binding(0) var<storage, read_write> dst_a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst_b: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> p: Params;
// This dispatch's ticket counter, and the next dispatch's, which this one zeroes.
@group(0) @binding(3) var<storage, read_write> tickets: atomic<u32>;
@group(0) @binding(4) var<storage, read_write> next_tickets: atomic<u32>;

var<workgroup> ticket: array<u32, 2>;

fn value(i: u32, seed: u32) -> vec4<u32> {
  return vec4<u32>(i, i ^ seed, ~i, i + seed);
}

// One invocation's stores of a block of buffer A (B below: the same body, as in read_linear.wgsl).
fn block_a(first: u32, lane: u32, seed: u32) {
  let r = p.run;
  let base = first + (lane / r) * (r * 4u * p.steps) + lane % r;
  for (var s = 0u; s < p.steps; s++) {
    let i = base + s * 4u * r;
    if (i + 3u * r < p.count) {
      dst_a[i] = value(i, seed);
      dst_a[i + r] = value(i + r, seed);
      dst_a[i + 2u * r] = value(i + 2u * r, seed);
      dst_a[i + 3u * r] = value(i + 3u * r, seed);
    } else {
      for (var j = 0u; j < 4u; j++) {
        if (i + j * r < p.count) { dst_a[i + j * r] = value(i + j * r, seed); }
      }
    }
  }
}

fn block_b(first: u32, lane: u32, seed: u32) {
  let r = p.run;
  let base = first + (lane / r) * (r * 4u * p.steps) + lane % r;
  for (var s = 0u; s < p.steps; s++) {
    let i = base + s * 4u * r;
    if (i + 3u * r < p.count) {
      dst_b[i] = value(i, seed);
      dst_b[i + r] = value(i + r, seed);
      dst_b[i + 2u * r] = value(i + 2u * r, seed);
      dst_b[i + 3u * r] = value(i + 3u * r, seed);
    } else {
      for (var j = 0u; j < 4u; j++) {
        if (i + j * r < p.count) { dst_b[i + j * r] = value(i + j * r, seed); }
      }
    }
  }
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lane: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let total = p.passes * p.blocks;
  if (lane == 0u) {
    if (wg.x == 0u) { atomicStore(&next_tickets, 0u); }
    ticket[0] = atomicAdd(&tickets, 1u);
  }
  var k = 0u;
  loop {
    let t = workgroupUniformLoad(&ticket[k & 1u]);
    if (t >= total) { break; }
    if (lane == 0u) { ticket[(k + 1u) & 1u] = atomicAdd(&tickets, 1u); }
    let pass_index = t / p.blocks;
    let first = (t - pass_index * p.blocks) * p.steps * 1024u;
    // Pass 0 stores value(i, p.seed): what the validator checks after a one-pass dispatch.
    let seed = p.seed ^ (pass_index * 0x9e3779b9u);
    if ((pass_index & 1u) == 0u) { block_a(first, lane, seed); } else { block_b(first, lane, seed); }
    k = k + 1u;
  }
}
