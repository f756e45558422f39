#!/usr/bin/env bash
# Deno (wgpu on NVIDIA's Vulkan driver) against native Dawn in each native configuration, on the
# default suite, in alternating rounds on the lent H200 machine: one device call, well inside its
# 10 minutes. Two parts:
#
#   bench/h200_runtimes.sh pack   here, after building: packs everything the run needs that git does
#                                 not carry into build/carry-runtimes.tar.xz (see the sizes it prints;
#                                 the device tool carries 64 MiB together with the tracked tree)
#   bench/h200_runtimes.sh run    there, as the whole device command (kind nvidia-h200, carry
#                                 build/carry-runtimes.tar.xz, timeout_s 600): unpacks the carry, then
#                                 runs the comparison under a 540 s deadline so that what completed
#                                 still comes back
#
# `run` writes to $OUT (the device tool returns at most eight files, two folders deep):
#   runtimes.txt    the comparison table as the program prints it (per kernel: each column's rate,
#                   its ratio to native Dawn with standard error and significance, agreement, wall time)
#   runtimes.json   every round of every column (`browser --out`)
#   documents.tgz   every round's result document (`browser --keep`)
#   log.txt, steps.txt, gpu_state.csv, nvidia-smi.txt
# Never changes the GPU's clocks or settings: it only reads them.
#
# WGB_RT_HIERARCHY=1: first, in the same call, `hierarchy --curve latency --budget 60` (the single
# walker and the device-wide chase, 4 KiB to 1 GiB), its report and bench/h200_hierarchy_check.py
# against the CUDA reference's record in results/hierarchy-h200-2026-12-03/cuda.json (l2CacheSize):
# hierarchy.tgz in $OUT; the comparison's deadline shrinks by the time it took.
# WGB_RT_ROUNDS (default 2): alternating rounds. One round is the default suite natively once per
# native configuration (about 60 s each on the H200) and once in Deno; two rounds fit the call.
# WGB_RT_FILTER: a --filter for the comparison (default: the default suite).
# WGB_DENO: the Deno binary for `pack` (default: .deps/deno/bin/deno, where
# `scripts/bootstrap.sh --with-test-tools` installs it, else node_modules/@deno/linux-x64-glibc/deno
# under $WGB_DENO_DIR, where `npm install deno` puts it).
#
# DEPENDS ON the multi-runtime matrix (`webgpu-bench browser --runtime LIST`, its Deno entry script
# and how it finds the Deno binary): written against the command line the plan describes,
#   webgpu-bench browser --runtime deno --rounds N --out FILE --keep DIR
# with the Deno binary named by $WGB_DENO and one native column per gpu::native_configurations()
# entry. Where that command differs, change the two lines marked "matrix:" below.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
part=${1:-run}

