#!/usr/bin/env bash
# One device call (2026-11-30, second session): the write gap and the latency gap to CUDA measured
# against the CUDA reference in the same call. write-linear and read-linear at several sizes (WebGPU
# sweep and CUDA) separate a per-dispatch cost from the streaming rate; read-latency, the memory
# suite's latency phase and CUDA's chase at 256 MiB back to back. Needs the H200 recipe's carry
# (.deps/dawn, the binary, .carry) plus build/cuda-reference/reference; writes under $OUT.
for f in .carry/*.deb; do dpkg -x $f / ; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; export LD_LIBRARY_PATH="$PWD/.carry/lib:$LD_LIBRARY_PATH"; S="nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active --format=csv,noheader"; $S > $OUT/smi.csv; nvidia-smi -q | head -20 > $OUT/nvidia-smi.txt
timeout 60 ./scripts/wgb sweep write-linear --values 128M,256M,512M,1G,1536M --idle-gap-ms 20 -q --json $OUT/sweep-write.json > $OUT/sweep-write.out 2>&1; echo "sweep-write $?" >> $OUT/steps.txt; $S >> $OUT/smi.csv
for s in 128M 512M 1536M; do timeout 30 build/cuda-reference/reference --only write-linear,read-linear --bandwidth-bytes $s --json $OUT/cuda-$s.json > $OUT/cuda-$s.out 2>&1; echo "cuda-$s $?" >> $OUT/steps.txt; done; $S >> $OUT/smi.csv
timeout 40 ./scripts/wgb sweep read-linear --values 128M,512M,1536M --idle-gap-ms 20 -q --json $OUT/sweep-read.json > $OUT/sweep-read.out 2>&1; echo "sweep-read $?" >> $OUT/steps.txt; $S >> $OUT/smi.csv
timeout 30 ./scripts/wgb sweep read-latency --values 256M --idle-gap-ms 20 -q --json $OUT/read-latency.json > $OUT/read-latency.out 2>&1; echo "read-latency $?" >> $OUT/steps.txt
timeout 40 ./scripts/wgb memory --phases latency --latency-budget-ms 2000 --json $OUT/memory-latency.json > $OUT/memory-latency.out 2>&1; echo "memory-latency $?" >> $OUT/steps.txt
timeout 30 build/cuda-reference/reference --only memory-latency --json $OUT/cuda-latency.json > $OUT/cuda-latency.out 2>&1; echo "cuda-latency $?" >> $OUT/steps.txt; $S >> $OUT/smi.csv
# The device returns at most a few files per call: pack everything into one.
(cd "$OUT" && tar czf /tmp/probe.tgz ./* && rm -f ./* && mv /tmp/probe.tgz .)
