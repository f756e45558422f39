#!/usr/bin/env bash
# The remaining H200 gaps to CUDA (results: docs/results/h200-2026-12-01-gaps.md), one call:
#   i8-dp4a: WGSL forms of the accumulating dot product (as shipped: x = x + dot4I8Packed(a, x), eight
#     chains, 256 dots per loop trip), each with 256 dots per trip, so the counting is unchanged:
#       swapped   x = dot4I8Packed(a, x) + x
#       coupled   x_k = x_k + dot4I8Packed(x_k, x_(k+1 mod 8))   (both operands loop-varying)
#       chains16  sixteen chains, 16 steps per trip
#     Variants other than the shipped one fail validation BY DESIGN (the validator expects the
#     shipped arithmetic); the document keeps the timed rate, and only that rate is read.
#   f32/f16-fma-vec4: the loop body as shipped (four 16-step trips per pass, 256 vec4 FMAs), two trips
#     per pass (128) and one trip (64), which lavapipe compiles 2.5x faster; validation holds for all.
#   atomic-*: the histogram techniques with 16 keys per invocation (shipped now).
# Needs the H200 recipe's carry plus build/cuda-reference/reference (optional); one archive under $OUT.
. bench/h200_probe_env.sh
vd=$(mktemp -d)
k=kernels/compute
mk() { mkdir -p "$vd/$1/compute"; }
mk swapped; sed 's/x\$k = x\$k + \$DOT(a\$k, bitcast<u32>(x\$k));/x$k = $DOT(a$k, bitcast<u32>(x$k)) + x$k;/' $k/dp4a.wgsl > "$vd/swapped/compute/dp4a.wgsl"
mk coupled; python3 - "$k/dp4a.wgsl" "$vd/coupled/compute/dp4a.wgsl" <<'PY'
import sys
s = open(sys.argv[1]).read()
body = "    x$k = x$k + $DOT(a$k, bitcast<u32>(x$k));\n"
assert body in s
# //#repeat k 8 cannot name k+1: spell the eight steps out.
steps = "".join(f"    x{k} = x{k} + $DOT(bitcast<u32>(x{k}), bitcast<u32>(x{(k + 1) % 8}));\n" for k in range(8))
s = s.replace("//#repeat k 8\n" + body + "//#end\n", steps)
open(sys.argv[2], "w").write(s)
PY
mk chains16; sed -e 's/#repeat k 8/#repeat k 16/g' -e 's/#repeat s 32/#repeat s 16/' \
  -e 's/out\[t\] = bitcast<u32>(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7);/out[t] = bitcast<u32>(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9 + x10 + x11 + x12 + x13 + x14 + x15);/' \
  -e 's/bits(t, 8u + \$ku)/bits(t, 16u + $ku)/' $k/dp4a.wgsl > "$vd/chains16/compute/dp4a.wgsl"
mk vec4two; sed -e 's#let passes = p.iterations / 4u;#let passes = p.iterations / 2u;#' -e 's#//\#repeat s 64#//\#repeat s 32#' \
  -e 's#for (var n = passes \* 4u;#for (var n = passes * 2u;#' $k/fma_vec4.wgsl > "$vd/vec4two/compute/fma_vec4.wgsl"
mk vec4one; python3 - "$k/fma_vec4.wgsl" "$vd/vec4one/compute/fma_vec4.wgsl" <<'PY'
import sys
s = open(sys.argv[1]).read()
a = s.index("  let passes = p.iterations / 4u;"); b = s.index("  let v = vec4<f32>")
s = s[:a] + "  for (var n = 0u; n < p.iterations; n++) {\n//#repeat s 16\n//#repeat k 4\n    x$k = fma(x$k, m, c);\n//#end\n//#end\n  }\n" + s[b:]
open(sys.argv[2], "w").write(s)
PY
for v in swapped coupled chains16 vec4two vec4one; do diff -q $k/dp4a.wgsl "$vd/$v/compute/dp4a.wgsl" >/dev/null 2>&1 && echo "variant $v not made" >&2; done
cp -r "$vd" "$OUT/variants"
gpu_state
for r in 1 2; do
  step dp4a-shipped-$r ./scripts/wgb run --filter i8-dp4a -q --json "$OUT"/dp4a-shipped-$r.json
  for v in swapped coupled chains16; do
    step dp4a-$v-$r ./scripts/wgb run --filter i8-dp4a -q --kernel-dir "$vd/$v" --json "$OUT"/dp4a-$v-$r.json
  done
  for v in shipped vec4two vec4one; do
    kd=(); [ $v = shipped ] || kd=(--kernel-dir "$vd/$v")
    step vec4-$v-$r ./scripts/wgb run --experimental --filter f32-fma-vec4,f16-fma-vec4 -q "${kd[@]}" --json "$OUT"/vec4-$v-$r.json
  done
  step atomic-$r ./scripts/wgb run --filter 'atomic-*,read-dependent-chain' -q --json "$OUT"/atomic-$r.json
  gpu_state
done
if [ -x build/cuda-reference/reference ]; then
  step cuda build/cuda-reference/reference --only i8-dp4a,f32-fma-vec4,f16-fma-vec4 --json "$OUT"/cuda.json
fi
python3 - "$OUT" <<'PY' | tee "$OUT/summary.txt"
import json, glob, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    try: d = json.load(open(f))
    except Exception as e: print(os.path.basename(f), "unreadable", e); continue
    for r in d.get("rows", []):
        print(f"{os.path.basename(f):28s} {r.get('id'):22s} {r.get('status'):10s} {(r.get('value') or 0):.4g} {r.get('unit','')}")
PY
pack
