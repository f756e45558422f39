#!/usr/bin/env bash
# The main job: installs what is needed, builds, and runs the default suite on the best adapter
# (the GPU; where there is none, the CPU Vulkan driver). Extra arguments go to `webgpu-bench run`,
# e.g. scripts/run.sh --json results.json --filter 'read-*'.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Only the program: the tests are scripts/test.sh's business, and building them first would delay
# the first result by minutes.
bash "$root/scripts/build.sh" webgpu-bench
exec "$root/scripts/wgb" run "$@"
