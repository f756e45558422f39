#!/usr/bin/env bash
# Third session of 2026-11-30, issue 8's write gap (results: docs/results/h200-2026-11-30-third.md).
# Does the gap depend on the number of invocations in flight? write-linear and read-linear at 1 GiB
# with N invocations (the suite's --compute-threads) and N CUDA threads (the reference's
# --bandwidth-threads), N from 16K (under one wave of 132 SMs x 2048) to the default (one step of
# four elements each: 16M), each N on both sides back to back. Needs the H200 recipe's carry plus
# build/cuda-reference/reference; writes one archive under $OUT.
for f in .carry/*.deb; do dpkg -x "$f" / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH="$PWD/.carry/lib:$LD_LIBRARY_PATH"
S="nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active --format=csv,noheader"
$S > "$OUT"/smi.csv
step() { name=$1; shift; timeout 120 "$@" > "$OUT/$name.out" 2>&1; echo "$name $?" >> "$OUT"/steps.txt; }
for n in 16384 65536 262144 1048576 4194304 0; do
  cuda_threads=(); wgb_threads=()
  if [ "$n" != 0 ]; then cuda_threads=(--bandwidth-threads "$n"); wgb_threads=(--compute-threads "$n"); fi
  step cuda-$n build/cuda-reference/reference --only write-linear,read-linear --bandwidth-bytes 1G "${cuda_threads[@]}" --json "$OUT"/cuda-$n.json
  step wgb-$n ./scripts/wgb run --filter write-linear,read-linear --bandwidth-mib 1024 "${wgb_threads[@]}" -q --json "$OUT"/wgb-$n.json
done
$S >> "$OUT"/smi.csv
(cd "$OUT" && tar czf /tmp/probe.tgz ./* && rm -rf ./* && mv /tmp/probe.tgz .)
