#!/usr/bin/env bash
# The memory hierarchy inferred on the lent H200 against what CUDA reports (one device call, about
# 6 minutes; docs/method.md#hierarchy). Run there from the repository root with the build carried as
# bench/carry_libs.sh packs it:
#
#   tar -xzf build/carry.tgz && bash bench/h200_hierarchy.sh
#
# Steps: `hierarchy` (webgpu-bench hierarchy with its defaults: 4 KiB to 1 GiB, four points per
# octave, both curves), `report` (its HTML report), `cuda` (the CUDA reference's device record, with
# cudaDeviceProp::l2CacheSize, and its pointer chase at 4 MiB and 256 MiB: memory-latency and
# read-dependent-chain), then `check` (bench/h200_hierarchy_check.py): the largest capacity the
# inference finds must be within 25 % of l2CacheSize, and the latency curve at 4 MiB and 256 MiB is
# put beside CUDA's chase there. Writes everything under $OUT (or ./h200-out) and packs it into one
# archive, h200-hierarchy.tgz, rewritten after every step; under the device tool ($OUT set) only the
# archive and check.md are left (the tool returns at most eight files). Never changes the GPU's
# clocks or settings: it only reads them.
set -uo pipefail
out=${OUT:-$PWD/h200-out}
res="$out/hierarchy"
tag=h200-hierarchy
mkdir -p "$res"
archive() { tar -C "$out" -czf "$out/h200-hierarchy.tgz" hierarchy; }
# shellcheck source=bench/h200_steps.sh
source "$(dirname "${BASH_SOURCE[0]}")/h200_steps.sh"
export COLUMNS=100

nvidia-smi >"$res/nvidia-smi.txt" 2>&1
lscpu >"$res/lscpu.txt" 2>&1
step hierarchy wgb hierarchy --progress --json "$res/hierarchy.json"
step report wgb report "$res/hierarchy.json" -o "$res/hierarchy.html"
step cuda bash bench/cuda_reference.sh "$res/cuda.json" -- --only memory-latency,read-dependent-chain
step check python3 bench/h200_hierarchy_check.py "$res/hierarchy.json" "$res/cuda.json"
cp "$res/check.out" "$out/check.md" 2>/dev/null
gpu_state
archive
log "archive $out/h200-hierarchy.tgz"
[ -n "${OUT:-}" ] && rm -rf "$res"
exit 0
