#!/usr/bin/env python3
"""The decisive figures of one bench/h200_first_rows.sh call, as markdown (every number from its files).

    bench/h200_first_rows_table.py RESULTS_DIR > table.md

Reads default.json, bandwidth-1g.json, api.json, sweep-copy.json, memory-copy-64.json,
sweep-upload.json, cuda.json and cuda-64m.json where present. Success: the default suite's
read-linear and write-linear within 3 % of the same kernels at 1 GiB; copy-buffer-to-buffer within
10 % of CUDA's device-to-device copy, or the gap explained by the copy rows beside it.
"""
import json
import os
import sys


def load(d, name):
    p = os.path.join(d, name)
    if not os.path.exists(p):
        return None
    try:
        with open(p) as f:
            return json.load(f)
    except ValueError as e:
        print(f"<!-- {name}: not JSON ({e}) -->")
        return None


def rows(doc):
    return doc.get("rows", []) if doc else []


def row(doc, rid):
    for r in rows(doc):
        if r.get("id") == rid:
            return r
    return None


def cuda(doc, rid):
    for k in (doc or {}).get("kernels", []):
        if k.get("id") == rid:
            return k
    return None


def si(v, unit):
    if v is None:
        return "-"
    for p, s in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= p:
            return f"{v / p:.3g} {s}{unit}/s"
    return f"{v:.3g} {unit}/s"


def cuda_bps(k):
    """CUDA GB/s (median) as B/s."""
    return None if k is None or k.get("median") is None else k["median"] * 1e9


def knob(r):
    k = (r or {}).get("procedure", {}).get("knob")
    return "-" if k is None else k


def us(ms):
    return "-" if ms is None else f"{ms * 1000:.4g} us"


def pct(share):
    return "-" if share is None else f"{100 * share:.3f} %"


def check(ok):
    return "**pass**" if ok else "**FAIL**"


# The stages in the order they run (the JSON object sorts its keys), and which one is the bus copy:
# bytes / that stage is the rate to hold against CUDA's pinned transfer (docs/api-cost.md).
STAGES = {
    "upload-writebuffer": (["writeBuffer (staging + host copy)", "submit to completion (the copy)"],
                           "submit to completion (the copy)"),
    "upload-mapped": (["mapAsync", "host copy", "unmap + encode + submit", "copy to completion"],
                      "copy to completion"),
    "readback-mapasync": (["encode + submit", "copy + mapAsync", "host copy", "unmap"], "copy + mapAsync"),
}


