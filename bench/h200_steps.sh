# shellcheck shell=bash disable=SC2154  # res and tag are set by the script that sources this one
# Sourced by the one-call H200 batches (bench/h200.sh, bench/h200_first_rows.sh): the GPU machine's
# setup (the carried Vulkan loader and libraries, the NVIDIA driver's ICD) and the step runner. The
# caller sets `res` (the folder results go to) and `tag` (the log's name), and defines archive(),
# which packs what completed; every step archives, so a call that is cut off still returns it.
for f in .carry/*.deb; do dpkg -x "$f" / ; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
# The program's Debian libraries that the GPU machine's Ubuntu lacks ({fmt}, SQLite, libpq, cpp-httplib
# and their dependencies), copied from the build machine into .carry/lib (bench/carry_libs.sh).
export LD_LIBRARY_PATH="$PWD/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
log() { printf '[%s %s] %s\n' "$tag" "$(date +%T)" "$*" | tee -a "$res/log.txt" >&2; }
gpu_state() {  # read only: the clocks, temperature, power and throttle reasons are never changed
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,clocks_throttle_reasons.active \
    --format=csv,noheader >>"$res/gpu_state.csv" 2>&1
}
wgb() { ./scripts/wgb "$@"; }
step() {  # step NAME CMD... : runs one step, records its exit code and wall time, never aborts the batch
  local name=$1; shift
  local t0 t1 rc
  case " ${WGB_H200_SKIP:-} " in *" $name "*) log "skip $name (WGB_H200_SKIP)"; return 0 ;; esac
  t0=$(date +%s)
  gpu_state
  log "start $name: $*"
  "$@" >"$res/$name.out" 2>"$res/$name.err"
  rc=$?
  t1=$(date +%s)
  gpu_state
  log "end $name rc=$rc wall=$((t1 - t0))s"
  echo "$name $rc $((t1 - t0))" >>"$res/steps.txt"
  archive
}
