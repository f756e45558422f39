#!/usr/bin/env bash
# Two questions in one call on the lent H200 (about 6 minutes), run there from the repository root
# with the build carried as bench/carry_libs.sh packs it:
#
#   tar -xzf build/carry.tgz && bash bench/h200_l2_f16.sh
#
# 1. The L2's capacity as the dependent chases see it, with atomic loads against atomic
#    read-modify-writes that change nothing (bench/variants/l2-rmw, l2-load-single): one walker
#    (read-latency) and walkers on every SM (read-latency-spread), the same working sets,
#    `sweep SIZE`. A read-modify-write is performed where its line is homed; a load may be served by
#    a copy near the reader. Steps l2-*.
# 2. f16-fma-vec4 and f32-fma-vec4 in three loop forms, two alternating rounds (`run --filter`):
#    as built (four trips per pass straight-line), one trip per pass (bench/variants/fma-vec4-trips-1)
#    and four one-trip passes under a constant inner loop (bench/variants/fma-vec4-inner4). Steps fma-*.
# Everything goes under $OUT (or ./h200-out) as h200-l2-f16.tgz, rewritten after every step. Never
# changes the GPU's clocks or settings: it only reads them.
set -uo pipefail
out=${OUT:-$PWD/h200-out}
res="$out/l2-f16"
tag=h200-l2-f16
mkdir -p "$res"
archive() { tar -C "$out" -czf "$out/h200-l2-f16.tgz" l2-f16; }
# shellcheck source=bench/h200_steps.sh
source "$(dirname "${BASH_SOURCE[0]}")/h200_steps.sh"
export COLUMNS=100
nvidia-smi >"$res/nvidia-smi.txt" 2>&1
sizes=${WGB_L2_SIZES:-4M,16M,24M,28M,32M,36M,40M,44M,48M,52M,56M,60M,64M,72M,80M,96M,128M,256M}
V=bench/variants
for r in 1 2; do
  step "fma-built-$r" wgb run --quiet --experimental --filter f16-fma-vec4,f32-fma-vec4 --json "$res/fma-built-$r.json"
  step "fma-trips1-$r" wgb run --quiet --experimental --kernel-dir "$V/fma-vec4-trips-1" --filter f16-fma-vec4,f32-fma-vec4 --json "$res/fma-trips1-$r.json"
  step "fma-inner4-$r" wgb run --quiet --experimental --kernel-dir "$V/fma-vec4-inner4" --filter f16-fma-vec4,f32-fma-vec4 --json "$res/fma-inner4-$r.json"
done
step l2-spread-load wgb sweep read-latency-spread --values "$sizes" --json "$res/l2-spread-load.json"
step l2-spread-rmw wgb sweep read-latency-spread --kernel-dir "$V/l2-rmw" --values "$sizes" --json "$res/l2-spread-rmw.json"
step l2-single-rmw wgb sweep read-latency --kernel-dir "$V/l2-rmw" --values "$sizes" --json "$res/l2-single-rmw.json"
step l2-single-atomic wgb sweep read-latency --kernel-dir "$V/l2-load-single" --values "$sizes" --json "$res/l2-single-atomic.json"
step l2-single-load wgb sweep read-latency --values "$sizes" --json "$res/l2-single-load.json"
gpu_state
archive
log "archive $out/h200-l2-f16.tgz"
[ -n "${OUT:-}" ] && rm -rf "$res"
exit 0
