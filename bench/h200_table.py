#!/usr/bin/env python3
"""Makes the markdown tables of an H200 batch (bench/h200.sh) from its JSON result documents.

    bench/h200_table.py RESULTS_DIR... [--title T] [--command C] > results/h200-<date>.md

Reads, when present: default.json (the default suite, robustness on), no-robustness.json,
api.json (the api family), experimental.json, memory-256.json, memory-512.json, host.json, cuda.json (the CUDA reference).
Every number printed comes from those files; published datasheet figures are labelled as such and
are references, never measurements.
"""
import argparse
import json
import os
import sys

# Ceilings of the H200 SXM, for reference only. "published": NVIDIA's datasheet
# figure. "derived": a per-SM, per-clock instruction throughput (CUDA C++ Programming Guide, "Arithmetic
# Instructions", compute capability 9.0) x 132 SMs x 1.98 GHz (the published boost clock, which
# gpu_state.csv shows under load), labelled with that formula. Neither is a measurement.
SMS, CLOCK = 132, 1.98e9


def derived(per_sm_clk, ops_per_instr, what):
    v = per_sm_clk * SMS * CLOCK * ops_per_instr
    return v, f"derived: {what}"


SFU = derived(16, 1, "16 SFU results/SM/clk")
PUBLISHED = [
    # (predicate on id, value in metric units per second, label)
    (lambda i: i in ("read-linear", "write-linear", "memory-read", "memory-write", "memory-copy", "memory-sustain", "copy-buffer-to-buffer"), 4.8e12, "HBM3e 4.8 TB/s"),
    # Gathers and scatters move their bytes through the same memory; windows that fit the 50 MB L2
    # (16 KB, 4 MB) are served by the cache and may exceed the HBM figure by design.
    (lambda i: i.startswith(("read-gather-", "write-scatter-")), 4.8e12, "HBM3e 4.8 TB/s (16kb/4mb windows sit in L2)"),
    (lambda i: i.startswith("f32-fma") or i in ("branch-none", "branch-uniform", "branch-coherent", "branch-divergent"), 67e12, "FP32 67 TFLOP/s"),
    (lambda i: i.startswith("f16-fma"), 134e12, "FP16 134 TFLOP/s"),
    (lambda i: i.startswith("i32-mad"), 33.5e12, "INT32 33.5 TOPS"),
    # dp4a issues on the 32-bit integer pipe (64 IDP4A/SM/clk), 8 counted ops each; the CUDA reference's
    # dp4a kernel reaches 133.7 TOPS of these 133.8.
    (lambda i: i in ("i8-dp4a", "i8-dp4a-matvec", "u8-dp4a"), *derived(64, 8, "64 dp4a/SM/clk x 8 ops")),
    # One counted shift is a shift plus the uncounted XOR: two 32-bit integer instructions at 64/SM/clk.
    (lambda i: i == "u32-shift", *derived(64, 0.5, "64 int32 instr/SM/clk, 2 per counted shift")),
    (lambda i: i in ("f32-pow", "f16-pow"), *derived(8, 1, "16 SFU results/SM/clk, 2 (lg2, ex2) per pow")),
    (lambda i: i[4:] in ("div", "sqrt", "rsqrt", "log", "sincos") and i[:4] in ("f32-", "f16-"), *SFU),
    (lambda i: i in ("u32-countonebits", "u32-reversebits", "u32-firstleadingbit"), *derived(16, 1, "16 popc/brev/flo per SM/clk")),
    (lambda i: i.startswith("subgroup-matrix-f16"), 989e12, "dense FP16 tensor 989 TFLOP/s"),
    (lambda i: i.startswith(("subgroup-matrix-i8", "subgroup-matrix-u8")), 1979e12, "dense INT8 tensor 1979 TOPS"),
]
# Rows with no ceiling and why (printed under the tables instead of a made-up figure).
NO_CEILING = {
    "i32-f32-convert": "conversions: the guide's 16/SM/clk for 'other conversions' does not bound this code "
                       "(it measures above it: sm_90 has conversion forms on other pipes), so no ceiling is claimed",
    "f32-f16-convert": "conversions: as i32-f32-convert",
    "i32-div": "sm_90 has no integer divide instruction (a reciprocal-based sequence of several instructions "
               "per division), so no per-SM rate bounds it; the CUDA row is what native code gets",
    "u32-packunpack": "a counted unpack or pack is several 32-bit integer instructions, as many as the compiler "
                      "leaves after merging shifts and masks: no ceiling is claimed; the CUDA row runs the same "
                      "expression",
    "f32-select": "a counted select comes with an uncounted compare and add or subtract: no ceiling is claimed",
    "f32-clamp": "a clamp to [0, 1] is two FMNMX or a saturate modifier on the FMA, as the compiler chooses: no "
                 "ceiling is claimed; the CUDA row (__saturatef(fma)) is what native code gets",
    "f32-minmax": "as f32-clamp (the CUDA row runs max(min(fma, 1), 0) in the WGSL order, counted 2 per step)",
    "texture-interp-builtin": "texture filtering rates are not in the CUDA guide's per-SM tables: no ceiling is "
                              "claimed; the CUDA row (tex2D, linear filter) is what native code gets",
    "texture-interp-manual": "two texel fetches and a blend per sample: no ceiling is claimed; the CUDA row fetches "
                             "point-sampled from the same kind of texture",
}

