#!/usr/bin/env bash
# Third session of 2026-11-30, the CUDA write gap (results: docs/results/h200-2026-11-30-third.md).
# Does CUDA write as slowly as WebGPU into buffers the Vulkan driver allocated? Runs
# bench/experiments/vk_import_write.cu (Vulkan buffers made as Dawn makes a storage buffer, exported
# as opaque file descriptors and imported into CUDA; the reference's write and read kernels on them
# and on cudaMalloc buffers, interleaved, three rounds), then the suite's write-linear and the CUDA
# reference's at 1 GiB in the same call.
# Build it where nvcc and the Vulkan headers are (libvulkan-dev), then carry the binary:
#   nvcc -O3 -arch=sm_90 -std=c++17 -Ireference/cuda bench/experiments/vk_import_write.cu \
#        -o build/vk-import/vk_import_write -ldl
# Needs the H200 recipe's carry plus that binary and build/cuda-reference/reference.
. bench/h200_probe_env.sh
step vk-import build/vk-import/vk_import_write
step cuda build/cuda-reference/reference --only write-linear,read-linear --bandwidth-bytes 1G --json "$OUT"/cuda.json
step wgb ./scripts/wgb run --filter write-linear,read-linear --bandwidth-mib 1024 -q --json "$OUT"/wgb.json
pack
