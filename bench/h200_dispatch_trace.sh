#!/usr/bin/env bash
# tile-direct costs 2.13-2.15 us per dispatch in native Dawn and 2.75-2.79 us in wgpu (Deno) on the
# H200 (results/runtimes-h200-deno-*, "Per dispatch"), with the same commands per dispatch and a
# barrier of the same cost (bench/experiments/vk_dispatch_barrier.c). What else differs: the shader
# module each hands NVIDIA's driver, where the buffers live, the descriptors, the pipeline's create
# flags, the device's features. One call of a few minutes on the H200:
#   1. native Dawn's tile-direct under bench/experiments/vk_command_log.c (a Vulkan layer: commands,
#      shader modules dumped to .spv, buffers, memory, binds, descriptor layouts and writes,
#      pipelines, device features), short measurement options;
#   2. Deno's tile-direct the same way (only Deno's process gets the layer), when the Deno carry
#      (build/carry-runtimes.tar.xz, bench/h200_runtimes.sh pack) is here;
#   3. `summary` of the two logs: each one's tile-direct pipeline, module, layouts and per binding
#      descriptor, buffer and memory; what differs; the benchmark's arguments;
#   4. bench/experiments/vk_spirv_dispatch.c on the two dumped tile-direct modules: module x
#      placement (separate allocations, Dawn's, wgpu's) x stage flags (0, Dawn's 0x1) x barrier
#      (Dawn's, none), 1000 and 10000 dispatches per batch, 11 rounds; once on a device with Dawn's
#      features, once with wgpu's (Dawn's module, which needs the Vulkan memory model, is skipped).
#
#   bench/h200_dispatch_trace.sh pack   here: compiles the three C files (gcc, libvulkan-dev) into
#                                       build/vklog/, packs them into build/dispatch-trace.tgz and
#                                       checks build/carry-runtimes.tar.xz (made by
#                                       bench/h200_runtimes.sh pack: the program, its libraries,
#                                       Dawn's, the Vulkan loader, the browser engine, Deno)
#   bash bench/h200_dispatch_trace.sh   there, from the repository root, as the whole command; carry
#                                       build/carry-runtimes.tar.xz and build/dispatch-trace.tgz (this
#                                       script unpacks both; build/carry.tgz is not needed). The two
#                                       carries and the tracked tree must fit the device tool's
#                                       64 MiB: `pack` prints the sum (move results/ aside for the call)
#   bench/h200_dispatch_trace.sh summary NAME=LOG ...   the summary of vk_command_log.c logs (here
#                                       on lavapipe's, or the H200's afterwards)
#
# Writes everything under $OUT (or ./h200-out) as h200-dispatch-trace.tgz (logs, the dumped .spv,
# summary.txt, the benchmark's tables) and prints the summary and the tables at the end. Never changes
# the GPU's clocks or settings: it only reads them.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

