# Sourced by the bench/h200_*_probe.sh scripts on the lent H200 (from the repository root, with the
# H200 recipe's carry): sets up the carried libraries and NVIDIA's Vulkan driver, and gives
#   step NAME CMD...  run CMD (at most 120 s) into $OUT/NAME.out, its exit code into $OUT/steps.txt
#   gpu_state         append one nvidia-smi line (clocks, temperature, power, throttle reasons) to $OUT/smi.csv
#   pack              pack everything under $OUT into $OUT/probe.tgz (the device returns at most eight files)
for f in .carry/*.deb; do dpkg -x "$f" / ; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH="$PWD/.carry/lib:$LD_LIBRARY_PATH"
step() { name=$1; shift; timeout 120 "$@" > "$OUT/$name.out" 2>&1; echo "$name $?" >> "$OUT"/steps.txt; }
gpu_state() {
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active \
    --format=csv,noheader >> "$OUT"/smi.csv
}
pack() { (cd "$OUT" && tar czf /tmp/probe.tgz ./* && rm -rf ./* && mv /tmp/probe.tgz .); }
