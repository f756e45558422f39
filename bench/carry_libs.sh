#!/usr/bin/env bash
# Prepares .carry/ for a run on the lent GPU machine (Ubuntu, no Vulkan loader): the Vulkan loader
# and glvnd .debs (unpacked there by bench/h200.sh) and copies of the Debian libraries the built
# program links that are not part of the private Dawn prefix. Then packs the three things a GPU run
# needs (.carry, the private Dawn prefix's libraries, the program) into build/carry.tgz: uncompressed
# they no longer fit the device tool's 64 MiB carry beside the tracked tree. Carry only
# build/carry.tgz and start the command with `tar -xzf build/carry.tgz && ...`.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
mkdir -p .carry/lib
(cd .carry && apt-get download libvulkan1 libglvnd0 libglx0 libegl1 libgl1 libopengl0 libgles2 >/dev/null)
L=.deps/dawn/usr/lib/x86_64-linux-gnu
"$L/ld-linux-x86-64.so.2" --library-path "$L:/usr/lib/x86_64-linux-gnu" --list build/release/cli/webgpu-bench |
  awk '$3 ~ /^\/usr\/lib/ {print $1, $3}' | while read -r name path; do cp -L "$path" ".carry/lib/$name"; done
du -sh .carry
tar -czf build/carry.tgz .carry .deps/dawn/usr/lib build/release/cli/webgpu-bench
ls -la build/carry.tgz
