#!/usr/bin/env bash
# Installs what is missing (scripts/bootstrap.sh) and builds the Release configuration, the only
# one that produces numbers: every target, or the targets named as arguments. Idempotent: a second
# run downloads nothing and rebuilds only changes.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/bootstrap.sh"
build="${WGB_BUILD_DIR:-$root/build/release}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
fi
jobs=$(nproc 2>/dev/null || echo 2)
# Arguments name the targets to build (scripts/run.sh builds only the program); none builds all.
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" -j "$jobs" "${targets[@]}" >&2
