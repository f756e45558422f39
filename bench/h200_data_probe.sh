#!/usr/bin/env bash
# Third session of 2026-11-30, the CUDA write gap (results: docs/results/h200-2026-11-30-third.md).
# Hypothesis: the Vulkan driver's buffers are compressible memory (generic compression) and the
# suite's data compresses less well than CUDA's, or compression costs incompressible writes. Tested
# by the data written, on both sides in one call:
#   CUDA: write-linear with its own pattern, the WGSL kernel's pattern and hashed words, each into
#     plain and into compressible memory (cuMemCreate, CU_MEM_ALLOCATION_COMP_GENERIC).
#   WebGPU: write-linear as shipped, and variants writing CUDA's pattern, hashed words and zeros
#     (made from kernels/bandwidth/write_linear.wgsl below). The variants fail validation BY DESIGN
#     (the validator expects the shipped pattern); the document keeps the timed rate of a row whose
#     validation failed, and only that rate is read. If zeros or CUDA's pattern write faster than the
#     shipped data, the buffers are compressed.
# Needs the H200 recipe's carry plus build/cuda-reference/reference; writes one archive under $OUT.
. bench/h200_probe_env.sh
vd=$(mktemp -d)
shipped='return vec4<u32>\(i, i \^ p.seed, ~i, i \+ p.seed\);'
for form in cuda-pattern hashed zeros; do
  case $form in
    cuda-pattern) body='let w = i * 4u; return vec4<u32>(w ^ p.seed, w ^ (p.seed ^ 1u), w ^ (p.seed ^ 2u), w ^ (p.seed ^ 3u));' ;;
    hashed) body='let w = i * 4u; return vec4<u32>(h(w ^ p.seed), h((w + 1u) ^ p.seed), h((w + 2u) ^ p.seed), h((w + 3u) ^ p.seed));' ;;
    zeros) body='return vec4<u32>(p.pad);' ;;
  esac
  mkdir -p "$vd/$form/bandwidth"
  f="$vd/$form/bandwidth/write_linear.wgsl"
  sed -E "s/$shipped/$body/" kernels/bandwidth/write_linear.wgsl > "$f"
  echo 'fn h(x0: u32) -> u32 { var x = x0; x = x ^ (x >> 16u); x = x * 0x7feb352du; x = x ^ (x >> 15u); x = x * 0x846ca68bu; return x ^ (x >> 16u); }' >> "$f"
  grep -qF "${body:0:20}" "$f" || { echo "variant $form not made" >&2; exit 2; }
done
cp -r "$vd" "$OUT/variants"
cuda_ids=write-linear,write-linear-wgsl-data,write-linear-hashed-data,write-linear-compressible,write-linear-compressible-wgsl-data,write-linear-compressible-hashed-data
for k in 1 2; do
  step cuda$k build/cuda-reference/reference --only "$cuda_ids" --bandwidth-bytes 1G --json "$OUT"/cuda$k.json
  step wgb-shipped-$k ./scripts/wgb run --filter write-linear --bandwidth-mib 1024 -q --json "$OUT"/wgb-shipped-$k.json
  for form in cuda-pattern hashed zeros; do
    step wgb-$form-$k ./scripts/wgb run --filter write-linear --bandwidth-mib 1024 --kernel-dir "$vd/$form" -q --json "$OUT"/wgb-$form-$k.json
  done
done
pack
