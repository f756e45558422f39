#!/usr/bin/env python3
"""Checks an H200 ALU call (bench/h200_alu.sh) against CUDA and against the last H200 batch.

    bench/h200_alu_check.py RESULTS_DIR PREVIOUS_BATCH_DIR

RESULTS_DIR holds probes-N.json, probes-f16-N.json (every compute row, N rounds), previous-N.json and
previous-f16-N.json (the kernels' previous forms, bench/variants/alu-previous), candidate-N.json
(the vec4 FMA kernel with two trips per pass; listed, never judged), fixtures.json and cuda.json. PREVIOUS_BATCH_DIR holds the last batch's default.json and experimental.json. Prints one
table (rate of this call, the last batch, CUDA, previous form, fixture) and a verdict per row, and
exits 1 when a row lost:
  - the rows compared with CUDA (f32, i32, dp4a and f16 throughput) must be within 3 % of it, or no
    lower than the last batch's fraction where that was already below 0.97;
  - every compute row must be within 2 % of the last batch (same GPU kind and driver) or above it;
  - a changed kernel must be within 2 % of its previous form in this call, or above it.
Rates are the best over the rounds of each row's best-run statistic.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_table import cuda_rates, load, si  # noqa: E402

CUDA_ROWS = ("f32-fma-scalar", "f32-fma-builtin", "f32-fma-vec4", "i32-mad-scalar", "i32-mad-vec4", "i8-dp4a",
             "f16-fma-vec4")
CUDA_TOLERANCE = 0.97
SAME_TOLERANCE = 0.98


def best_rates(paths):
    """id -> (best rate, unit) over the documents' validated rows."""
    out = {}
    for path in paths:
        doc = load(path)
        for r in (doc or {}).get("rows", []):
            if r.get("category") != "compute" or r.get("status") not in ("ok", "throttled", "suspect"):
                continue
            unit = r.get("metric", {}).get("unit", "")
            if r["id"] not in out or r["value"] > out[r["id"]][0]:
                out[r["id"]] = (r["value"], unit)
    return out


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    res, prev = sys.argv[1], sys.argv[2]
    now = best_rates(glob.glob(os.path.join(res, "probes-*.json")))
    before = best_rates([os.path.join(prev, "default.json"), os.path.join(prev, "experimental.json")])
    previous_form = best_rates(glob.glob(os.path.join(res, "previous-*.json")))
    fixture = best_rates([os.path.join(res, "fixtures.json")])
    cuda = cuda_rates(load(os.path.join(res, "cuda.json")))
    cuda_before = cuda_rates(load(os.path.join(prev, "cuda.json")))
    if not now:
        print("no probe rows in", res)
        return 1
    lost = []
    print(f"{'id':<22} {'this call':>13} {'last batch':>13} {'x':>6} {'CUDA':>8} {'previous form':>13} "
          f"{'x':>6} {'fixture':>13} verdict")
    for rid, (value, unit) in now.items():
        verdict = []
        old = before.get(rid)
        ratio_old = value / old[0] if old else None
        if ratio_old is not None and ratio_old < SAME_TOLERANCE:
            verdict.append(f"{100 * (1 - ratio_old):.1f} % below the last batch")
        frac = None
        if rid in CUDA_ROWS and rid in cuda:
            frac = value / cuda[rid][0]
            floor = CUDA_TOLERANCE
            if old and rid in cuda_before:
                floor = min(floor, old[0] / cuda_before[rid][0] - 0.005)
            if frac < floor:
                verdict.append(f"{frac:.3f} of CUDA (needs {floor:.3f})")
        pf = previous_form.get(rid)
        ratio_pf = value / pf[0] if pf else None
        if ratio_pf is not None and ratio_pf < SAME_TOLERANCE:
            verdict.append(f"{100 * (1 - ratio_pf):.1f} % below its previous form")
        fx = fixture.get(rid)
        cells = [si(value, unit), si(old[0], unit) if old else "-", f"{ratio_old:.3f}" if ratio_old else "-",
                 f"{frac:.3f}" if frac is not None else "-", si(pf[0], unit) if pf else "-",
                 f"{ratio_pf:.3f}" if ratio_pf else "-", si(fx[0], unit) if fx else "-"]
        if verdict:
            lost.append(rid)
        print(f"{rid:<22} {cells[0]:>13} {cells[1]:>13} {cells[2]:>6} {cells[3]:>8} {cells[4]:>13} {cells[5]:>6} "
              f"{cells[6]:>13} {'; '.join(verdict) if verdict else 'kept'}")
    candidate = best_rates(glob.glob(os.path.join(res, "candidate-*.json")))
    for rid, (value, unit) in sorted(candidate.items()):
        frac = f"{value / cuda[rid][0]:.3f} of CUDA" if rid in cuda else "no CUDA row"
        shipped = f"{value / now[rid][0]:.3f} of the shipped form" if rid in now else "shipped form not measured"
        print(f"candidate form of {rid}: {si(value, unit)}, {frac}, {shipped} (information, not judged)")
    missing = sorted(set(before) - set(now))
    if missing:
        print("missing in this call:", ", ".join(missing))
        lost += missing
    print("verdict:", "every row kept its rate" if not lost else f"{len(lost)} rows lost: {', '.join(lost)}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
