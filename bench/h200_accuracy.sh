#!/usr/bin/env bash
# The accuracy of every floating-point builtin probe beside its speed on the lent H200 (one device
# call, a few minutes; docs/method.md#accuracy). Run there from the repository root with the build
# carried as bench/carry_libs.sh packs it:
#
#   tar -xzf build/carry.tgz && bash bench/h200_accuracy.sh
#
# in a checkout of the tree the program was built from (the device tool copies the session's main
# checkout, not a worktree: run it from a checkout of this tree).
#
# Runs the thirteen builtin probes with `run --accuracy`: once with --experimental, which makes
# Dawn offer shader-f16 on NVIDIA's Vulkan driver (the f16 rows and conversions; the rows say the
# toggle was used), and once without it, where the f16 entries must be skipped with the reason.
# Writes everything under $OUT (or ./h200-out) and packs it into one archive, h200-accuracy.tgz;
# under the device tool ($OUT set) only the archive is left, as the tool returns at most eight files.
# Never changes the GPU's clocks or settings: it only reads them.
set -uo pipefail
out=${OUT:-$PWD/h200-out}
res="$out/accuracy"
mkdir -p "$res"
log() { printf '[h200-accuracy %s] %s\n' "$(date +%T)" "$*" | tee -a "$res/log.txt" >&2; }

for f in .carry/*.deb; do dpkg -x "$f" / ; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH="$PWD/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export COLUMNS=100
probes="f32-div,f32-sqrt,f32-rsqrt,f32-log,f32-pow,f32-sincos,f16-div,f16-sqrt,f16-rsqrt,f16-log,f16-pow,f16-sincos,f32-f16-convert"
gpu_state() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,clocks_throttle_reasons.active \
    --format=csv,noheader >>"$res/gpu_state.csv" 2>&1
}
step() {  # step NAME CMD...: records exit code and wall time, never aborts the batch, archives after each
  local name=$1; shift
  local t0 rc
  t0=$(date +%s)
  gpu_state
  log "start $name: $*"
  "$@" >"$res/$name.out" 2>"$res/$name.err"
  rc=$?
  gpu_state
  log "end $name rc=$rc wall=$(($(date +%s) - t0))s"
  echo "$name $rc $(($(date +%s) - t0))" >>"$res/steps.txt"
  tar -C "$out" -czf "$out/h200-accuracy.tgz" accuracy
}

nvidia-smi >"$res/nvidia-smi.txt" 2>&1
lscpu >"$res/lscpu.txt" 2>&1
step accuracy ./scripts/wgb run --quiet --experimental --accuracy --filter "$probes" --json "$res/accuracy.json"
step accuracy-no-f16 ./scripts/wgb run --quiet --accuracy --filter "f32-sqrt,f16-sqrt,f32-f16-convert" \
  --json "$res/accuracy-no-f16.json"
step report ./scripts/wgb report "$res/accuracy.json" -o "$res/accuracy.html"
gpu_state
tar -C "$out" -czf "$out/h200-accuracy.tgz" accuracy
log "archive $out/h200-accuracy.tgz"
[ -n "${OUT:-}" ] && rm -rf "$res"
exit 0
