#!/usr/bin/env python3
"""Experiment tool for docs/implementations.md. pool_rounds.py DOCS_DIR [A B]: per benchmark, the
geometric mean of the per-round rate ratios A/B of the documents DOCS_DIR/round-NN-A.json and
round-NN-B.json (default browser/native, as `webgpu-bench browser --keep` names them) with its
standard error gm*sd(log r)/sqrt(n), as `webgpu-bench browser` pools them, and the sides' median
rates. For alternating runs that the program does not pool itself (two native configurations) and
for rounds that a cut-off comparison kept. Not part of the product."""
import glob, json, math, os, re, statistics, sys
d = sys.argv[1]
a, b = (sys.argv[2], sys.argv[3]) if len(sys.argv) > 3 else ('browser', 'native')
rounds = sorted({re.match(r'round-(\d+)-', os.path.basename(f)).group(1) for f in glob.glob(f'{d}/round-*-{a}.json')})
ratios, ra, rb, order = {}, {}, {}, []
for n in rounds:
    try:
        A = {r['id']: r for r in json.load(open(f'{d}/round-{n}-{a}.json'))['rows']}
        B = {r['id']: r for r in json.load(open(f'{d}/round-{n}-{b}.json'))['rows']}
    except FileNotFoundError:
        continue
    for k, r in A.items():
        if k not in order: order.append(k)
        if k in B and r.get('value') and B[k].get('value') and r['status'] in ('ok', 'throttled', 'suspect') and B[k]['status'] in ('ok', 'throttled', 'suspect'):
            ratios.setdefault(k, []).append(r['value'] / B[k]['value'])
            ra.setdefault(k, []).append(r['value']); rb.setdefault(k, []).append(B[k]['value'])
logs = []
print(f'{"benchmark":22} {a}/{b:8} {"± s.e.":>8} n   {b:>12} {a:>12}  per-round')
for k in order:
    r = ratios.get(k, [])
    if not r: print(f'{k:22} -'); continue
    l = [math.log(x) for x in r]
    gm = math.exp(statistics.mean(l)); se = gm * (statistics.stdev(l) / math.sqrt(len(l)) if len(l) > 1 else 0)
    logs.append(math.log(gm))
    print(f'{k:22} {gm:14.3f} {se:8.3f} {len(r):2d}  {statistics.median(rb[k]):12.4g} {statistics.median(ra[k]):12.4g}  ' + ' '.join(f'{x:.2f}' for x in r))
if logs: print(f'geometric mean over the rows: {math.exp(statistics.mean(logs)):.3f} ({len(rounds)} rounds)')
