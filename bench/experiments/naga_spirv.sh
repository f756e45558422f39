#!/usr/bin/env bash
# Experiment tool for results/runtimes-*: the SPIR-V that wgpu (naga, in Deno) and Dawn (Tint, natively)
# hand the Vulkan driver for the same kernels, dumped by Mesa's lavapipe (MESA_SPIRV_DUMP_PATH) and
# disassembled with spirv-dis (Debian package spirv-tools). Dawn's modules declare an execution mode
# that spirv-tools 2023.1 does not know (MaximallyReconvergesKHR, 6023); it is rewritten to one
# without operands so that the rest disassembles.
#
#   bench/experiments/naga_spirv.sh IDS OUT_DIR      e.g. tile-direct,f32-fma-scalar /tmp/spirv
#
# Writes OUT_DIR/dawn/*.spvasm and OUT_DIR/naga/*.spvasm (one file per module, in compile order).
# Only Deno's process dumps into naga/: it is started through a wrapper named by WGB_DENO.
# Not part of the product: an instrument for one question.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ids=${1:?IDS}; out=$(realpath -m "${2:?OUT_DIR}")
command -v spirv-dis >/dev/null || { echo "naga_spirv: needs spirv-dis (apt-get install spirv-tools)" >&2; exit 2; }
deno="${WGB_DENO:-$root/.deps/deno/bin/deno}"
rm -rf "$out"; mkdir -p "$out/dawn" "$out/naga"
printf '#!/bin/sh\nexport MESA_SPIRV_DUMP_PATH=%s/naga\nexec %s "$@"\n' "$out" "$deno" >"$out/deno-wrap.sh"
chmod +x "$out/deno-wrap.sh"
MESA_SPIRV_DUMP_PATH="$out/dawn" "$root/scripts/wgb" run --quiet --adapter llvmpipe --filter "$ids" >"$out/dawn.txt" 2>&1
WGB_DENO="$out/deno-wrap.sh" "$root/scripts/wgb" browser --runtime deno --filter "$ids" --rounds 1 >"$out/deno.txt" 2>&1
python3 - "$out" <<'PY'
import glob, struct, subprocess, sys
for f in sorted(glob.glob(sys.argv[1] + '/*/*.spirv')):
    b = open(f, 'rb').read()
    w = list(struct.unpack('<%dI' % (len(b) // 4), b))
    i = 5
    while i < len(w):
        n, op = w[i] >> 16, w[i] & 0xffff
        if op == 16 and n == 3 and w[i + 2] == 6023:  # OpExecutionMode %f MaximallyReconvergesKHR
            w[i + 2] = 7
        i += max(n, 1)
    fixed = f + '.tmp'
    open(fixed, 'wb').write(struct.pack('<%dI' % len(w), *w))
    text = subprocess.run(['spirv-dis', '--no-color', fixed], capture_output=True, text=True).stdout
    open(f[:-len('.spirv')] + '.spvasm', 'w').write(text)
    subprocess.run(['rm', '-f', fixed, f])
PY
ls "$out/dawn" "$out/naga"