summary() {
  python3 - "$@" <<'PY'
import os, re, sys

# summary NAME=LOG ...: for each log (vk_command_log.c's), the process whose command
# buffers dispatch 256x1x1 (tile-direct), described at its first such pass: device features, the
# pipeline, its module, its layouts, and per binding the descriptor, the buffer and the memory it
# lives in; then what differs between the logs; then one `bench` line per log, the arguments that
# make vk_spirv_dispatch run that log's module and placement.
WANT = "vkCmdDispatch 256 1 1"
NOTABLE = re.compile(r"robust|Robust|nullDescriptor|subgroupSize|FullSubgroups|vulkanMemoryModel|MaximalReconvergence|pipelineRobustness")


def kv(text):
    return dict(re.findall(r"(\w[\w.]*)=(\S+)", text))


def parse(path):
    procs = {}
    for raw in open(path, errors="replace"):
        m = re.match(r"\[(\d+)\] (.*)", raw.rstrip("\n"))
        if not m:
            continue
        pid, text = m.group(1), m.group(2)
        p = procs.setdefault(pid, dict(device="", features=[], buffers={}, align={}, mem={}, bind={}, writes={},
                                       setlayouts={}, playouts={}, pipes={}, modules={}, cbs={}, memtypes={},
                                       found=None))
        if p["found"]:
            # Only the barrier is still looked for (the first pass may hold one dispatch).
            c = re.match(r"cb(\d+)\.\d+(?:\.\.\d+)? (.*)", text)
            if c and not p["found"]["barrier"]:
                cb = p["cbs"].setdefault(c.group(1), [])
                cb.append(c.group(2))
                if len(cb) >= 2 and cb[-2].startswith(WANT) and "Barrier" in cb[-1]:
                    p["found"]["barrier"] = cb[-1]
            continue
        if text.startswith("device:"):
            p["device"] = text
        elif text.startswith("  features") or text.startswith("  device pNext"):
            p["features"].append(text.strip())
        elif text.startswith("  memory type"):
            p["memtypes"][text.split(":")[0].split()[-1]] = text.split(":", 1)[1].strip()
        c = re.match(r"cb(\d+)\.(\d+)(?:\.\.\d+)? (.*)", text)
        if c:
            cb = p["cbs"].setdefault(c.group(1), [])
            cb.append(c.group(3))
            if c.group(3).startswith("vkEndCommandBuffer") and any(l.startswith(WANT) for l in cb):
                snapshot(p, cb)
            continue
        f = kv(text)
        if text.startswith("vkCreateBuffer"):
            p["buffers"][f["buffer"]] = dict(size=f["size"], usage=f["usage"], flags=f.get("flags"))
        elif text.startswith("vkGetBufferMemoryRequirements"):
            p["align"][f["buffer"]] = f["alignment"]
        elif text.startswith("vkAllocateMemory"):
            extra = " ".join(w for w in text.split() if w.startswith(("allocateFlags", "dedicated", "priority", "pNext")))
            t = re.search(r"type=(\d+)\((\S*)\)", text)
            h = re.search(r"heap=(\d+)\(([^)]*)\)", text)
            p["mem"][f["memory"]] = dict(size=f["size"], type=t.group(1) if t else f.get("type"),
                                         flags=t.group(2) if t else "?", heap=h.group(1) if h else "?", extra=extra)
        elif text.startswith("vkBindBufferMemory"):
            p["bind"][f["buffer"]] = (f["memory"], f["offset"])
        elif text.startswith("vkUpdateDescriptorSets set="):
            b = re.search(r"\[buffer=(\S+) off=(\d+) range=(\w+)\]", text)
            p["writes"].setdefault(f["set"], {})[f["binding"]] = dict(
                type=f["type"], buffer=b.group(1) if b else "?", off=b.group(2) if b else "?", range=b.group(3) if b else "?")
        elif text.startswith("vkCreateDescriptorSetLayout"):
            p["setlayouts"][f["setLayout"]] = " | ".join(s.strip() for s in text.split(" | ")[1:]).replace(" result=0", "") or "(none)"
        elif text.startswith("vkCreatePipelineLayout"):
            sl = re.search(r"setLayouts=\[([^\]]*)\]", text).group(1).split(",")
            pc = re.search(r"pushConstants=\[([^\]]*)\]", text).group(1)
            p["playouts"][f["layout"]] = dict(sets=[s for s in sl if s], push=pc)
        elif text.startswith("vkCreateShaderModule") or text.startswith("inline shader module"):
            p["modules"][f["spv"]] = text.split(" spv=", 1)[1]
        elif text.startswith("vkCreateComputePipelines"):
            p["pipes"][f["pipeline"]] = dict(text=text, **f)
    return procs


def snapshot(p, cb):
    pipe = sets = layout = None
    barrier = None
    dyn = ""
    for i, line in enumerate(cb):
        if line.startswith("vkCmdBindPipeline"):
            pipe = kv(line)["pipeline"]
        if line.startswith("vkCmdBindDescriptorSets"):
            f = kv(line)
            sets, layout, dyn = f["sets"].split(","), f["layout"], f.get("dynamicOffsets", "")
        if line.startswith(WANT) and i + 1 < len(cb) and "Barrier" in cb[i + 1]:
            barrier = barrier or cb[i + 1]
    if pipe is None or sets is None:
        return
    # Frozen copies: later lines may reuse these handles.
    p["found"] = dict(pipe=dict(p["pipes"].get(pipe, {})), sets=sets, layout=layout, dyn=dyn, barrier=barrier,
                      writes={s: dict(p["writes"].get(s, {})) for s in sets}, buffers=dict(p["buffers"]),
                      align=dict(p["align"]), mem=dict(p["mem"]), bind=dict(p["bind"]),
                      playouts=dict(p["playouts"]), setlayouts=dict(p["setlayouts"]), modules=dict(p["modules"]))


def describe(name, path):
    procs = parse(path)
    hits = [(pid, p) for pid, p in procs.items() if p["found"]]
    if not hits:
        print("== %s (%s): no pass with %s" % (name, path, WANT))
        return None
    pid, p = hits[-1]
    s = p["found"]
    d = {}  # the comparable facts
    print("== %s (%s, process %s)" % (name, path, pid))
    print("  " + p["device"])
    for f in p["features"]:
        if NOTABLE.search(f):
            print("  " + f)
    for f in p["features"]:
        if f.startswith("features core"):
            d["device.robustBufferAccess"] = "yes" if " robustBufferAccess" in f else "no"
        if "Robustness2" in f:
            d["device.robustness2"] = f.split(":", 1)[1].strip() or "-"
        if "SubgroupSizeControl" in f or "Vulkan13Features" in f:
            d["device.subgroupSizeControl"] = ("subgroupSizeControl" in f and "yes" or "no") + (
                "+computeFullSubgroups" if "computeFullSubgroups" in f else "")
        if "VulkanMemoryModel" in f or "Vulkan12Features" in f:
            d["device.vulkanMemoryModel"] = "yes" if "vulkanMemoryModel" in f else "no"
    pipe = s["pipe"]
    text = pipe.get("text", "?")
    print("  pipeline: " + re.sub(r"^vkCreateComputePipelines \S+ ", "", text))
    d["pipeline.flags"] = pipe.get("flags", "?")
    d["pipeline.stage.flags"] = pipe.get("stage.flags", "?")
    d["pipeline.cache"] = pipe.get("cache", "?")
    tail = re.sub(r".*base=\S+", "", text).replace(" result=0", "").strip()
    d["pipeline.pNext/specialization"] = tail or "-"
    spv = pipe.get("spv", "?")
    mod = s["modules"].get(spv, "?")
    print("  module: " + mod)
    mk = kv(mod)
    d["module.spirv"] = mk.get("spirv", "?")
    d["module.memoryModel"] = mk.get("memoryModel", "?")
    d["module.bytes"] = mk.get("bytes", "?")
    d["module.entry"] = " ".join(re.findall(r"entry=(\S+)", mod))
    d["module.modes"] = " ".join(re.findall(r"(?:local|mode)=(\S+)", mod))
    pl = s["playouts"].get(s["layout"], {})
    print("  pipeline layout: sets=%s pushConstants=[%s]" % (len(pl.get("sets", [])), pl.get("push", "?")))
    d["layout.pushConstants"] = pl.get("push", "?") or "-"
    d["layout.sets"] = str(len(pl.get("sets", [])))
    place = dict(src=None, dst=None)
    for i, sl in enumerate(pl.get("sets", [])):
        print("  set %d layout: %s" % (i, s["setlayouts"].get(sl, "?")))
        d["set%d.layout" % i] = s["setlayouts"].get(sl, "?")
    print("  bound sets: %s dynamicOffsets=%s" % (",".join(s["sets"]), s["dyn"]))
    d["dynamicOffsets"] = s["dyn"]
    for si, set_ in enumerate(s["sets"]):
        for binding, w in sorted(s["writes"].get(set_, {}).items()):
            buf = s["buffers"].get(w["buffer"], {})
            mem_h, off = s["bind"].get(w["buffer"], ("?", "?"))
            mem = s["mem"].get(mem_h, {})
            al = s["align"].get(w["buffer"], "?")
            o = int(off) if off != "?" else None
            mods = "" if o is None else " (mod 256: %d, mod 64 KiB: %d, mod 2 MiB: %d)" % (o % 256, o % 65536, o % (2 << 20))
            print("  set %d binding %s: %s off=%s range=%s | buffer size=%s usage=%s | memory type %s(%s) heap %s, "
                  "allocation %s B %s| bound at %s%s alignment %s" % (
                      si, binding, w["type"], w["off"], w["range"], buf.get("size"), buf.get("usage"), mem.get("type"),
                      mem.get("flags"), mem.get("heap"), mem.get("size"), (mem.get("extra") + " ") if mem.get("extra") else "",
                      off, mods, al))
            k = "set%d.binding%s" % (si, binding)
            d[k + ".descriptor"] = "%s off=%s range=%s" % (w["type"], w["off"], w["range"])
            d[k + ".buffer"] = "size=%s usage=%s" % (buf.get("size"), buf.get("usage"))
            d[k + ".memory"] = "type %s(%s) heap %s allocation %s%s" % (
                mem.get("type"), mem.get("flags"), mem.get("heap"), mem.get("size"), (" " + mem["extra"]) if mem.get("extra") else "")
            d[k + ".bound"] = "%s%s" % (off, mods)
            if si == 0 and binding in ("0", "1"):
                place["src" if binding == "0" else "dst"] = dict(type=mem.get("type"), block=mem.get("size"), off=off,
                                                                 doff=w["off"], range=w["range"], mem=mem_h)
    print("  barrier after a dispatch: %s" % s["barrier"])
    d["barrier"] = re.sub(r"0x[0-9a-f]+", "H", s["barrier"] or "-")
    # The benchmark's arguments for this log's module and placement.
    a, b = place["src"], place["dst"]
    bench = None
    if a and b and "?" not in (a["off"], b["off"]) and a["type"] and a["type"] == b["type"]:
        rng = "whole" if a["range"] == "WHOLE" else "exact"
        if a["mem"] == b["mem"]:
            spec = "%s-place,type=%s,block=%s,src=%s,dst=%s,dsrc=%s,ddst=%s,range=%s" % (
                name, a["type"], a["block"], a["off"], b["off"], a["doff"], b["doff"], rng)
        else:  # separate allocations: each at its own offset is not reproduced, only the type
            spec = "%s-place,type=%s,dsrc=%s,ddst=%s,range=%s" % (name, a["type"], a["doff"], b["doff"], rng)
        stage = pipe.get("stage.flags", "0").split("(")[0]
        bench = "bench %s module=%s entry=%s stageflags=%s place=%s" % (name, spv, pipe.get("entry", "?"), stage, spec)
    return d, bench


def main(args):
    facts, benches = [], []
    for a in args:
        name, path = a.split("=", 1)
        if not os.path.isfile(path):
            print("== %s: no log %s" % (name, path))
            continue
        r = describe(name, path)
        print()
        if r:
            facts.append((name, r[0]))
            if r[1]:
                benches.append(r[1])
    if len(facts) >= 2:
        print("== differences (%s)" % " vs ".join(n for n, _ in facts))
        keys = []
        for _, d in facts:
            keys += [k for k in d if k not in keys]
        same = []
        for k in keys:
            vals = [d.get(k, "-") for _, d in facts]
            if len(set(vals)) > 1:
                print("  %s:" % k)
                for (n, _), v in zip(facts, vals):
                    print("      %-6s %s" % (n, v))
            else:
                same.append(k)
        print("  same: " + ", ".join(same))
    for b in benches:
        print(b)


main(sys.argv[1:])
PY
}