UNIT_SCALE = {"GB/s": 1e9, "TFLOP/s": 1e12, "TOPS": 1e12, "M/s": 1e6, "k/s": 1e3}


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def si(v, unit):
    if v is None or v == 0:
        return "-"
    prefixes = ["", "k", "M", "G", "T", "P", "E"]
    p = 0
    x = abs(v)
    while x >= 1000 and p < 6:
        x /= 1000
        p += 1
    digits = 0 if x >= 100 else 1 if x >= 10 else 2
    return f"{x:.{digits}f} {prefixes[p]}{unit}"


def dispersion(row):
    s = row.get("stats_ms") or {}
    if not s.get("count"):
        return "-"
    if row.get("statistic") == "median":
        med = s.get("median") or 0
        return f"IQR {100 * s.get('iqr', 0) / med:.2f}%" if med else "-"
    return f"CV {100 * s.get('cv', 0):.2f}%"


def cuda_rates(doc):
    """CUDA reference: id -> rate in metric units per second and its text: the best run, or the median
    where the probe says its statistic is the median (the API-cost probes, like the suite's `api` rows:
    transfers, launch rate and round trips, in GB/s, M/s and k/s)."""
    out = {}
    if not doc:
        return out
    for k in doc.get("kernels", []):
        stat = "median" if (k.get("parameters") or {}).get("statistic") == "median" else "best"
        if k.get("status") != "ok" or k.get(stat) is None:
            continue
        unit = k.get("unit")
        best = k[stat]
        if unit == "ns/hop":
            rate = 1e9 / best if best else None
        else:
            rate = best * UNIT_SCALE.get(unit, 1)
        for wid in set([k["id"]] + list(k.get("webgpu_ids", []))):
            out[wid] = (rate, f"{best:.4g} {unit}")
    return out


def published(i):
    for pred, v, label in PUBLISHED:
        if pred(i):
            return v, label
    return None, ""


def rows_of(doc):
    return {r["id"]: r for r in (doc or {}).get("rows", [])}


