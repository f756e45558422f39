#!/usr/bin/env bash
# Third session of 2026-11-30, the CUDA write gap (results: docs/results/h200-2026-11-30.md, "Third
# session"). Hypothesis: NVIDIA's Vulkan compiler does not emit the suite's vec4<u32> stores as one
# 16-byte store. Tested by the store width on both sides in one call: WebGPU write-linear as shipped
# (vec4 stores) and with each element written as two vec2<u32> or four u32 stores (made from
# kernels/bandwidth/write_linear.wgsl below, run through --kernel-dir, validated as shipped), and the
# CUDA reference's write-linear (16-byte stores) against write-linear-v2 / -u32 (8- and 4-byte stores
# forced with PTX). If WebGPU's vec4 rate matches CUDA's rate for a narrower store, that is the gap.
# Needs the H200 recipe's carry plus build/cuda-reference/reference; writes one archive under $OUT.
. bench/h200_probe_env.sh
vd=$(mktemp -d)
for form in v2 u32; do
  mkdir -p "$vd/$form/bandwidth"
  case $form in
    v2) ty='vec2<u32>'; put='fn put(i: u32) { let v = value(i); dst[2u * i] = v.xy; dst[2u * i + 1u] = v.zw; }' ;;
    u32) ty='u32'; put='fn put(i: u32) { let v = value(i); dst[4u * i] = v.x; dst[4u * i + 1u] = v.y; dst[4u * i + 2u] = v.z; dst[4u * i + 3u] = v.w; }' ;;
  esac
  f="$vd/$form/bandwidth/write_linear.wgsl"
  sed -E "s/var<storage, read_write> dst: array<vec4<u32>>;/var<storage, read_write> dst: array<$ty>;/; s/dst\[([^]]+)\] = value\(([^)]+)\);/put(\1);/" \
    kernels/bandwidth/write_linear.wgsl > "$f"
  echo "$put" >> "$f"
  grep -q "array<$ty>" "$f" && [ "$(grep -c 'put(' "$f")" -ge 6 ] || { echo "variant $form not made" >&2; exit 2; }
done
cp -r "$vd" "$OUT/variants"
for k in 1 2; do
  step cuda$k build/cuda-reference/reference --only write-linear,write-linear-v2,write-linear-u32 --bandwidth-bytes 1G --json "$OUT"/cuda$k.json
  step wgb-vec4-$k ./scripts/wgb run --filter write-linear --bandwidth-mib 1024 -q --json "$OUT"/wgb-vec4-$k.json
  for form in v2 u32; do
    step wgb-$form-$k ./scripts/wgb run --filter write-linear --bandwidth-mib 1024 --kernel-dir "$vd/$form" -q --json "$OUT"/wgb-$form-$k.json
  done
done
pack
