// The shipped kernel with the loop guard naga (wgpu) adds to every loop written out in WGSL:
// a vec2<u32> countdown from 2^64 - 1, tested and decremented at the top of every iteration
// (naga back/spv, force_loop_bounding), so that Dawn runs what wgpu hands the driver.
// atomic-direct: a 32-bin histogram of the keys (about half in bin 0), every key one atomicAdd on
// a global counter. One repetition is three dispatches, reset -> count -> merge, so every
// repetition computes the complete histogram from zero (histogram_reference()). The merge is a
// copy here (one shard); it is kept so all three variants pay the same dispatch structure.
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
  var lg0 = vec2<u32>(4294967295u, 4294967295u);
  for (var j = lid; j < kShards * 32u; j = j + 256u) {
    if (all(lg0 == vec2<u32>(0u))) { break; }
    lg0 = lg0 - vec2<u32>(select(0u, 1u, lg0.y == 0u), 1u);
    atomicStore(&bins[j], 0u);
  }
}

// Dispatch 2 of 3: one global atomic per key. Each workgroup takes 4,096 consecutive keys, every invocation 16 of them 256 apart (coalesced), as all three variants do.
const kKeysPerInvocation: u32 = 16u;
@compute @workgroup_size(256)
fn count(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  var lg1 = vec2<u32>(4294967295u, 4294967295u);
  for (var k = 0u; k < kKeysPerInvocation; k = k + 1u) {
    if (all(lg1 == vec2<u32>(0u))) { break; }
    lg1 = lg1 - vec2<u32>(select(0u, 1u, lg1.y == 0u), 1u);
    let i = wid.x * (256u * kKeysPerInvocation) + k * 256u + lid;
    if (i < p.count) {
      atomicAdd(&bins[keys[i] & 31u], 1u);
    }
  }
}

// Dispatch 3 of 3: the complete histogram, summed over the shards (one workgroup of 32).
@compute @workgroup_size(32)
fn merge(@builtin(local_invocation_index) b: u32) {
  var c = 0u;
  var lg2 = vec2<u32>(4294967295u, 4294967295u);
  for (var s = 0u; s < kShards; s = s + 1u) {
    if (all(lg2 == vec2<u32>(0u))) { break; }
    lg2 = lg2 - vec2<u32>(select(0u, 1u, lg2.y == 0u), 1u);
    c = c + atomicLoad(&bins[s * 32u + b]);
  }
  hist[b] = c;
}