def machine_lines(doc):
    if not doc:
        return []
    m = doc.get("machine", {})
    a = m.get("adapter", {})
    d = m.get("dawn", {})
    b = doc.get("build", {})
    h = m.get("host", {})
    return [
        "| item | value |",
        "|---|---|",
        f"| adapter | {a.get('device')} ({a.get('vendor')}, {a.get('backend')}, {a.get('adapter_type')}) |",
        f"| driver | {a.get('driver')} |",
        f"| Dawn | {d.get('version')} |",
        f"| device toggles | {', '.join(d.get('device_toggles', []))} |",
        f"| robustness | {d.get('robustness')}; timestamps {d.get('timestamps')}; empty submit {d.get('empty_submit_ms', 0):.4f} ms |",
        f"| build | {b.get('compiler')} {b.get('build_type')} `{b.get('flags')}`, git {b.get('git_revision')} |",
        f"| host | {h.get('cpu_model')}, {h.get('logical_cpus')} logical CPUs, {h.get('distribution')}, kernel {h.get('kernel')} |",
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="+", help="result folders (bench/h200.sh part1, part2); a file is read from the first that has it")
    ap.add_argument("--title", default="H200 batch")
    ap.add_argument("--command", default="")
    ap.add_argument("--no-published", action="store_true", help="leave out the H200 datasheet columns (other devices)")
    args = ap.parse_args()
    if args.no_published:
        PUBLISHED.clear()
        NO_CEILING.clear()
    def p(name):
        for d in args.dir:
            if os.path.exists(os.path.join(d, name)):
                return os.path.join(d, name)
        return os.path.join(args.dir[0], name)
    default = load(p("default.json"))
    norob = rows_of(load(p("no-robustness.json")))
    exp = load(p("experimental.json"))
    cuda = cuda_rates(load(p("cuda.json")))
    out = [f"# {args.title}", ""]
    if args.command:
        out += ["## Command", "```", args.command, "```", ""]
    out += ["## Machine", ""] + machine_lines(default or exp) + [""]

    def table(title, doc, with_norob):
        rows = (doc or {}).get("rows", [])
        if not rows:
            return []
        t = [f"## {title}", "",
             "Rate = the row's statistic (best run for compute-bound kernels, median for memory traffic and "
             "contention) of the per-repetition time, in metric units per second; dispersion = CV of the kept "
             "times (best rows) or IQR relative to the median (median rows). CUDA = the reference's best of 10 "
             "(its median for the API-cost rows, as theirs) on the same GPU in the same batch. Published = datasheet figure, or a ceiling derived from the "
             "CUDA guide's per-SM instruction rate (labelled \"derived\"), a reference only.", ""]
        hdr = "| id | status | rate | statistic | dispersion |"
        sep = "|---|---|---|---|---|"
        if with_norob:
            hdr += " robustness off | on/off |"
            sep += "---|---|"
        hdr += " CUDA | fraction of CUDA | ceiling | fraction of ceiling |"
        sep += "---|---|---|---|"
        t += [hdr, sep]
        for r in rows:
            rid = r["id"]
            unit = r.get("metric", {}).get("unit", "")
            v = r.get("value") or 0
            line = f"| {rid} | {r.get('status')} | {si(v, unit + '/s')} | {r.get('statistic')} | {dispersion(r)} |"
            if with_norob:
                nr = norob.get(rid)
                nv = (nr or {}).get("value") or 0
                line += f" {si(nv, unit + '/s')} | {v / nv:.3f} |" if nv and v else " - | - |"
            c = cuda.get(rid)
            if c and v:
                line += f" {c[1]} | {v / c[0]:.3f} |"
            else:
                line += " - | - |"
            pv, plabel = published(rid)
            line += f" {plabel} | {v / pv:.3f} |" if pv and v else " - | - |"
            t.append(line)
        unbounded = [r["id"] for r in rows if r["id"] in NO_CEILING and r.get("value")]
        if unbounded and PUBLISHED:
            t += ["", "No ceiling:"] + [f"- `{i}`: {NO_CEILING[i]}" for i in unbounded]
        notes = [r for r in rows if r.get("status") != "ok"]
        if notes:
            t += ["", "Rows not ok:"] + [f"- `{r['id']}`: {r.get('status')}: {r.get('message')}" for r in notes]
        return t + [""]

    out += table("Default suite (robustness on, as in browsers), with the --no-robustness pass", default, True)
    out += table("Bandwidth probes at 1 GiB (the CUDA reference's buffer size)", load(p("bandwidth-1g.json")), False)
    out += table("The cost of the API (docs/api-cost.md; CUDA: cudaMemcpy, launches, synchronize)", load(p("api.json")), False)
    out += table("Experimental (--experimental: allow_unsafe_apis, vulkan_enable_f16_on_nvidia)", exp, False)
    for ws in ("256", "512"):
        out += table(f"Memory suite, working set {ws} MiB", load(p(f"memory-{ws}.json")), False)
    host = load(p("host.json"))
    if host:
        out += table("Host CPU (host protocol)", host, False)
    steps = p("steps.txt")
    if os.path.exists(steps):
        out += ["## Steps (name, exit code, wall seconds)", "```", open(steps).read().strip(), "```", ""]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