case "${1:-run}" in
  pack)
    set -e
    mkdir -p build/vklog
    gcc -O2 -Wall -o build/vklog/vk_dispatch_barrier bench/experiments/vk_dispatch_barrier.c -lvulkan
    gcc -O2 -Wall -o build/vklog/vk_spirv_dispatch bench/experiments/vk_spirv_dispatch.c -lvulkan -lm
    gcc -O2 -Wall -shared -fPIC -fvisibility=hidden -o build/vklog/libwgb_vk_command_log.so \
      bench/experiments/vk_command_log.c -lpthread
    cat >build/vklog/wgb_vk_command_log.json <<'JSON'
{"file_format_version": "1.1.2", "layer": {"name": "VK_LAYER_WGB_command_log", "type": "GLOBAL",
 "library_path": "./libwgb_vk_command_log.so", "api_version": "1.3.239", "implementation_version": "1",
 "description": "command log", "functions": {"vkGetInstanceProcAddr": "cmdlog_GetInstanceProcAddr",
 "vkGetDeviceProcAddr": "cmdlog_GetDeviceProcAddr"}}}
JSON
    tar -czf build/dispatch-trace.tgz build/vklog/vk_dispatch_barrier build/vklog/vk_spirv_dispatch \
      build/vklog/libwgb_vk_command_log.so build/vklog/wgb_vk_command_log.json
    [ -f build/carry-runtimes.tar.xz ] ||
      { echo "h200_dispatch_trace: no build/carry-runtimes.tar.xz: run bench/h200_runtimes.sh pack (after building)" >&2; exit 2; }
    tracked=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
    results=$(git ls-files -z results | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
    extra=$(git ls-files -z --others --exclude-standard | xargs -0 -r du -cb 2>/dev/null | tail -1 | cut -f1)
    carries=$(($(stat -c %s build/carry-runtimes.tar.xz) + $(stat -c %s build/dispatch-trace.tgz)))
    ls -la build/dispatch-trace.tgz build/carry-runtimes.tar.xz
    echo "carries $((carries >> 10)) KiB + tracked tree $((tracked >> 10)) KiB + untracked $((${extra:-0} >> 10)) KiB" \
      "= $(((carries + tracked + ${extra:-0}) >> 10)) KiB of 65536 KiB;" \
      "without results/ ($((results >> 10)) KiB): $(((carries + tracked + ${extra:-0} - results) >> 10)) KiB"
    echo "build/carry-runtimes.tar.xz made $(stat -c %y build/carry-runtimes.tar.xz | cut -d. -f1)" \
      "(the program in it: native Dawn's traces run that one)"
    exit 0 ;;
  summary) shift; summary "$@"; exit ;;
  run) ;;
  *) echo "usage: bench/h200_dispatch_trace.sh [pack|run|summary NAME=LOG...]" >&2; exit 2 ;;
