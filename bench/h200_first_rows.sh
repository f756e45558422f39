#!/usr/bin/env bash
# The first rows of the default suite against the device's streaming rates, and the api family
# against CUDA's transfers, in ONE call on the lent H200 machine (run there from the repository root;
# carry build/carry.tgz made by bench/carry_libs.sh, and start the command with
# `tar -xzf build/carry.tgz && bash bench/h200_first_rows.sh`). About 5 minutes. Writes every
# document and log into a work folder (WGB_WORK, default /tmp/wgb-first-rows) and packs it into
# $OUT/h200-first-rows.tgz after every step, plus $OUT/table.md at the end: the device tool returns
# at most eight files. Never changes the GPU's clocks or settings.
#
# Steps (docs/method.md#streaming, docs/api-cost.md):
#   default         the default suite, as a new user runs it (its first rows: read-linear, write-linear)
#   bandwidth-1g    read-linear and write-linear at --bandwidth-mib 1024 in the same call
#   api             the api family (uploads, read-backs, the copy command, dispatches, submits, pipelines)
#   sweep-copy      copyBufferToBuffer at 4 MiB, 64 MiB and 1 GiB (an engine's rate is flat in size)
#   memory-copy-64  the memory suite's compute-kernel copy at 64 MiB (the same bytes through a shader)
#   sweep-upload    writeBuffer at 1, 4, 16 and 64 MiB (Dawn's 4 MiB upload ring)
#   cuda            the CUDA reference's streams, copies and transfers (bench/cuda_reference.sh)
# Then bench/h200_first_rows_table.py writes table.md with the figures that decide: the default
# suite's read-linear and write-linear within 3 % of the same kernels at 1 GiB, and the copy
# command within 10 % of CUDA's device-to-device copy or the gap explained by the copy measurements.
# WGB_H200_SKIP="name ..." leaves steps out.
set -uo pipefail
out=${OUT:-$PWD/h200-out}
work=${WGB_WORK:-/tmp/wgb-first-rows}
res="$work/first-rows"
mkdir -p "$res" "$out"
tag=first-rows
archive() { tar -C "$work" -czf "$out/h200-first-rows.tgz" first-rows; }
# shellcheck source=bench/h200_steps.sh
source bench/h200_steps.sh

nvidia-smi >"$res/nvidia-smi.txt" 2>&1
lscpu >"$res/lscpu.txt" 2>&1
step devices wgb devices --json
step default wgb run --quiet --json "$res/default.json" --csv "$res/default.csv"
step bandwidth-1g wgb run --quiet --bandwidth-mib 1024 --filter 'read-linear,write-linear' --json "$res/bandwidth-1g.json"
step api wgb run --quiet --filter 'upload-*,readback-*,copy-buffer-to-buffer,dispatch-overhead,submit-latency,pipeline-create' \
  --json "$res/api.json"
step sweep-copy wgb sweep copy-buffer-to-buffer --values 4M,64M,1G --quiet --json "$res/sweep-copy.json"
step memory-copy-64 wgb memory --quiet --working-set 64 --phases copy --json "$res/memory-copy-64.json"
step sweep-upload wgb sweep upload-writebuffer --values 1M,4M,16M,64M --quiet --json "$res/sweep-upload.json"
# CUDA at the suite's sizes: 1 GiB streams (its default) and 64 MiB transfers and copies (--api-bytes).
step cuda bash bench/cuda_reference.sh "$res/cuda.json" -- --only \
  read-linear,write-linear,memory-copy,upload-pageable,upload-pinned,readback-pageable,readback-pinned,copy-device-to-device,copy-device-to-device-ce-hint,launch-rate,sync-round-trip
step cuda-64m bash bench/cuda_reference.sh "$res/cuda-64m.json" -- --bandwidth-bytes 64M --only \
  read-linear,write-linear,memory-copy
gpu_state
if command -v python3 >/dev/null; then
  python3 bench/h200_first_rows_table.py "$res" >"$res/table.md" 2>"$res/table.err"
  cp "$res/table.md" "$out/table.md"
  log "table: $out/table.md"
fi
archive
log "archive $out/h200-first-rows.tgz"