if [ "$part" = pack ]; then
  set -e
  deno="${WGB_DENO:-}"
  if [ -z "$deno" ]; then
    deno=.deps/deno/bin/deno
    [ -x "$deno" ] || deno="${WGB_DENO_DIR:-$PWD}/node_modules/@deno/linux-x64-glibc/deno"
  fi
  [ -x "$deno" ] || { echo "h200_runtimes: no Deno binary at $deno (npm install deno, or set WGB_DENO)" >&2; exit 2; }
  [ -x build/release/cli/webgpu-bench ] || { echo "h200_runtimes: build first (scripts/build.sh)" >&2; exit 2; }
  # The Vulkan loader and the Debian libraries the program links (bench/carry_libs.sh does the same).
  mkdir -p .carry/lib build/carry-runtimes
  (cd .carry && apt-get download libvulkan1 >/dev/null)
  L=.deps/dawn/usr/lib/x86_64-linux-gnu
  "$L/ld-linux-x86-64.so.2" --library-path "$L:/usr/lib/x86_64-linux-gnu" --list build/release/cli/webgpu-bench |
    awk '$3 ~ /^\/usr\/lib/ {print $1, $3}' | while read -r name path; do cp -L "$path" ".carry/lib/$name"; done
  # Only the libraries the program loads from the private prefix (not its whole lib folder), the
  # program stripped, Deno as it is (already stripped): xz -9e over the lot.
  keep=$("$L/ld-linux-x86-64.so.2" --library-path "$L:/usr/lib/x86_64-linux-gnu" --list build/release/cli/webgpu-bench |
    awk '{print $3}' | grep -F ".deps/dawn/" | xargs -n1 basename | sort -u)
  stage=build/carry-runtimes
  rm -rf "$stage"/*
  [ -f build/release/web/webgpu-bench-engine.wasm ] ||
    { echo "h200_runtimes: no browser engine; build it first (scripts/build.sh wgb_engine_wasm)" >&2; exit 2; }
  mkdir -p "$stage/$L" "$stage/build/release/cli" "$stage/build/release/web" "$stage/.carry"
  for n in $keep ld-linux-x86-64.so.2; do cp -L "$L/$n" "$stage/$L/$n"; done
  strip -o "$stage/build/release/cli/webgpu-bench" build/release/cli/webgpu-bench
  # The engine Deno runs: the program serves it from beside itself (src/store/web_assets.cpp).
  cp build/release/web/webgpu-bench-engine.wasm "$stage/build/release/web/"
  cp -r .carry/lib .carry/*.deb "$stage/.carry/"
  cp "$deno" "$stage/.carry/deno"
  du -sh "$stage/.carry/deno" "$stage/$L" "$stage/.carry/lib" "$stage/build" | sed 's/^/uncompressed: /'
  # xz's x86 filter before LZMA2 (executables compress about 5 % smaller: 45.3 MB -> 43.0 MB, which
  # is what keeps the carry and the tracked tree under 64 MiB); a dictionary that spans Deno.
  (cd "$stage" && tar -cf - .carry .deps build | xz --x86 --lzma2=preset=9e,dict=128MiB -T1 >../carry-runtimes.tar.xz)
  tracked=$(git ls-files -z | xargs -0 du -cb | tail -1 | cut -f1)
  packed=$(stat -c %s build/carry-runtimes.tar.xz)
  echo "build/carry-runtimes.tar.xz: $((packed >> 20)) MiB; tracked tree $((tracked >> 20)) MiB; together" \
    "$(((packed + tracked) >> 20)) MiB of the 64 MiB the device tool carries"
  exit 0
fi

[ "$part" = run ] || { echo "usage: bench/h200_runtimes.sh pack|run" >&2; exit 2; }
out=${OUT:-$PWD/h200-runtimes-out}
mkdir -p "$out"
work=$(mktemp -d)
log() { printf '[h200-runtimes %s] %s\n' "$(date +%T)" "$*" | tee -a "$out/log.txt" >&2; }

# The carry: tar's xz where the machine has it, else Python's.
if [ ! -x .carry/deno ]; then
  tar -xJf build/carry-runtimes.tar.xz 2>/dev/null ||
    python3 -c 'import lzma, tarfile; tarfile.open(fileobj=lzma.open("build/carry-runtimes.tar.xz")).extractall()' ||
    { log "cannot unpack build/carry-runtimes.tar.xz (carried?)"; exit 2; }
fi
for f in .carry/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH="$PWD/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x .carry/deno
export WGB_DENO="$PWD/.carry/deno"  # matrix: how the Deno column finds its runtime
gpu_state() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,clocks_throttle_reasons.active \
    --format=csv,noheader >>"$out/gpu_state.csv" 2>&1
}
nvidia-smi >"$out/nvidia-smi.txt" 2>&1
"$WGB_DENO" --version >>"$out/log.txt" 2>&1
./scripts/wgb --version >>"$out/log.txt" 2>&1
./scripts/wgb devices >>"$out/log.txt" 2>&1

deadline=540
if [ "${WGB_RT_HIERARCHY:-}" = 1 ]; then
  h0=$(date +%s)
  hier="$work/hierarchy"
  mkdir -p "$hier"
  gpu_state
  log "start: hierarchy --curve latency --budget 60"
  COLUMNS=100 timeout --signal=INT --kill-after=20 150 ./scripts/wgb hierarchy --curve latency --budget 60 \
    --json "$hier/hierarchy.json" >"$hier/hierarchy.out" 2>"$hier/hierarchy.err"
  hrc=$?
  ./scripts/wgb report "$hier/hierarchy.json" -o "$hier/hierarchy.html" >"$hier/report.out" 2>&1
  python3 bench/h200_hierarchy_check.py "$hier/hierarchy.json" results/hierarchy-h200-2026-12-03/cuda.json \
    >"$hier/check.md" 2>&1
  tar -C "$work" -czf "$out/hierarchy.tgz" hierarchy 2>>"$out/log.txt"
  h1=$(date +%s)
  log "hierarchy rc=$hrc wall=$((h1 - h0))s"
  echo "hierarchy $hrc $((h1 - h0))" >>"$out/steps.txt"
  deadline=$((deadline - (h1 - h0)))
fi

rounds=${WGB_RT_ROUNDS:-2}
gpu_state
t0=$(date +%s)
log "start: browser --runtime deno --rounds $rounds (deadline ${deadline} s)"
# matrix: the Deno column against every native configuration, alternating, on the H200. SIGINT at
# the deadline: the comparison prints and writes the rounds that completed.
filter=()
[ -n "${WGB_RT_FILTER:-}" ] && filter=(--filter "$WGB_RT_FILTER")
timeout --signal=INT --kill-after=20 "$deadline" ./scripts/wgb browser --runtime deno "${filter[@]}" --rounds "$rounds" --round-timeout 240 \
  --out "$out/runtimes.json" --keep "$work/documents" >"$out/runtimes.txt" 2>>"$out/log.txt"
rc=$?
t1=$(date +%s)
gpu_state
log "end rc=$rc wall=$((t1 - t0))s"
echo "runtimes $rc $((t1 - t0))" >>"$out/steps.txt"
tar -C "$work" -czf "$out/documents.tgz" documents 2>>"$out/log.txt"
rm -rf "$work"
exit "$rc"