esac

out=${OUT:-$PWD/h200-out}
res="$out/dispatch-trace"
# shellcheck disable=SC2034  # read by h200_steps.sh's log()
tag=h200-dispatch-trace
mkdir -p "$res"
archive() { tar -C "$out" -czf "$out/h200-dispatch-trace.tgz" dispatch-trace; }
[ -f build/dispatch-trace.tgz ] && tar -xzf build/dispatch-trace.tgz
[ -x build/vklog/vk_spirv_dispatch ] ||
  { echo "h200_dispatch_trace: no build/dispatch-trace.tgz (bench/h200_dispatch_trace.sh pack, and carry it)" >&2; exit 2; }
# The program, its libraries and Deno: the runtimes carry, always unpacked when carried (so that the
# program, its browser engine and Deno are one set, whatever an earlier call left here; tar's xz where
# the machine has it, else Python's); the program's own carry where that is what came.
if [ -f build/carry-runtimes.tar.xz ]; then
  tar -xJf build/carry-runtimes.tar.xz 2>/dev/null ||
    python3 -c 'import lzma, tarfile; tarfile.open(fileobj=lzma.open("build/carry-runtimes.tar.xz")).extractall()' ||
    echo "h200_dispatch_trace: cannot unpack build/carry-runtimes.tar.xz" >&2
