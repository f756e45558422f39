#!/usr/bin/env bash
# One call on the lent H200 (about 3 minutes), run there from the repository root with the build
# carried as bench/carry_libs.sh packs it:
#
#   tar -xzf build/carry.tgz && bash bench/h200_final.sh
#
# 1. `hierarchy --curve latency --budget 60` as built, its report, and bench/h200_hierarchy_check.py
#    against CUDA's l2CacheSize and pointer chase (results/hierarchy-h200-2026-12-03/cuda.json).
# 2. f16-fma-vec4 and f32-fma-vec4 as built and with the f16 addend built from the multiplier's two
#    values (bench/variants/f16-vec4-c-ab-trips-1, -4), two alternating rounds.
# Everything goes under $OUT (or ./h200-out) as h200-final.tgz, rewritten after every step. Never
# changes the GPU's clocks or settings: it only reads them.
set -uo pipefail
out=${OUT:-$PWD/h200-out}
res="$out/final"
tag=h200-final
mkdir -p "$res"
archive() { tar -C "$out" -czf "$out/h200-final.tgz" final; }
# shellcheck source=bench/h200_steps.sh
source "$(dirname "${BASH_SOURCE[0]}")/h200_steps.sh"
export COLUMNS=100
nvidia-smi >"$res/nvidia-smi.txt" 2>&1
wgb --version >"$res/version.txt" 2>&1
V=bench/variants
for r in 1 2; do
  step "fma-built-$r" wgb run --quiet --experimental --filter f16-fma-vec4,f32-fma-vec4 --json "$res/fma-built-$r.json"
  for v in c-ab-trips-1 c-ab-trips-4; do
    step "fma-$v-$r" wgb run --quiet --experimental --kernel-dir "$V/f16-vec4-$v" --filter f16-fma-vec4 \
      --json "$res/fma-$v-$r.json"
  done
done
step hierarchy wgb hierarchy --curve latency --budget 60 --json "$res/hierarchy.json"
step report wgb report "$res/hierarchy.json" -o "$res/hierarchy.html"
step check python3 bench/h200_hierarchy_check.py "$res/hierarchy.json" results/hierarchy-h200-2026-12-03/cuda.json
gpu_state
archive
log "archive $out/h200-final.tgz"
[ -n "${OUT:-}" ] && rm -rf "$res"
exit 0
