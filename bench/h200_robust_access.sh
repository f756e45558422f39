#!/usr/bin/env bash
# The H200's tile rows in native Dawn with the Vulkan driver's robust buffer access as Dawn asks for
# it (robustBufferAccess2) and without Dawn's request for it (WGB_DAWN_TOGGLES=
# -vulkan_use_buffer_robust_access_2, so the device has robustBufferAccess only), two alternating
# rounds, one call (about 1 minute). Run there from the repository root with the build carried as
# bench/carry_libs.sh packs it:
#
#   tar -xzf build/carry.tgz && bash bench/h200_robust_access.sh
#
# Writes everything under $OUT (or ./h200-out) as h200-robust-access.tgz. Never changes the GPU's
# clocks or settings: it only reads them.
set -uo pipefail
out=${OUT:-$PWD/h200-out}
res="$out/robust-access"
tag=h200-robust-access
mkdir -p "$res"
archive() { tar -C "$out" -czf "$out/h200-robust-access.tgz" robust-access; }
# shellcheck source=bench/h200_steps.sh
source "$(dirname "${BASH_SOURCE[0]}")/h200_steps.sh"
export COLUMNS=100
ids=tile-direct,tile-shared,tile-shared-padded,write-scatter-16kb
for r in 1 2; do
  step "shipped-$r" wgb run --quiet --filter "$ids" --json "$res/shipped-$r.json"
  step "rba1-$r" env WGB_DAWN_TOGGLES=-vulkan_use_buffer_robust_access_2 ./scripts/wgb run --quiet --filter "$ids" \
    --json "$res/rba1-$r.json"
done
gpu_state
archive
log "archive $out/h200-robust-access.tgz"
[ -n "${OUT:-}" ] && rm -rf "$res"
exit 0
