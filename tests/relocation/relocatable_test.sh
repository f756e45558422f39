#!/usr/bin/env bash
# The program is relocatable: a copy of the tree at another path runs with the copy's private
# runtime, never with the build folder's and never with the system's older libstdc++/libm.
#   1. Every DT_RPATH/DT_RUNPATH entry of the program is relative to $ORIGIN.
#   2. A copy (program, launcher, the private Dawn runtime) at a fresh path starts through
#      scripts/wgb, prints its version, and the loader's own log shows that libstdc++, libm and
#      libwebgpu_dawn came from the copy.
# usage: relocatable_test.sh SOURCE_DIR PROGRAM
set -euo pipefail
src=$1 bin=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rpaths=$(readelf -d "$bin" | sed -n 's/.*(\(RPATH\|RUNPATH\)).*\[\(.*\)\]/\2/p' | tr ':' '\n')
[ -n "$rpaths" ] || { echo "no RPATH: nothing ties the program to the build folder"; rpaths=""; }
while IFS= read -r p; do
  [ -z "$p" ] && continue
  case "$p" in
    '$ORIGIN'*) ;;
    *) fail "RPATH entry '$p' is not relative to \$ORIGIN (a copy of the tree elsewhere would load it first)" ;;
  esac
done <<<"$rpaths"
echo "ok: RPATH entries are relative to \$ORIGIN: $(echo $rpaths)"

lib="$src/.deps/dawn/usr/lib/x86_64-linux-gnu"
if [ ! -x "$lib/ld-linux-x86-64.so.2" ]; then
  echo "ok: no private runtime here (system Dawn); nothing more to relocate"
  exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgb-relocated-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rel_bin=$(realpath --relative-to="$src" "$bin")
case "$rel_bin" in ../*) fail "the program $bin is not inside the tree $src" ;; esac
mkdir -p "$tmp/tree/$(dirname "$rel_bin")" "$tmp/tree/scripts" "$tmp/tree/.deps"
cp "$bin" "$tmp/tree/$rel_bin"
cp "$src/scripts/wgb" "$tmp/tree/scripts/wgb"
cp -a "$(realpath "$src/.deps/dawn")" "$tmp/tree/.deps/dawn"
out=$(cd / && WGB_BIN="$tmp/tree/$rel_bin" LD_DEBUG=libs bash "$tmp/tree/scripts/wgb" --version 2>"$tmp/ld.log") \
  || { tail -5 "$tmp/ld.log" >&2; fail "the copy did not start"; }
case "$out" in webgpu-bench*) ;; *) fail "unexpected --version output: $out" ;; esac
for so in libstdc++.so.6 libm.so.6 libwebgpu_dawn.so.0; do
  from=$(sed -n "s/.*calling init: \(.*\/$so\)$/\1/p" "$tmp/ld.log" | head -n1)
  [ -n "$from" ] || fail "$so was not loaded (loader log: $tmp/ld.log)"
  case "$from" in
    "$tmp/tree/"*) echo "ok: $so from the copy ($from)" ;;
    *) fail "$so loaded from $from, not from the copy at $tmp/tree" ;;
  esac
done
