#!/usr/bin/env bash
# usage: render-all.sh BIN OUT
# Renders every result document under results/ with BIN (report as text; report --csv and -o html)
# and compares each with the one before it in sorted order; run it with the binaries of two commits
# and `diff -r` the two OUT folders.
set -u
BIN=$1; OUT=$2; rm -rf "$OUT"; mkdir -p "$OUT"; cd "$(dirname "$0")/../.."
i=0; prev=""
for d in $(grep -rl '"schema": *"webgpu-bench/result"' results/ --include=*.json | sort); do i=$((i+1))
  "$BIN" report "$d" > "$OUT/t-$i.txt" 2>&1; echo "rc=$?" >> "$OUT/t-$i.txt"
  "$BIN" report --csv "$OUT/c-$i.csv" -o "$OUT/h-$i.html" "$d" > /dev/null 2>&1
  [ -n "$prev" ] && { "$BIN" compare "$prev" "$d" > "$OUT/cmp-$i.txt" 2>&1; echo "rc=$?" >> "$OUT/cmp-$i.txt"; }
  prev=$d
done
