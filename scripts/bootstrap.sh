#!/usr/bin/env bash
# Installs everything webgpu-bench needs on a Debian 12 (bookworm) x86-64 machine, idempotently.
#
#  1. Debian packages from the system's own archive (compiler, CMake, {fmt}, nlohmann-json, CLI11,
#     GoogleTest, the Vulkan loader): installed only when missing, so a second run downloads nothing.
#  2. Dawn: where the system already has Debian's libwebgpu-dawn-dev (sid/testing), CMake uses it.
#     Otherwise (bookworm) the sid packages are downloaded, not installed, into a private prefix
#     .deps/dawn and the program runs under sid's own loader (see docs/DEPENDENCIES.md: the library
#     needs glibc 2.43 and libstdc++ from GCC 16).
#  3. A CPU Vulkan driver for machines without a GPU: Mesa 25 lavapipe from bookworm-backports,
#     unpacked into .deps/mesa (bookworm's Mesa 22 lavapipe is rejected by Dawn).
# With --with-test-tools it also installs what only the tests need: Debian's `chromium` (the HTML
# report test renders pages with it) and `firefox-esr`, and Deno from the npm package `deno` into
# .deps/deno (the engine's end-to-end tests in every runtime; scripts/test.sh passes it).
# Package-archive URIs are derived from this machine's apt configuration; no host name is written
# here. Downloads are cached in .deps/cache and keyed by version stamps.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps="$root/.deps"
mkdir -p "$deps"
log() { printf '[bootstrap] %s\n' "$*" >&2; }

with_test_tools=0
for arg in "$@"; do
  case "$arg" in
    --with-test-tools) with_test_tools=1 ;;
    *) log "unknown option: $arg (known: --with-test-tools)"; exit 2 ;;
  esac
done

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to install Debian packages: $*"; exit 1; fi
}

# --- 1. system packages -------------------------------------------------------------------------
system_packages=(
  g++ cmake ninja-build pkg-config git ca-certificates python3
  libfmt-dev nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev
  libvulkan1
  # The results store (src/store): SQLite, PostgreSQL's client library, cpp-httplib (server and
  # client; its header needs OpenSSL's, also used for SHA-256).
  libsqlite3-dev libpq-dev libcpp-httplib-dev libssl-dev
  # What Mesa's lavapipe links against (bookworm versions are the right ones).
  libllvm15 libelf1 libexpat1 libwayland-client0 libx11-xcb1 libxcb-dri3-0 libxcb-present0
  libxcb-randr0 libxcb-shm0 libxcb-sync1 libxcb-xfixes0 libxcb1 libxshmfence1 libzstd1 zlib1g
  # The browser engine (src/web, cmake/WasmEngine.cmake): C++ to a wasm32-wasi module.
  clang-16 lld-16 wasi-libc libc++-16-dev-wasm32 libc++abi-16-dev-wasm32 libclang-rt-16-dev-wasm32
)
if [ "$with_test_tools" = 1 ]; then
  system_packages+=(chromium)  # tests/golden/report_html_test.cpp: headless rendering of the report
  system_packages+=(firefox-esr)  # tests/browser/runtimes_test.cpp: the engine in Firefox (wgpu)
  command -v npm >/dev/null || system_packages+=(npm)  # Deno comes as an npm package
  # tests/web: node runs the browser engine against a fake device host (Debian 12's nodejs is 18,
  # which the tests support); a node already on the PATH will do.
  command -v node >/dev/null || system_packages+=(nodejs)
