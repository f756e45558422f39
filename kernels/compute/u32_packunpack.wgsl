// u32-packunpack: eight independent u32 chains per invocation, 32 steps each per loop trip; a step
// unpacks the word's four bytes with shifts and masks, adds e to each (wrapping within the byte)
// and packs them again: the bit operations that unpack4xU8 / pack4xU8 stand for, written out (no
// redundant mask: the top byte needs none after `>> 24u`, and `<< 24u` drops what a mask would).
// Then the packed word gets a whole-word add of the chain's operand c, whose carries cross the
// bytes: without it each byte would be an independent chain that a compiler may keep unpacked (the
// low 8 bits of a sum depend only on the low 8 bits of its operands, so the masks drop out and 32
// steps fold into one add per byte; LLVM does that on lavapipe), and nothing would be packed or
// unpacked at all. e is odd, per chain and per trip (the top byte of c + trip_word(n), with its low
// bit set), so every trip moves every byte and the stored result depends on the trip count.
fn repack(v: u32, e: u32) -> u32 {
  let b0 = (v & 0xFFu) + e;
  let b1 = ((v >> 8u) & 0xFFu) + e;
  let b2 = ((v >> 16u) & 0xFFu) + e;
  let b3 = (v >> 24u) + e;
  return (b0 & 0xFFu) | ((b1 & 0xFFu) << 8u) | ((b2 & 0xFFu) << 16u) | (b3 << 24u);
}

@compute @workgroup_size(wg_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= p.threads) { return; }
//#repeat k 8
  var x$k = bits(t, $ku);
  let c$k = bits(t, 8u + $ku);
//#end
  for (var n = 0u; n < p.iterations; n++) {
    let w = trip_word(n);
//#repeat k 8
    let e$k = ((c$k + w) >> 24u) | 1u;
//#end
//#repeat s 32
//#repeat k 8
    x$k = repack(x$k, e$k) + c$k;
//#end
//#end
  }
  out[t] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
