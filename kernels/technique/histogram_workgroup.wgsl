// atomic-workgroup: the same histogram as atomic-direct, aggregated per workgroup: every key is a
// workgroup-memory atomic, then each workgroup adds its non-zero bins to the global counters (at
// most 32 global atomics per 256 keys). reset -> count -> merge per repetition, as atomic-direct.
const kShards: u32 = 1u;

struct Params {
  count: u32,  // keys
}
@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;  // kShards x 32 counters
@group(0) @binding(2) var<storage, read_write> hist: array<u32, 32>;      // the complete histogram
@group(0) @binding(3) var<uniform> p: Params;

// Dispatch 1 of 3: zero every counter (one workgroup).
@compute @workgroup_size(256)
fn reset(@builtin(local_invocation_index) lid: u32) {
  for (var j = lid; j < kShards * 32u; j = j + 256u) {
    atomicStore(&bins[j], 0u);
  }
}

var<workgroup> local_bins: array<atomic<u32>, 32>;

// Dispatch 2 of 3: count into workgroup memory, then flush to the global counters.
@compute @workgroup_size(256)
fn count(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  if (lid < 32u) {
    atomicStore(&local_bins[lid], 0u);
  }
  workgroupBarrier();
  let i = gid.x;
  if (i < p.count) {  // no early return: every invocation must reach both barriers
    atomicAdd(&local_bins[keys[i] & 31u], 1u);
  }
  workgroupBarrier();
  if (lid < 32u) {
    let c = atomicLoad(&local_bins[lid]);
    if (c != 0u) {
      atomicAdd(&bins[lid], c);
    }
  }
}

// Dispatch 3 of 3: the complete histogram, summed over the shards (one workgroup of 32).
@compute @workgroup_size(32)
fn merge(@builtin(local_invocation_index) b: u32) {
  var c = 0u;
  for (var s = 0u; s < kShards; s = s + 1u) {
    c = c + atomicLoad(&bins[s * 32u + b]);
  }
  hist[b] = c;
}
