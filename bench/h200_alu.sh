#!/usr/bin/env bash
# The ALU probes on the lent H200 in one device call (about 5 minutes): do they keep their rates?
#   1. every compute row of the catalog, twice (f16 rows and f32-f16-convert with --experimental,
#      which shader-f16 needs on NVIDIA's driver);
#   2. the previous forms of the kernels that changed for CPU drivers (bench/variants/alu-previous:
#      the vec4 FMA and MAD probes with four chains; the division, square-root, logarithm, power and
#      sine/cosine probes, i32-div and f32-f16-convert with a trip unrolled whole; f32-select,
#      f32-clamp and f32-minmax without the branch around their steps) in the same call; the vec4
#      forms compute other lanes, so their rows fail validation by design and only their rates are read;
#   3. the plain fixture kernels (tests/fixtures/alu, as on lavapipe), once;
#   4. the CUDA reference for the probes it has (bench/cuda_reference.sh);
#   5. bench/h200_alu_check.py: f32, i32, dp4a and f16 rows against CUDA (within 3 %, or no lower than
#      the last batch's fraction where that was already below), every compute row against the last
#      H200 batch (docs/results/h200-2026-12-01-catalog), and the changed kernels against their
#      previous forms in this call. Its table is check.txt; exit status 1 when a row lost.
# Run from the repository root with the build carried (bench/carry_libs.sh makes build/carry.tgz):
#   tar -xzf build/carry.tgz && bash bench/h200_alu.sh
# Everything goes under $OUT (or ./h200-alu-out) and into one archive, $OUT/h200-alu.tgz.
set -uo pipefail
out=${OUT:-$PWD/h200-alu-out}
res="$out/alu"
mkdir -p "$res"
for f in .carry/*.deb; do dpkg -x "$f" / ; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH="$PWD/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
log() { printf '[h200-alu %s] %s\n' "$(date +%T)" "$*" | tee -a "$res/log.txt" >&2; }
gpu_state() {
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active \
    --format=csv,noheader >>"$res/gpu_state.csv" 2>&1
}
step() {  # step NAME CMD...: never aborts the call; archives after every step
  local name=$1 t0 rc; shift
  t0=$(date +%s); gpu_state
  timeout 240 "$@" >"$res/$name.out" 2>"$res/$name.err"; rc=$?
  log "$name rc=$rc wall=$(( $(date +%s) - t0 ))s"
  echo "$name $rc $(( $(date +%s) - t0 ))" >>"$res/steps.txt"
  tar -C "$out" -czf "$out/h200-alu.tgz" alu
}
wgb() { ./scripts/wgb run --quiet "$@"; }
f16='f16-*,f32-f16-convert'
rest=$(./scripts/wgb list --json | python3 -c 'import json, sys
print(",".join(b["id"] for b in json.load(sys.stdin)
               if b["category"] == "compute" and not b["id"].startswith("f16-") and b["id"] != "f32-f16-convert"))')
changed='f32-fma-vec4,i32-mad-vec4,f32-select,f32-clamp,f32-minmax,f32-div,f32-sqrt,f32-rsqrt,f32-log,f32-pow,f32-sincos,i32-div'
changed_f16='f16-fma-vec4,f16-div,f16-sqrt,f16-rsqrt,f16-log,f16-pow,f16-sincos,f32-f16-convert'
nvidia-smi >"$res/nvidia-smi.txt" 2>&1
for r in 1 2; do
  step "probes-$r" wgb --filter "$rest" --json "$res/probes-$r.json"
  step "probes-f16-$r" wgb --experimental --filter "$f16" --json "$res/probes-f16-$r.json"
  step "previous-$r" wgb --kernel-dir bench/variants/alu-previous --filter "$changed" --json "$res/previous-$r.json"
  step "previous-f16-$r" wgb --experimental --kernel-dir bench/variants/alu-previous --filter "$changed_f16" \
    --json "$res/previous-f16-$r.json"
done
step fixtures wgb --experimental --kernel-dir tests/fixtures/alu --filter "$rest,$f16" --json "$res/fixtures.json"
step cuda bash bench/cuda_reference.sh "$res/cuda.json" -- \
  --only f32-fma-scalar,f32-fma-vec4,i32-mad-scalar,i32-mad-vec4,i8-dp4a,f16-fma-vec4,f32-clamp,f32-minmax
python3 bench/h200_alu_check.py "$res" docs/results/h200-2026-12-01-catalog/part1 >"$res/check.txt" 2>&1
rc=$?
cat "$res/check.txt"
gpu_state
tar -C "$out" -czf "$out/h200-alu.tgz" alu
log "archive $out/h200-alu.tgz (check exit $rc)"
exit $rc
