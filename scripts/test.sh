#!/usr/bin/env bash
# Builds and runs every test (unit, gpu on the best adapter or the CPU Vulkan driver, golden).
# .ci/run calls exactly this. With CI=true a missing adapter fails the gpu tests instead of
# skipping them.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The HTML report test renders in headless Chromium and must run in CI (it skips elsewhere when
# Chromium is absent): install it there, idempotently. WGB_WITH_TEST_TOOLS=1 does the same locally.
if [ "${CI:-}" = "true" ] || [ "${WGB_WITH_TEST_TOOLS:-}" = "1" ]; then
  bash "$root/scripts/bootstrap.sh" --with-test-tools
fi
bash "$root/scripts/build.sh"
build="${WGB_BUILD_DIR:-$root/build/release}"
if [ "${CI:-}" = "true" ]; then export WGB_REQUIRE_ADAPTER=1; fi
cd "$build"
# Unit and golden tests in parallel; gpu tests are RUN_SERIAL (one device at a time).
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@"
