// atomic-sharded: the same histogram as atomic-direct, spread over eight global copies: key i adds
// to shard i mod 8 (neighbouring invocations hit different shards, each shard's 32 counters are
// 128 bytes apart), and the merge sums the eight shards. reset -> count -> merge per repetition.
const kShards: u32 = 8u;

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

// Dispatch 2 of 3: one global atomic per key, on the key's shard. Each workgroup takes 4,096
// consecutive keys, every invocation 16 of them 256 apart (coalesced), as all three variants do.
const kKeysPerInvocation: u32 = 16u;
@compute @workgroup_size(256)
fn count(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  for (var k = 0u; k < kKeysPerInvocation; k = k + 1u) {
    let i = wid.x * (256u * kKeysPerInvocation) + k * 256u + lid;
    if (i < p.count) {
      atomicAdd(&bins[(i & 7u) * 32u + (keys[i] & 31u)], 1u);
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
