#!/usr/bin/env python3
"""The H200 hierarchy check (bench/h200_hierarchy.sh): the levels a hierarchy document infers against
the CUDA reference's JSON. PASS when the capacity of the level the inference names L2 (the largest
capacity inferred where no level has that name) is within 25 % of cudaDeviceProp::l2CacheSize
(device.l2_bytes); a level past it (on the H200, a step where the reach of address translation ends)
is listed, not compared; the latency curve's points at the footprints of
CUDA's pointer chase (memory-latency, read-dependent-chain) are tabled beside it. Markdown on stdout;
exit 0 on PASS, 1 on FAIL, 2 when a file is missing or malformed.

Usage: h200_hierarchy_check.py HIERARCHY.json CUDA.json
"""
import json
import sys

MIB = 1024 * 1024


def quantity(q, fmt):
    if not q.get("resolved"):
        return "unresolved (" + q.get("reason", "") + ")"
    return fmt(q["value"]) + " ± {:.0f} %".format(max(1, 100 * q["uncertainty"]))


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        doc = json.load(open(argv[1]))
        cuda = json.load(open(argv[2]))
        levels = doc["hierarchy"]["levels"]
        l2 = float(cuda["device"]["l2_bytes"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("h200_hierarchy_check: {}".format(e), file=sys.stderr)
        return 2
    print("# Memory levels on {} against CUDA\n".format(cuda["device"].get("name", "?")))
    print("| level | capacity | latency | bandwidth | evidence |")
    print("|---|---|---|---|---|")
    for lv in levels:
        print("| {} | {} | {} | {} | {} |".format(
            lv["name"], quantity(lv["capacity_bytes"], lambda v: "{:.3g} MiB".format(v / MIB)),
            quantity(lv["latency_ns"], lambda v: "{:.3g} ns".format(v)),
            quantity(lv["bandwidth_bytes_per_s"], lambda v: "{:.3g} GB/s".format(v / 1e9)), lv["evidence"]))
    for n in doc["hierarchy"].get("notes", []):
        print("\nnote: " + n)
    caps = [lv for lv in levels if lv["capacity_bytes"].get("resolved")]
    verdict = "FAIL"
    print()
    if not caps:
        print("No capacity was resolved: nothing to compare with l2CacheSize ({:.3g} MiB).".format(l2 / MIB))
    else:
        named = [lv for lv in caps if lv["name"] == "L2"]
        last = named[0] if named else caps[-1]
        cap = last["capacity_bytes"]["value"]
        off = cap / l2 - 1
        verdict = "PASS" if abs(off) <= 0.25 else "FAIL"
        print("{}, {} at {:.3g} MiB ({:.3g} to {:.3g} MiB), against l2CacheSize {:.3g} MiB: "
              "{:+.1f} %, {} (within 25 % required).".format(
                  "The level inferred as L2" if named else "The largest capacity inferred",
                  last["name"], cap / MIB, last.get("capacity_low_bytes", 0) / MIB,
                  last.get("capacity_high_bytes", 0) / MIB, l2 / MIB, 100 * off, verdict))
    # The latency curve at CUDA's chase footprints.
    print("\n| footprint | read-latency (ns per hop, median) | CUDA chase | CUDA kernel | ratio |")
    print("|---|---|---|---|---|")
    curve = {}
    for r in doc.get("rows", []):
        p = r.get("parameters", {})
        if r.get("id") == "read-latency" and r.get("value", 0) > 0 and "working_set_bytes" in p:
            curve[int(p["working_set_bytes"])] = 1e9 / r["value"]
    for k in cuda.get("kernels", []):
        if k.get("id") not in ("memory-latency", "read-dependent-chain") or k.get("status") != "ok":
            continue
        f = int(k["parameters"]["footprint_bytes"])
        ours = curve.get(f)
        print("| {:.3g} MiB | {} | {:.4g} ns | {} | {} |".format(
            f / MIB, "{:.4g} ns".format(ours) if ours else "not measured", k["median"], k["id"],
            "{:.3f}".format(ours / k["median"]) if ours else "-"))
    print("\nVerdict: " + verdict)
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
