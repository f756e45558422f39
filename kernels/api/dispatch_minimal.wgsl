// dispatch-overhead: the smallest kernel that proves it ran. Each dispatch is one workgroup of one
// invocation that adds 1 to a counter; the count read back after timing must equal the number of
// dispatches submitted. The counter is a read_write storage binding, so consecutive dispatches are
// ordered as dependent dispatches in real programs are.
@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;

@compute @workgroup_size(1)
fn main() {
  atomicAdd(&counter, 1u);
}
