#!/usr/bin/env bash
# Prepared in the second session of 2026-11-30 for the next device session: the open questions of
# issues 8 and 11 in one call, each against the shipped configuration in the same call. Needs the
# H200 recipe's carry (.deps/dawn, build/release/cli/webgpu-bench, .carry) plus
# build/cuda-reference/reference; writes one archive under $OUT.
#   1. Latency (issue 8, 2.8 % over CUDA at 256 MiB, 5-6 ns per hop at 4 MiB): which layer costs the
#      nanoseconds per hop? default / --no-robustness / --no-robustness without the driver's
#      robustBufferAccess2 / the chase unrolled by 16 like nvcc's (bench/variants/chase-unroll16).
#   2. f16 (issue 11, 0.925 of CUDA): B = the vec4<f16> chains as vec2<f16> (bench/variants/f16-vec2),
#      C = a loop body four times as long (bench/variants/fma-vec4-steps64; DEPENDENCIES.md saw
#      126-127 TFLOP/s with long bodies), A/B/C twice, --experimental.
#   3. The sampler's batch re-size: the sequence that gave a false 'throttled' on read-dependent-chain.
#   4. `devices` (memory heaps: is there a host-visible device-local heap beside plain VRAM?).
#   5. CUDA in the same call: write-linear at 1 GiB, memory-latency, read-dependent-chain, f16/f32 FMA.
for f in .carry/*.deb; do dpkg -x $f / ; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; export LD_LIBRARY_PATH="$PWD/.carry/lib:$LD_LIBRARY_PATH"
S="nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active --format=csv,noheader"; $S > $OUT/smi.csv
step() { name=$1; shift; timeout 60 "$@" > $OUT/$name.out 2>&1; echo "$name $?" >> $OUT/steps.txt; }
W=./scripts/wgb
step devices $W devices
for cfg in default norobust norobust-norba2 unroll16; do
  extra=(); envs=()
  case $cfg in
    norobust) extra=(--no-robustness) ;;
    norobust-norba2) extra=(--no-robustness); envs=(WGB_DAWN_TOGGLES=-vulkan_use_buffer_robust_access_2) ;;
    unroll16) extra=(--kernel-dir bench/variants/chase-unroll16) ;;
  esac
  step chain-$cfg env "${envs[@]}" $W run --filter read-dependent-chain "${extra[@]}" -q --json $OUT/chain-$cfg.json
  step lat-$cfg env "${envs[@]}" $W sweep read-latency --values 4M,256M --idle-gap-ms 20 "${extra[@]}" -q --json $OUT/lat-$cfg.json
done
$S >> $OUT/smi.csv
for k in 1 2; do
  step f16-A$k $W run --experimental --filter f16-fma-vec4,f32-fma-vec4 -q --json $OUT/f16-A$k.json
  step f16-B$k $W run --experimental --filter f16-fma-vec4,f32-fma-vec4 --kernel-dir bench/variants/f16-vec2 -q --json $OUT/f16-B$k.json
  step f16-C$k $W run --experimental --filter f16-fma-vec4,f32-fma-vec4 --kernel-dir bench/variants/fma-vec4-steps64 -q --json $OUT/f16-C$k.json
done
step resize $W run --filter write-linear,read-dependent-chain --bandwidth-mib 1024 -q --json $OUT/resize.json
$S >> $OUT/smi.csv
step cuda build/cuda-reference/reference --only write-linear,memory-latency,read-dependent-chain,f16-fma-vec4,f32-fma-vec4 --bandwidth-bytes 1G --json $OUT/cuda.json
$S >> $OUT/smi.csv
(cd "$OUT" && tar czf /tmp/probe.tgz ./* && rm -f ./* && mv /tmp/probe.tgz .)
