#!/usr/bin/env bash
# Third session of 2026-11-30, the last two CUDA memory gaps (results: docs/results/h200-2026-11-30.md,
# "Third session"). Needs the H200 recipe's carry plus build/cuda-reference/reference; writes one
# archive under $OUT.
#   1. Write/copy: the CUDA reference times each launch alone behind an idle spin kernel, the suite
#      times back-to-back dispatches in one pass. Hypothesis: a lone launch ends with up to an L2's
#      worth of dirty lines that drain during the next spin kernel, outside the timed window, so CUDA's
#      write (and copy) figures are inflated. Tested with the *-batched probes (16 back-to-back
#      launches per timing) beside the single-launch ones, at 1 GiB and 512 MiB, and the suite's
#      write-linear/read-linear at 1 GiB and memory suite read/write/copy at 512 MiB in the same call.
#   2. Latency: the chase walked from each SM in turn, now after a 400 ms warm walk, twice.
. bench/h200_probe_env.sh
gpu_state
R=build/cuda-reference/reference
W=./scripts/wgb
bw="read-linear,read-linear-batched,write-linear,write-linear-batched,memory-copy,memory-copy-batched"
step cuda-1g $R --only "$bw" --bandwidth-bytes 1G --json "$OUT"/cuda-1g.json
step wgb-1g $W run --filter read-linear,write-linear --bandwidth-mib 1024 -q --json "$OUT"/wgb-1g.json
step cuda-512m $R --only "$bw" --bandwidth-bytes 512M --json "$OUT"/cuda-512m.json
step wgb-memory-512 $W memory --working-set 512 --phases read,write,copy -q --json "$OUT"/wgb-memory-512.json
gpu_state
for k in 1 2; do
  step cuda-lat$k $R --only memory-latency,read-dependent-chain,memory-latency-per-sm,read-dependent-chain-per-sm --json "$OUT"/cuda-lat$k.json
  step wgb-lat$k $W sweep read-latency --values 4M,256M -q --json "$OUT"/wgb-lat$k.json
done
gpu_state
pack
