#!/usr/bin/env bash
# Run on the H200 in the third session of 2026-11-30 as of commit c9e0fda (results and the exact
# command: docs/results/h200-2026-11-30.md, "Third session"). Its variant C (four loop trips per pass,
# bench/variants/fma-vec4-steps64) then became the shipped kernels/compute/fma_vec4.wgsl, so the C
# steps were taken out; the rest runs as it ran.
# Prepared in the second session of 2026-11-30 for the next device session: the open questions of
# the CUDA comparison (memory gaps and f16) in one call, each against the shipped configuration in
# the same call. Needs the H200 recipe's carry (.deps/dawn, build/release/cli/webgpu-bench, .carry) plus
# build/cuda-reference/reference (bench/cuda_reference.sh --sass-only builds it); writes one archive
# under $OUT (the device returns at most eight files).
#
#   1. Write gap and per-hop latency against CUDA. Hypothesis: Dawn's SPIR-V uses the Vulkan memory
#      model and marks every access to a read_write storage buffer NonPrivatePointer (every store of
#      write-linear; none of read-linear's or the chase's loads, whose buffers are read-only), and the
#      driver gives such accesses a slower form. Tested from both sides in one call:
#        WebGPU, per configuration: default / --no-robustness / also without robustBufferAccess2 /
#          WGB_DAWN_TOGGLES=-use_vulkan_memory_model (GLSL450 model: no NonPrivatePointer) / the chase
#          unrolled by 16 like nvcc's (bench/variants/chase-unroll16) / the chase bound read_write
#          (made from kernels/ below: NonPrivatePointer loads) with and without the Vulkan model;
#        CUDA: plain st.global / ld.global against st.relaxed.gpu / ld.relaxed.gpu (the strong PTX
#          forms) in write-linear, memory-latency and read-dependent-chain.
#   2. f16 (0.925 of CUDA): B = vec2<f16> chains (bench/variants/f16-vec2), (C, a loop body
#      four times as long, was run, then shipped), A/B twice, --experimental.
#   3. The sampler's batch re-size on the sequence that once gave a false 'throttled'.
#   4. `devices` (memory heaps).
for f in .carry/*.deb; do dpkg -x "$f" / ; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; export LD_LIBRARY_PATH="$PWD/.carry/lib:$LD_LIBRARY_PATH"
S="nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active --format=csv,noheader"; $S > "$OUT"/smi.csv
step() { name=$1; shift; timeout 60 "$@" > "$OUT/$name.out" 2>&1; echo "$name $?" >> "$OUT"/steps.txt; }
W=./scripts/wgb
# The read_write chase: the shipped chase kernels with the chain's binding read_write instead of
# read (Dawn then marks each hop's load NonPrivatePointer), made from kernels/ so they cannot drift.
rw=$(mktemp -d)
for k in bandwidth/read_latency memory/chase technique/dependent_chain; do
  mkdir -p "$rw/$(dirname $k)"
  sed -E 's/var<storage, read> (chain|next): array<u32>;/var<storage, read_write> \1: array<u32>;/' "kernels/$k.wgsl" > "$rw/$k.wgsl"
  grep -q 'var<storage, read_write> \(chain\|next\)' "$rw/$k.wgsl" || { echo "no chain binding in kernels/$k.wgsl" >&2; exit 2; }
done
step devices $W devices
for cfg in default norobust norobust-norba2 novkmm unroll16 readwrite readwrite-novkmm; do
  extra=(); t=""
  case $cfg in
    norobust) extra=(--no-robustness) ;;
    norobust-norba2) extra=(--no-robustness); t=-vulkan_use_buffer_robust_access_2 ;;
    novkmm) t=-use_vulkan_memory_model ;;
    unroll16) extra=(--kernel-dir bench/variants/chase-unroll16) ;;
    readwrite) extra=(--kernel-dir "$rw") ;;
    readwrite-novkmm) extra=(--kernel-dir "$rw"); t=-use_vulkan_memory_model ;;
  esac
  step run-$cfg env WGB_DAWN_TOGGLES=$t $W run --filter write-linear,read-dependent-chain --bandwidth-mib 1024 "${extra[@]}" -q --json "$OUT"/run-$cfg.json
  step lat-$cfg env WGB_DAWN_TOGGLES=$t $W sweep read-latency --values 4M,256M --idle-gap-ms 20 "${extra[@]}" -q --json "$OUT"/lat-$cfg.json
done
$S >> "$OUT"/smi.csv
step cuda build/cuda-reference/reference --only write-linear,write-linear-relaxed-gpu,memory-latency,memory-latency-relaxed-gpu,read-dependent-chain,read-dependent-chain-relaxed-gpu,f16-fma-vec4,f32-fma-vec4 --bandwidth-bytes 1G --json "$OUT"/cuda.json
$S >> "$OUT"/smi.csv
for k in 1 2; do
  step f16-A$k $W run --experimental --filter f16-fma-vec4,f32-fma-vec4 -q --json "$OUT"/f16-A$k.json
  step f16-B$k $W run --experimental --filter f16-fma-vec4,f32-fma-vec4 --kernel-dir bench/variants/f16-vec2 -q --json "$OUT"/f16-B$k.json
done
step resize $W run --filter write-linear,read-dependent-chain --bandwidth-mib 1024 -q --json "$OUT"/resize.json
$S >> "$OUT"/smi.csv
(cd "$OUT" && tar czf /tmp/probe.tgz ./* && rm -f ./* && mv /tmp/probe.tgz .)