def split_text(rid, r):
    """The row's time split per operation in stage order, and bytes / its bus-copy stage (B/s)."""
    p = (r or {}).get("parameters", {})
    split = p.get("time_split_ms") or {}
    order, bus = STAGES.get(rid, ([], None))
    names = [n for n in order if n in split] + [n for n in split if n not in order]
    text = "; ".join(f"{n} {split[n]:.3g}" for n in names) or "-"
    nbytes = p.get("bytes_per_operation")
    bus_ms = split.get(bus) if bus else None
    return text, (nbytes / (bus_ms / 1e3) if nbytes and bus_ms else None)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    default, big, api = load(d, "default.json"), load(d, "bandwidth-1g.json"), load(d, "api.json")
    cu, cu64 = load(d, "cuda.json"), load(d, "cuda-64m.json")
    print("# H200: the first rows and the api family (bench/h200_first_rows.sh)\n")
    print("## What decides\n")
    print("| figure | value | target | result |")
    print("|---|---|---|---|")
    for rid in ("read-linear", "write-linear"):
        va, vb = (row(default, rid) or {}).get("value"), (row(big, rid) or {}).get("value")
        ratio = va / vb if va and vb else None
        print(f"| default-suite {rid} / the same kernel at 1 GiB | {'-' if ratio is None else f'{ratio:.4f}'} | "
              f"within 3 % | {'-' if ratio is None else check(abs(ratio - 1) <= 0.03)} |")
    vc = (row(api, "copy-buffer-to-buffer") or {}).get("value")
    vd = cuda_bps(cuda(cu, "copy-device-to-device"))
    ratio = vc / vd if vc and vd else None
    print(f"| copy-buffer-to-buffer / CUDA copy-device-to-device (64 MiB, read + written) | "
          f"{'-' if ratio is None else f'{ratio:.3f}'} | within 10 %, or the gap explained below | "
          f"{'-' if ratio is None else check(abs(ratio - 1) <= 0.10)} |")
    print()

    print("## Streaming rows: default suite (64 MiB) against 1 GiB, same call\n")
    print("| row | default | status | passes | dispatch | launch share | at 1 GiB | default / 1 GiB | within 3 % | CUDA 1 GiB | CUDA 64 MiB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for rid in ("read-linear", "write-linear"):
        a, b = row(default, rid), row(big, rid)
        va, vb = (a or {}).get("value"), (b or {}).get("value")
        ratio = va / vb if va and vb else None
        p = (a or {}).get("parameters", {})
        print(f"| {rid} | {si(va, 'B')} | {(a or {}).get('status', '-')} | {knob(a)} | "
              f"{us(p.get('dispatch_ms'))} | {pct(p.get('launch_share'))} | {si(vb, 'B')} | "
              f"{'-' if ratio is None else f'{ratio:.4f}'} | "
              f"{'-' if ratio is None else check(abs(ratio - 1) <= 0.03)} | "
              f"{si(cuda_bps(cuda(cu, rid)), 'B')} | {si(cuda_bps(cuda(cu64, rid)), 'B')} |")
    print()
    print("Every bandwidth row of the default suite (status, passes per dispatch, launch share):\n")
    print("| row | rate | status | passes | dispatch | launch share | message |")
    print("|---|---|---|---|---|---|---|")
    for r in rows(default):
        if r.get("category") != "bandwidth":
            continue
        p = r.get("parameters", {})
        print(f"| {r['id']} | {si(r.get('value'), 'B')} | {r.get('status')} | {knob(r)} | "
              f"{us(p.get('dispatch_ms'))} | {pct(p.get('launch_share'))} | {r.get('message', '')} |")
    roof = (default or {}).get("roofline", {})
    pb = roof.get("peak_bandwidth") or {}
    print(f"\nRoofline memory ceiling: {si(pb.get('value'), 'B')} from {pb.get('from', '-')}; above it: "
          + (", ".join(f"{x['id']} {x['fraction_of_roofline']:.2f} ({x['over_ceiling']})" for x in roof.get("above_ceiling", []))
             or "none") + "\n")

    print("## The copy command against CUDA (read + written counted on both sides)\n")
    c = row(api, "copy-buffer-to-buffer")
    d2d, ce = cuda(cu, "copy-device-to-device"), cuda(cu, "copy-device-to-device-ce-hint")
    vc, vd = (c or {}).get("value"), cuda_bps(d2d)
    ratio = vc / vd if vc and vd else None
    print("| measurement | rate |")
    print("|---|---|")
    print(f"| copy-buffer-to-buffer, 64 MiB | {si(vc, 'B')} ({(c or {}).get('status', '-')}) |")
    for r in rows(load(d, "sweep-copy.json")):
        v = r.get("parameters", {}).get("sweep", {}).get("value")
        if v:
            print(f"| copy-buffer-to-buffer, {v / 2**20:g} MiB (sweep) | {si(r.get('value'), 'B')} "
                  f"({r.get('status')}) |")
    m = row(load(d, "memory-copy-64.json"), "memory-copy")
    print(f"| memory-copy (compute kernel), 64 MiB | {si((m or {}).get('value'), 'B')} |")
    print(f"| CUDA copy-device-to-device (cudaMemcpyAsync), 64 MiB | {si(vd, 'B')} |")
    print(f"| CUDA copy-device-to-device-ce-hint, 64 MiB | {si(cuda_bps(ce), 'B')} |")
    print(f"| CUDA memory-copy (kernel), 64 MiB | {si(cuda_bps(cuda(cu64, 'memory-copy')), 'B')} |")
    print(f"\ncopy-buffer-to-buffer / CUDA device-to-device: "
          f"{'-' if ratio is None else f'{ratio:.3f}'}, within 10 %: {'-' if ratio is None else check(abs(ratio - 1) <= 0.10)}\n")

    print("## Transfers: where the time goes, against CUDA's pageable and pinned copies\n")
    print("Headline rate against CUDA's pageable transfer (a host copy and the bus copy on both sides); the bus "
          "stage alone (bytes / the stage that holds the bus copy) against CUDA's pinned transfer.\n")
    print("| row | rate | status | time split per operation (ms) | bus stage | CUDA pageable | CUDA pinned |")
    print("|---|---|---|---|---|---|---|")
    for rid, pageable, pinned in (("upload-writebuffer", "upload-pageable", "upload-pinned"),
                                  ("upload-mapped", "upload-pageable", "upload-pinned"),
                                  ("readback-mapasync", "readback-pageable", "readback-pinned")):
        r = row(api, rid) or {}
        text, bus = split_text(rid, r)
        print(f"| {rid} | {si(r.get('value'), 'B')} | {r.get('status', '-')} | {text} | {si(bus, 'B')} | "
              f"{si(cuda_bps(cuda(cu, pageable)), 'B')} | {si(cuda_bps(cuda(cu, pinned)), 'B')} |")
    for r in rows(load(d, "sweep-upload.json")):
        v = r.get("parameters", {}).get("sweep", {}).get("value")
        text, bus = split_text("upload-writebuffer", r)
        if v:
            print(f"| upload-writebuffer at {v / 2**20:g} MiB (sweep) | {si(r.get('value'), 'B')} | "
                  f"{r.get('status')} | {text} | {si(bus, 'B')} | | |")
    print("\n## Host-bound rows: their verdict\n")
    print("| row | rate | status | message |")
    print("|---|---|---|---|")
    for rid in ("submit-latency", "pipeline-create", "dispatch-overhead"):
        r = row(api, rid) or {}
        v = r.get("value")
        rate = "-" if v is None else f"{v:.4g} {r.get('metric', {}).get('unit', '')}/s"
        print(f"| {rid} | {rate} | {r.get('status', '-')} | {r.get('message', '')} |")
    steps = os.path.join(d, "steps.txt")
    if os.path.exists(steps):
        print("\n## Steps (name, exit code, wall seconds)\n")
        print("| step | exit | wall s |")
        print("|---|---|---|")
        with open(steps) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3:
                    print(f"| {parts[0]} | {parts[1]} | {parts[2]} |")


if __name__ == "__main__":
    main()