fi
missing=()
for p in "${system_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# --- the archive URI, from this machine's apt configuration --------------------------------------
debian_uri() {
  local uri=""
  if compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null; then
    # deb822: the first URIs line of a stanza whose Suites name a Debian release.
    uri=$(awk '/^URIs:/{u=$2} /^Suites:/{ if ($0 ~ /bookworm|trixie|sid|stable|testing/ && $0 !~ /security/ && u!="") {print u; exit} }' \
          /etc/apt/sources.list.d/*.sources)
  fi
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri=$(awk '$1=="deb" && $0 !~ /security/ {for(i=2;i<=NF;i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' /etc/apt/sources.list)
  fi
  [ -n "$uri" ] || { log "cannot find a Debian archive URI in /etc/apt"; exit 1; }
  printf '%s\n' "$uri"
}

# Downloads (does not install) packages from <suite> into <dir>, with a throw-away apt state so the
# system's configuration is untouched.
fetch_debs() {
  local suite=$1 dir=$2; shift 2
  local state="$deps/cache/apt-$suite"
  mkdir -p "$state/lists/partial" "$state/archives/partial" "$dir"
  printf 'deb %s %s main\n' "$(debian_uri)" "$suite" >"$state/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$state/sources.list" -o Dir::Etc::SourceParts=/dev/null
              -o "Dir::State::Lists=$state/lists" -o "Dir::Cache=$state" -o APT::Sandbox::User=root)
  apt-get -q "${opts[@]}" update >&2
  (cd "$dir" && apt-get -q "${opts[@]}" download "$@" >&2)
}

# --- 2. Dawn ------------------------------------------------------------------------------------
if dpkg-query -W -f='${Status}' libwebgpu-dawn-dev 2>/dev/null | grep -q 'ok installed'; then
  log "using the system's libwebgpu-dawn-dev"
  rm -f "$deps/dawn.prefix"
else
  dawn_prefix="$deps/dawn"
  if [ ! -f "$dawn_prefix/.complete" ]; then
    log "fetching Dawn and its runtime from sid into $dawn_prefix"
    rm -rf "$dawn_prefix" "$deps/cache/dawn-debs"
    # The abseil runtime Dawn needs is named in its Depends (it changes with abseil's ABI).
    fetch_debs sid "$deps/cache/dawn-debs" libwebgpu-dawn0 libwebgpu-dawn-dev libc6 libstdc++6 libgcc-s1
    absl=$(dpkg-deb -f "$deps"/cache/dawn-debs/libwebgpu-dawn0_*.deb Depends | tr ',' '\n' | grep -o 'libabsl[0-9]*' | head -n1)
    [ -n "$absl" ] || { log "cannot find the abseil package in libwebgpu-dawn0's Depends"; exit 1; }
    fetch_debs sid "$deps/cache/dawn-debs" "$absl"
    mkdir -p "$dawn_prefix"
    for f in "$deps"/cache/dawn-debs/*.deb; do dpkg-deb -x "$f" "$dawn_prefix"; done
    dpkg-deb -f "$deps"/cache/dawn-debs/libwebgpu-dawn0_*.deb Version >"$dawn_prefix/.version"
    touch "$dawn_prefix/.complete"
  fi
  printf '%s\n' "$dawn_prefix" >"$deps/dawn.prefix"
fi

# --- 3. Mesa lavapipe ---------------------------------------------------------------------------
mesa_prefix="$deps/mesa"
if [ ! -f "$mesa_prefix/.complete" ]; then
  log "fetching Mesa lavapipe from bookworm-backports into $mesa_prefix"
  rm -rf "$mesa_prefix" "$deps/cache/mesa-debs"
  fetch_debs bookworm-backports "$deps/cache/mesa-debs" mesa-vulkan-drivers libdrm2 libdrm-amdgpu1 libdrm-common
  mkdir -p "$mesa_prefix"
  for f in "$deps"/cache/mesa-debs/*.deb; do dpkg-deb -x "$f" "$mesa_prefix"; done
  touch "$mesa_prefix/.complete"
fi
lvp="$mesa_prefix/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so"
[ -f "$lvp" ] || { log "lavapipe missing after unpacking: $lvp"; exit 1; }
cat >"$deps/lvp_icd.json" <<JSON
{
    "file_format_version": "1.0.0",
    "ICD": { "library_path": "$lvp", "api_version": "1.4.305" }
}
JSON
# --- 4. Deno (with --with-test-tools) -------------------------------------------------------------
# The npm package `deno`; its Linux binary is in the optional dependency @deno/linux-x64-glibc, a
# binary inside a registry package. Installed with npm from the registry npm is configured with, into
# .deps/deno, once per version; the tarballs stay in .deps/cache/npm, so a reinstall downloads
# nothing. .deps/deno/bin/deno is where the program and the tests look for it.
if [ "$with_test_tools" = 1 ]; then
  deno_version="${WGB_DENO_VERSION:-2.9.6}"
  deno_prefix="$deps/deno"
  if [ "$(cat "$deno_prefix/.complete" 2>/dev/null)" != "$deno_version" ]; then
    log "installing Deno $deno_version (npm package deno) into $deno_prefix"
    rm -rf "$deno_prefix"
    mkdir -p "$deno_prefix/bin" "$deps/cache/npm"
    npm install --prefix "$deno_prefix" --cache "$deps/cache/npm" --no-save --no-audit --no-fund \
      --no-package-lock --ignore-scripts "deno@$deno_version" >&2
    binary="$deno_prefix/node_modules/@deno/linux-x64-glibc/deno"
    [ -x "$binary" ] || { log "the deno package brought no Linux binary: $binary"; exit 1; }
    ln -sf ../node_modules/@deno/linux-x64-glibc/deno "$deno_prefix/bin/deno"
    "$deno_prefix/bin/deno" --version >&2
    printf '%s\n' "$deno_version" >"$deno_prefix/.complete"
  fi
fi
log "ready"
