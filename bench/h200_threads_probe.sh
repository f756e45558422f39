#!/usr/bin/env bash
# Third session of 2026-11-30, the CUDA write gap (results: docs/results/h200-2026-11-30-third.md).
# Does the gap depend on the number of invocations in flight? write-linear and read-linear at 1 GiB
# with N invocations (the suite's --compute-threads) and N CUDA threads (the reference's
# --bandwidth-threads), N from 16K (under one wave of 132 SMs x 2048) to the default (one step of
# four elements each: 16M), each N on both sides back to back. Needs the H200 recipe's carry plus
# build/cuda-reference/reference; writes one archive under $OUT.
. bench/h200_probe_env.sh
gpu_state
for n in 16384 65536 262144 1048576 4194304 0; do
  cuda_threads=(); wgb_threads=()
  if [ "$n" != 0 ]; then cuda_threads=(--bandwidth-threads "$n"); wgb_threads=(--compute-threads "$n"); fi
  step cuda-$n build/cuda-reference/reference --only write-linear,read-linear --bandwidth-bytes 1G "${cuda_threads[@]}" --json "$OUT"/cuda-$n.json
  step wgb-$n ./scripts/wgb run --filter write-linear,read-linear --bandwidth-mib 1024 "${wgb_threads[@]}" -q --json "$OUT"/wgb-$n.json
done
gpu_state
pack
