#!/usr/bin/env bash
# The ALU probes on the lent H200 in ONE call (about 6 minutes): do they keep their rates against
# CUDA, the last H200 batch and their own previous forms? Run there from the repository root,
# carrying build/carry.tgz (bench/carry_libs.sh):
#   tar -xzf build/carry.tgz && bash bench/h200_alu.sh
# Steps (each a fresh process; the step runner is bench/h200_steps.sh):
#   probes-N, probes-f16-N    every compute row of the catalog, twice (N = 1, 2); the f16 rows and
#                             f32-f16-convert with --experimental, which shader-f16 needs on NVIDIA
#   previous-N, previous-f16-N  the kernels that changed for CPU drivers in their previous form
#                             (bench/variants/alu-previous, through --kernel-dir), in the same call:
#                             f16-fma-scalar with four trips per pass; the division, root,
#                             logarithm, power, sine/cosine, i32-div and
#                             f32-f16-convert kernels with a trip unrolled whole; f32-select, f32-clamp
#                             and f32-minmax without the branch around their steps. The previous vec4
#                             FMA and MAD kernels (four chains) compute other lanes: they fail
#                             validation before they are timed, so the last batch stands for them
#   candidate-N               f32- and f16-fma-vec4 in a candidate form: two trips per pass (faster
#                             on lavapipe for f16), made here from kernels/compute/fma_vec4.wgsl
#   fixtures                  the plain fixture kernels (tests/fixtures/alu), as on lavapipe
#   cuda                      the CUDA reference for the rows it has (bench/cuda_reference.sh)
# Then bench/h200_alu_check.py: the f32, i32, dp4a and f16 rows within 3 % of CUDA (or no lower than
# the last batch's fraction where that was already below 0.97), every compute row within 2 % of the
# last H200 batch (results/h200-2026-12-01-catalog) or above, and each changed kernel within 2 % of
# its previous form or above; the candidate forms are listed beside CUDA, for information. Its table goes to $OUT/check.txt; everything, into $OUT/h200-alu.tgz
# (rewritten after every step, so a call cut off still returns what completed). Exit status 1 when
# a row lost. WGB_H200_SKIP="name ..." leaves steps out. Never changes the GPU's clocks or settings.
set -uo pipefail
out=${OUT:-$PWD/h200-alu-out}
work=${WGB_WORK:-/tmp/wgb-alu}
res="$work/alu"
mkdir -p "$res" "$out"
tag=h200-alu
archive() { tar -C "$work" -czf "$out/h200-alu.tgz" alu; }
# shellcheck source=bench/h200_steps.sh
source bench/h200_steps.sh

f16='f16-*,f32-f16-convert'
rest=$(wgb list --json | python3 -c 'import json, sys
print(",".join(b["id"] for b in json.load(sys.stdin)
               if b["category"] == "compute" and not b["id"].startswith("f16-") and b["id"] != "f32-f16-convert"))')
changed='f32-select,f32-clamp,f32-minmax,f32-div,f32-sqrt,f32-rsqrt,f32-log,f32-pow,f32-sincos,i32-div'
changed_f16='f16-fma-scalar,f16-div,f16-sqrt,f16-rsqrt,f16-log,f16-pow,f16-sincos,f32-f16-convert'
nvidia-smi >"$res/nvidia-smi.txt" 2>&1
# The candidate vec4 form, made from the shipped kernel so that it cannot drift: two trips per pass
# (64 steps of the two chains) instead of four (128).
candidate="$work/alu-candidate"
mkdir -p "$candidate/compute"
sed -e 's#p.iterations / 4u;#p.iterations / 2u;#' -e 's#passes \* 4u;#passes * 2u;#' -e 's#^//\#repeat s 128$#//\#repeat s 64#' \
  kernels/compute/fma_vec4.wgsl >"$candidate/compute/fma_vec4.wgsl"
if [ "$(grep -c -e 'iterations / 2u;' -e 'passes \* 2u;' -e '^//#repeat s 64$' "$candidate/compute/fma_vec4.wgsl")" != 3 ]; then
  log "the candidate vec4 form could not be made (kernels/compute/fma_vec4.wgsl changed): its steps are skipped"
  WGB_H200_SKIP="${WGB_H200_SKIP:-} candidate-1 candidate-2"
fi
for r in 1 2; do
  step "probes-$r" wgb run --quiet --filter "$rest" --json "$res/probes-$r.json"
  step "probes-f16-$r" wgb run --quiet --experimental --filter "$f16" --json "$res/probes-f16-$r.json"
  step "previous-$r" wgb run --quiet --kernel-dir bench/variants/alu-previous --filter "$changed" \
    --json "$res/previous-$r.json"
  step "previous-f16-$r" wgb run --quiet --experimental --kernel-dir bench/variants/alu-previous \
    --filter "$changed_f16" --json "$res/previous-f16-$r.json"
  step "candidate-$r" wgb run --quiet --experimental --kernel-dir "$candidate" \
    --filter 'f32-fma-vec4,f16-fma-vec4' --json "$res/candidate-$r.json"
done
step fixtures wgb run --quiet --experimental --kernel-dir tests/fixtures/alu --filter "$rest,$f16" \
  --json "$res/fixtures.json"
step cuda bash bench/cuda_reference.sh "$res/cuda.json" -- \
  --only f32-fma-scalar,f32-fma-vec4,i32-mad-scalar,i32-mad-vec4,i8-dp4a,f16-fma-vec4,f32-clamp,f32-minmax
python3 bench/h200_alu_check.py "$res" results/h200-2026-12-01-catalog/part1 >"$res/check.txt" 2>&1
rc=$?
cp "$res/check.txt" "$out/check.txt"
cat "$res/check.txt"
gpu_state
archive
log "archive $out/h200-alu.tgz (check exit $rc)"
exit $rc