fi
if [ ! -x build/release/cli/webgpu-bench ] && [ -f build/carry.tgz ]; then tar -xzf build/carry.tgz; fi
[ -x build/release/cli/webgpu-bench ] ||
  { echo "h200_dispatch_trace: no program (carry build/carry-runtimes.tar.xz)" >&2; exit 2; }
# shellcheck source=bench/h200_steps.sh
source "$(dirname "${BASH_SOURCE[0]}")/h200_steps.sh"
export COLUMNS=100
nvidia-smi >"$res/nvidia-smi.txt" 2>&1

# 1. Native Dawn's tile-direct under the layer, its shader modules dumped (small measurements: the
#    log is what matters; repeated blocks are folded).
mkdir -p "$res/spv"
layer=(env VK_LAYER_PATH="$PWD/build/vklog" VK_INSTANCE_LAYERS=VK_LAYER_WGB_command_log WGB_VK_DUMP_DIR="$res/spv")
short=(--measurement-ms 5 --target-dispatch-ms 1 --min-rounds 1 --max-rounds 1 --stable-rounds 1 --idle-gap-ms 1)
step dawn-trace "${layer[@]}" WGB_VK_LOG="$res/dawn-vk.log" ./scripts/wgb run --quiet --filter tile-direct "${short[@]}"

