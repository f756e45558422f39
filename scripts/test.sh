#!/usr/bin/env bash
# Builds and runs every test (unit, gpu on the best adapter or the CPU Vulkan driver, golden).
# .ci/run calls exactly this. With CI=true a missing adapter fails the gpu tests instead of
# skipping them.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The HTML report test renders in headless Chromium and must run in CI (it skips elsewhere when
# Chromium is absent): install it there, idempotently. WGB_WITH_TEST_TOOLS=1 does the same locally.
# Firefox ESR and Deno run the engine's end-to-end tests in wgpu: installed the same way when missing.
if [ "${CI:-}" = "true" ] || [ "${WGB_WITH_TEST_TOOLS:-}" = "1" ] || ! command -v firefox-esr >/dev/null ||
   [ ! -x "$root/.deps/deno/bin/deno" ]; then
  bash "$root/scripts/bootstrap.sh" --with-test-tools
fi
bash "$root/scripts/build.sh"
build="${WGB_BUILD_DIR:-$root/build/release}"
if [ "${CI:-}" = "true" ]; then export WGB_REQUIRE_ADAPTER=1; fi
# The results store's tests need a PostgreSQL server (a throw-away one on loopback, stopped when
# the tests end) and headless Chromium for its pages; both Debian packages, installed when missing
# (docs/store.md). Without them those tests skip outside CI and fail in CI.
# One cluster per build folder, so test runs of two checkouts on one machine never share it.
WGB_PG_DIR="${TMPDIR:-/tmp}/webgpu-bench-pgtest-$(id -u)-$(printf '%s' "$build" | md5sum | cut -c1-10)"
export WGB_PG_DIR
pg_test_server() { bash "$root/scripts/pg_test_server.sh" "$@"; }
if WGB_TEST_POSTGRES_URL=$(pg_test_server start); then
  export WGB_TEST_POSTGRES_URL
  trap 'pg_test_server stop' EXIT
else
  echo "[test] could not start PostgreSQL for the store tests" >&2
fi
if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" -eq 0 ] || command -v sudo >/dev/null; then
    sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_=sudo
    $sudo_ apt-get update -q >&2 && $sudo_ env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -q --no-install-recommends chromium >&2 || echo "[test] could not install chromium" >&2
  fi
fi
cd "$build"
# Unit and golden tests in parallel; gpu tests are RUN_SERIAL (one device at a time).
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@"
