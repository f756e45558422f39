#!/usr/bin/env bash
# The store demo: the same documents submitted to serve on SQLite and on PostgreSQL, then compared.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
PG=$(bash scripts/pg_test_server.sh start)   # set WGB_PG_DIR to keep the cluster apart
psql "$PG" -qc 'DROP DATABASE IF EXISTS wgb_demo' -c 'CREATE DATABASE wgb_demo'
rm -f "${TMPDIR:-/tmp}"/store-demo.db*
./scripts/wgb serve --quiet --store "${TMPDIR:-/tmp}/store-demo.db" --listen 127.0.0.1:18480 & S1=$!
./scripts/wgb serve --quiet --store "${PG%/postgres}/wgb_demo" --listen 127.0.0.1:18481 & S2=$!
sleep 2
N=results/store-demo-2026-11-30 F=results/h200-2026-11-30/final A=results/h200-2026-11-30/two-adapters
DOCS="$N/lvp-run.json results/lavapipe-2026-11-30/lvp-default.json $N/lvp-memory-16.json \
  $N/vm-host-fma.json $N/vm-host-quick.json $F/part2/host.json \
  $F/part1/default.json $A/all.0.json $A/all.1.json $F/part1/no-robustness.json $F/part1/experimental.json \
  $F/part1/bandwidth-1g.json $F/part1/sweep-read-linear.json $F/part2/memory-256.json $F/part2/memory-512.json"
for port in 18480 18481; do ./scripts/wgb submit $DOCS --to http://127.0.0.1:$port; done
python3 $N/compare.py http://127.0.0.1:18480 http://127.0.0.1:18481
python3 - <<'PY'
import json, urllib.request
get = lambda p: json.loads(urllib.request.urlopen("http://127.0.0.1:18480" + p).read())
print("\nCLASSES")
for c in get("/api/v1/classes"):
    print(f"  {c['runs']:2d} runs  {'variable ' if c['variable'] else '         '}{c['key']}")
print("\nRUNS")
for r in sorted(get("/api/v1/results?limit=1000")["runs"], key=lambda r: r["id"]):
    print(f"  #{r['id']:<2d} {r['suite']:8s} {r['class']['device'][:60]:60s} {'ranked' if r['ranked'] else 'unranked: ' + r['unranked_reason']}")
for b in ["read-linear", "f32-fma-vec4", "memory-read", "memory-latency", "host-fma-f32", "host-stream-triad"]:
    lb = get("/api/v1/leaderboard?benchmark=" + b)
    print(f"\nLEADERBOARD {b} ({lb['unit']}, {'lower' if lb['lower_is_better'] else 'higher'} is better)")
    for c in lb["classes"]:
        runs = ", ".join(f"#{r['id']}{'' if r['ranked'] else '(u)'}" for r in c["runs"])
        med = f"{c['median']:.4g}" if "median" in c else "-"
        print(f"  rank {c['rank'] or '-':>2}  median {med:>10}  {c['ranked_runs']}/{len(c['runs'])} ranked  {c['class']['key']}  [{runs}]")
PY
# The reasons on the pages (leaderboard next to the suite; run page in the state), on both stores.
for port in 18480 18481; do
  echo "port $port:"
  curl -s "http://127.0.0.1:$port/leaderboard?benchmark=read-linear" | grep -o 'unranked: [^<"]*' | grep -v 'shown, never ranked' | sort | uniq -c
  curl -s "http://127.0.0.1:$port/runs/10" | grep -o 'complete [^<]*unranked: [^<]*'
  echo "  run 10's rows badged unranked: $(curl -s "http://127.0.0.1:$port/runs/10" | grep -o '>unranked</span>' | wc -l)"
done
# Both stores' leaderboard and The Stack of run 8 rendered in headless Chromium: the same DOM.
for port in 18480 18481; do
  for path in "/leaderboard?benchmark=memory-latency" "/runs/8"; do
    timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
      --user-data-dir="${TMPDIR:-/tmp}/store-demo-chromium" --dump-dom "http://127.0.0.1:$port$path" 2>/dev/null |
      sed 's#<th>submitted</th><td>[^<]*</td>##' >"${TMPDIR:-/tmp}/store-demo-dom-$port-${path//[^a-z0-9]/_}.html"
  done
done
for path in "/leaderboard?benchmark=memory-latency" "/runs/8"; do
  a="${TMPDIR:-/tmp}/store-demo-dom-18480-${path//[^a-z0-9]/_}.html" b="${TMPDIR:-/tmp}/store-demo-dom-18481-${path//[^a-z0-9]/_}.html"
  echo "chromium $path: $(wc -c <"$a") bytes of DOM, $(grep -o '<svg' "$a" | wc -l) SVG charts, $(cmp -s "$a" "$b" && echo identical || echo DIFFERENT) on both stores"
done
kill $S1 $S2; wait $S1 $S2 || true