# 2. Deno's, where its carry is here: only Deno's process gets the layer (a wrapper named by WGB_DENO).
if [ -x .carry/deno ]; then
  chmod +x .carry/deno
  printf '#!/bin/sh\nexport VK_LAYER_PATH=%s VK_INSTANCE_LAYERS=VK_LAYER_WGB_command_log WGB_VK_LOG=%s WGB_VK_DUMP_DIR=%s\nexec %s "$@"\n' \
    "$PWD/build/vklog" "$res/deno-vk.log" "$res/spv" "$PWD/.carry/deno" >"$res/deno-wrap.sh"
  chmod +x "$res/deno-wrap.sh"
  step deno-trace env WGB_DENO="$res/deno-wrap.sh" timeout --signal=INT --kill-after=20 240 ./scripts/wgb browser \
    --runtime deno --filter tile-direct --rounds 1 --round-timeout 120
else
  log "no .carry/deno: Deno not traced"
fi

# 3. What differs, and the benchmark's arguments (one `bench NAME module=F entry=E stageflags=S
#    place=SPEC` line per log).
logs=(dawn="$res/dawn-vk.log")
[ -f "$res/deno-vk.log" ] && logs+=(wgpu="$res/deno-vk.log")
summary "${logs[@]}" >"$res/summary.txt" 2>&1
mods=()
places=(--place separate)
while read -r _ name module entry _ place; do
  mods+=(--module "$name=$res/spv/${module#module=}:${entry#entry=}")
  places+=(--place "${place#place=}")
done < <(grep '^bench ' "$res/summary.txt")
log "benchmark: ${mods[*]} ${places[*]}"

# 4. The modules under identical conditions: Dawn's device features, then wgpu's.
if [ "${#mods[@]}" -gt 0 ]; then
  bench=(./build/vklog/vk_spirv_dispatch "${mods[@]}" "${places[@]}" --stage-flags "0,0x1" --barrier "dawn,none"
    --n "1000,10000" --rounds 11)
  step spirv-dawn-features "${bench[@]}" --raw
  step spirv-wgpu-features "${bench[@]}" --raw --features wgpu
fi
gpu_state
archive
log "archive $out/h200-dispatch-trace.tgz"
cat "$res/steps.txt"
grep -v '^  features core\|^  device:' "$res/summary.txt" | cut -c1-330
for f in "$res"/spirv-*.out; do
  [ -f "$f" ] || continue
  echo "== $(basename "$f")"
  grep -v '^raw \|^memory type\|^device [0-9]' "$f"
  tail -3 "${f%.out}.err"
done
[ -n "${OUT:-}" ] && rm -rf "$res"
exit 0
