// read-linear: streaming reads of vec4<u32> (16-byte loads) from two buffers of hashed data,
// `passes` whole-buffer passes per dispatch alternating between them (A, B, A, ...), so that launch
// and drain are a negligible part of a dispatch (docs/method.md#streaming).
// The work is handed out in blocks by a ticket counter, in order: block b of the dispatch is pass
// b / blocks over buffer (pass & 1), so the device reads the sequence A, B, A, B in address order
// however many workgroups are resident at once (all of them, a wave, or one per CPU thread), and a
// byte is read again only after both buffers' worth of other traffic.
// Each invocation XOR-folds its loads of a block (four independent 16-byte loads per step,
// neighbouring invocations on neighbouring addresses) and keeps the fold alive with a sentinel
// compare against uniforms: a match is practically impossible, but the compiler cannot prove it, so
// no load is removed. The validator sets the sentinels to one invocation's fold of one block.
struct Params {
  count: u32,   // vec4 elements per buffer
  blocks: u32,  // blocks per buffer: ceil(count / (steps * 1024))
  magic0: u32,
  magic1: u32,
  passes: u32,  // whole-buffer passes per dispatch (the work knob)
  steps: u32,   // steps of four loads per invocation per block
  run: u32,     // invocations whose loads of one step are contiguous: 256 on a GPU, 8 on a CPU
  pad1: u32,
}
@group(0) @binding(0) var<storage, read> src_a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> src_b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> sink: array<vec4<u32>>;
@group(0) @binding(3) var<uniform> p: Params;
// This dispatch's ticket counter, and the next dispatch's, which this one zeroes (consecutive
// dispatches swap the two, and a barrier separates them).
@group(0) @binding(4) var<storage, read_write> tickets: atomic<u32>;
@group(0) @binding(5) var<storage, read_write> next_tickets: atomic<u32>;

// The workgroup's current ticket and the one fetched ahead while the current block loads.
var<workgroup> ticket: array<u32, 2>;

// One invocation's fold of a block of buffer A (B below: the same body; a WGSL function cannot take
// a storage pointer without a language extension some browsers lack, and a branch per load could
// cost the loads in flight). A block is `run`-wide columns: invocation `lane` owns column
// lane / run, and in each step loads four elements `run` apart at offset lane % run. With run 256
// (a GPU) a step of the workgroup is 1024 consecutive elements, neighbouring invocations on
// neighbouring addresses; with run 8 (a CPU driver, which runs a workgroup eight invocations at a
// time, one group after another, when it has a barrier) each group streams its own contiguous
// column. A step past the end (the last block of a size that is not a whole number of blocks)
// loads only the elements that exist.
fn block_a(first: u32, lane: u32) -> vec4<u32> {
  var acc = vec4<u32>(0u);
  let r = p.run;
  let base = first + (lane / r) * (r * 4u * p.steps) + lane % r;
  for (var s = 0u; s < p.steps; s++) {
    let i = base + s * 4u * r;
    if (i + 3u * r < p.count) {
      let a = src_a[i];
      let b = src_a[i + r];
      let c = src_a[i + 2u * r];
      let d = src_a[i + 3u * r];
      acc = acc ^ ((a ^ b) ^ (c ^ d));
    } else {
      for (var j = 0u; j < 4u; j++) {
        if (i + j * r < p.count) { acc = acc ^ src_a[i + j * r]; }
      }
    }
  }
  return acc;
}

fn block_b(first: u32, lane: u32) -> vec4<u32> {
  var acc = vec4<u32>(0u);
  let r = p.run;
  let base = first + (lane / r) * (r * 4u * p.steps) + lane % r;
  for (var s = 0u; s < p.steps; s++) {
    let i = base + s * 4u * r;
    if (i + 3u * r < p.count) {
      let a = src_b[i];
      let b = src_b[i + r];
      let c = src_b[i + 2u * r];
      let d = src_b[i + 3u * r];
      acc = acc ^ ((a ^ b) ^ (c ^ d));
    } else {
      for (var j = 0u; j < 4u; j++) {
        if (i + j * r < p.count) { acc = acc ^ src_b[i + j * r]; }
      }
    }
  }
  return acc;
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
    // Every workgroup ends on exactly one ticket past the work: a dispatch takes total + groups.
    if (t >= total) { break; }
    if (lane == 0u) { ticket[(k + 1u) & 1u] = atomicAdd(&tickets, 1u); }
    let pass_index = t / p.blocks;
    let first = (t - pass_index * p.blocks) * p.steps * 1024u;
    var acc: vec4<u32>;
    if ((pass_index & 1u) == 0u) { acc = block_a(first, lane); } else { acc = block_b(first, lane); }
    if (acc.x == p.magic0 && acc.y == p.magic1) {
      sink[lane] = acc;
    }
    k = k + 1u;
  }
}
