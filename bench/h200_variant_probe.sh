#!/usr/bin/env bash
# One device call (2026-11-30, second session): kernel-form experiments for the write and
# latency gaps to CUDA, A/B against the shipped kernels in the same call, with the CUDA reference.
#   A = build/release/cli/webgpu-bench (the kernels as committed)
#   B = build/variant/webgpu-bench, built from the same tree with
#       docs/results/h200-2026-11-30/variant-probe/variant-kernels.patch applied (git apply):
#       write-linear with 32-bit stores; the pointer chases' chain bound read_write instead of read
# Needs the H200 recipe's carry (.deps/dawn, .carry, both binaries, build/cuda-reference/reference).
for f in .carry/*.deb; do dpkg -x $f / ; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; export LD_LIBRARY_PATH="$PWD/.carry/lib:$LD_LIBRARY_PATH"
S="nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active --format=csv,noheader"; $S > $OUT/smi.csv
A=build/release/cli/webgpu-bench; B=build/variant/webgpu-bench
step() { name=$1; shift; timeout 40 "$@" > $OUT/$name.out 2>&1; echo "$name $?" >> $OUT/steps.txt; }
for k in 1 2; do
  for v in A B; do
    bin=${!v}
    step run-$v$k env WGB_BIN=$bin ./scripts/wgb run --filter write-linear,read-dependent-chain --bandwidth-mib 1024 -q --json $OUT/run-$v$k.json
    step lat-$v$k env WGB_BIN=$bin ./scripts/wgb sweep read-latency --values 4M,256M --idle-gap-ms 20 -q --json $OUT/lat-$v$k.json
  done
done
$S >> $OUT/smi.csv
step mem-A env WGB_BIN=$A ./scripts/wgb memory --phases latency --latency-budget-ms 2000 --json $OUT/mem-A.json
step mem-B env WGB_BIN=$B ./scripts/wgb memory --phases latency --latency-budget-ms 2000 --json $OUT/mem-B.json
step cuda build/cuda-reference/reference --only write-linear,memory-latency,read-dependent-chain --bandwidth-bytes 1G --json $OUT/cuda.json
$S >> $OUT/smi.csv
(cd "$OUT" && tar czf /tmp/probe.tgz ./* && rm -f ./* && mv /tmp/probe.tgz .)
