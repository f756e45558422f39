#!/usr/bin/env bash
# Starts Chromium the way a desktop user's browser runs: without CAP_SYS_NICE and with RLIMIT_NICE 0,
# so it cannot raise its GPU process above normal priority. Started by root (as on the 2-core test
# machine), Chromium gives its GPU process's main thread nice -8; on a CPU adapter (SwiftShader) that
# thread runs about half of every dispatch, so under CPU contention the browser's rows are measured
# with several times the native process's share of the CPU (docs/implementations.md). Use it as
#   webgpu-bench browser --chromium bench/chromium_normal_priority.sh ...
# WGB_CHROMIUM_BIN names the browser (default: chromium on the PATH).
set -euo pipefail
bin=${WGB_CHROMIUM_BIN:-$(command -v chromium)}
exec prlimit --nice=0 setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice "$bin" "$@"
