#!/usr/bin/env bash
# One call on the lent H200 (about 5 minutes), run there from the repository root with the build
# carried as bench/carry_libs.sh packs it:
#
#   tar -xzf build/carry.tgz && bash bench/h200_l2_wgpu.sh
#
# 1. `hierarchy --curve latency --budget 60` with the device-wide chase as built (read-modify-write
#    hops), then bench/h200_hierarchy_check.py against CUDA's l2CacheSize and pointer chase
#    (results/hierarchy-h200-2026-12-03/cuda.json). Steps hierarchy, check.
# 2. What wgpu hands the driver, run by Dawn: the kernels whose Deno/Dawn ratio was outside 0.9-1.1,
#    as shipped and (a) with naga's loop guard written into every loop (bench/variants/naga-loop-guard),
#    (b) with Dawn's Vulkan memory model off (WGB_DAWN_TOGGLES=-use_vulkan_memory_model: Tint then
#    declares the GLSL450 memory model, as naga does). Two alternating rounds. Steps wgpu-*.
# 3. f16-fma-vec4 and f32-fma-vec4 as built and in two loop forms without the early return
#    (bench/variants/fma-vec4-*-noreturn). Steps fma-*.
# Everything goes under $OUT (or ./h200-out) as h200-l2-wgpu.tgz, rewritten after every step. Never
# changes the GPU's clocks or settings: it only reads them.
set -uo pipefail
out=${OUT:-$PWD/h200-out}
res="$out/l2-wgpu"
tag=h200-l2-wgpu
mkdir -p "$res"
archive() { tar -C "$out" -czf "$out/h200-l2-wgpu.tgz" l2-wgpu; }
# shellcheck source=bench/h200_steps.sh
source "$(dirname "${BASH_SOURCE[0]}")/h200_steps.sh"
export COLUMNS=100
nvidia-smi >"$res/nvidia-smi.txt" 2>&1
wgb --version >"$res/version.txt" 2>&1
step hierarchy wgb hierarchy --curve latency --budget 60 --json "$res/hierarchy.json"
step report wgb report "$res/hierarchy.json" -o "$res/hierarchy.html"
step check python3 bench/h200_hierarchy_check.py "$res/hierarchy.json" results/hierarchy-h200-2026-12-03/cuda.json
ids=tile-direct,tile-shared,tile-shared-padded,write-scatter-16kb,atomic-direct
V=bench/variants
for r in 1 2; do
  step "wgpu-shipped-$r" wgb run --quiet --filter "$ids" --json "$res/wgpu-shipped-$r.json"
  step "wgpu-guard-$r" wgb run --quiet --kernel-dir "$V/naga-loop-guard" --filter "$ids" --json "$res/wgpu-guard-$r.json"
  step "wgpu-glsl450-$r" env WGB_DAWN_TOGGLES=-use_vulkan_memory_model ./scripts/wgb run --quiet --filter "$ids" \
    --json "$res/wgpu-glsl450-$r.json"
done
for r in 1 2; do
  step "fma-built-$r" wgb run --quiet --experimental --filter f16-fma-vec4,f32-fma-vec4 --json "$res/fma-built-$r.json"
  for v in trips-1-noreturn inner4-noreturn; do
    step "fma-$v-$r" wgb run --quiet --experimental --kernel-dir "$V/fma-vec4-$v" --filter f16-fma-vec4,f32-fma-vec4 \
      --json "$res/fma-$v-$r.json"
  done
done
gpu_state
archive
log "archive $out/h200-l2-wgpu.tgz"
[ -n "${OUT:-}" ] && rm -rf "$res"
exit 0
