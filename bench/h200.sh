#!/usr/bin/env bash
# One batch of measurements on the lent H200 machine (run there from the repository root, with the
# build, the private Dawn prefix and .carry/ carried; see docs/DEPENDENCIES.md). Writes everything
# under $OUT (or ./h200-out) and packs it into one archive, because the device tool returns at most
# eight files. Never changes the GPU's clocks or settings: it only reads them.
#
#   bench/h200.sh part1   default suite (robust and --no-robustness), experimental rows, CUDA reference
#   bench/h200.sh part2   memory suite at 256 and 512 MiB, host CPU suite
# WGB_H200_SKIP="name ..." leaves out the named steps (e.g. "memory-512 host" when device time is short).
# WGB_H200_REPRO="" runs the default suite without its second process (the call's time is short).
# The markdown table is made here afterwards by bench/h200_table.py from the archive's JSON files.
set -uo pipefail
part=${1:-part1}
out=${OUT:-$PWD/h200-out}
mkdir -p "$out/$part"
res="$out/$part"
tag=h200
archive() { tar -C "$out" -czf "$out/h200-$part.tgz" "$part"; }
# shellcheck source=bench/h200_steps.sh
source bench/h200_steps.sh

nvidia-smi >"$res/nvidia-smi.txt" 2>&1
lscpu >"$res/lscpu.txt" 2>&1
case "$part" in
  part1)
    step devices wgb devices --json
    step devices-experimental wgb devices --experimental
    # --repro: the whole procedure again in a second process (docs/method.md#reproducibility).
    # shellcheck disable=SC2086  # an empty WGB_H200_REPRO must vanish
    step default wgb run --quiet ${WGB_H200_REPRO---repro} --json "$res/default.json" --csv "$res/default.csv"
    step no-robustness wgb run --quiet --no-robustness --json "$res/no-robustness.json"
    # Like with like: the CUDA reference streams 1 GiB buffers, so the bandwidth probes run at 1 GiB too.
    step bandwidth-1g wgb run --quiet --bandwidth-mib 1024 --filter 'read-linear,write-linear,read-gather-*,write-scatter-*' --json "$res/bandwidth-1g.json"
    # The cost of WebGPU's own API (not in the default suite; docs/api-cost.md), beside CUDA's transfers and launches.
    step api wgb run --quiet --filter 'upload-*,readback-*,copy-buffer-to-buffer,dispatch-overhead,submit-latency,pipeline-create' --json "$res/api.json"
    step experimental wgb run --quiet --experimental --filter 'f16-*,f32-f16-convert,subgroup-matrix-*' --json "$res/experimental.json"
    step sweep-read wgb sweep read-linear --quiet --json "$res/sweep-read-linear.json"
    step sweep-threads wgb sweep f32-fma-vec4 --param threads --quiet --json "$res/sweep-f32-threads.json"
    # Dependent-load latency at the two footprints compared with CUDA (4 MiB in L2, 256 MiB in HBM).
    step sweep-latency wgb sweep read-latency --values 4M,256M --quiet --json "$res/sweep-read-latency.json"
    if [ -x bench/cuda_reference.sh ]; then step cuda bash bench/cuda_reference.sh "$res/cuda.json"; fi
    ;;
  part2)
    step memory-256 wgb memory --quiet --working-set 256 --json "$res/memory-256.json"
    step memory-512 wgb memory --quiet --working-set 512 --json "$res/memory-512.json"
    # What WebGPU's bounds checks cost a dependent load (the latency phase without robustness).
    step memory-latency-norobust wgb memory --quiet --phases latency --no-robustness --json "$res/memory-latency-no-robustness.json"
    # --repro: the host protocol's second-process re-run (docs/method.md#host-protocol, step 5).
    step host wgb host --repro --json "$res/host.json"
    ;;
esac
gpu_state
archive
log "archive $out/h200-$part.tgz"
