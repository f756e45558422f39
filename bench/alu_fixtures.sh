#!/usr/bin/env bash
# Every ALU probe against the plain kernel of the same operation (tests/fixtures/alu/, a folder in
# --kernel-dir form: each file replaces a probe's template by two plain loops over the same chains,
# so the suite's calibration, work model and validation are the same for both). Interleaved on one
# adapter: in every round each probe runs in a fresh process, then its fixture (the order swaps
# every round), so a change in the machine's load hits both sides alike. Measuring tool, no
# assertion: it prints, per probe, the best rate of each side over the rounds, their ratio
# (probe / fixture: 1 or more means the probe is at least as fast) and the range of the per-round
# ratios, which shows the noise. Records `uptime` before and after; numbers taken while the machine
# is loaded are not clean figures.
#
#   bench/alu_fixtures.sh [--rounds N] [--out DIR] [--filter IDS] [-- RUN-ARGS...]
#     --rounds N     rounds (default 3)
#     --out DIR      where the result documents and the table go (default build/alu-fixtures)
#     --filter IDS   the probes (a run --filter; default: every compute row of the catalog)
#     RUN-ARGS       passed to every `webgpu-bench run` (e.g. --experimental, --max-rounds 6)
# WGB_BIN selects the program (scripts/wgb); the table is also written to DIR/table.txt.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=3
out="$root/build/alu-fixtures"
filter=""
run_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift ;;
    --out) out=$2; shift ;;
    --filter) filter=$2; shift ;;
    --) shift; run_args=("$@"); break ;;
    -h|--help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "alu_fixtures: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
fixtures="$root/tests/fixtures/alu"
wgb() { "$root/scripts/wgb" "$@"; }
mkdir -p "$out"
if [ -z "$filter" ]; then
  ids=$(wgb list --json | python3 -c 'import json, sys
print(",".join(b["id"] for b in json.load(sys.stdin) if b["category"] == "compute"))')
else
  ids=$(wgb list --json --filter "$filter" | python3 -c 'import json, sys
print(",".join(b["id"] for b in json.load(sys.stdin)))')
fi
{ echo "start: $(date -u +%FT%TZ) $(uptime)"; echo "rounds: $rounds; run args: ${run_args[*]:-none}"; } >"$out/log.txt"
side() {  # side NAME ROUND ID: one row in a fresh process; a failure is recorded, never fatal
  local name=$1 round=$2 id=$3 extra=()
  [ "$name" = fixture ] && extra=(--kernel-dir "$fixtures")
  if ! wgb run --quiet --filter "$id" "${extra[@]}" ${run_args[@]+"${run_args[@]}"} \
      --json "$out/$name-$round-$id.json" >/dev/null 2>>"$out/stderr.txt"; then
    echo "round $round $name $id: exit status $?" >>"$out/log.txt"
  fi
}
for round in $(seq 1 "$rounds"); do
  for id in ${ids//,/ }; do
    if [ $((round % 2)) = 1 ]; then side probe "$round" "$id"; side fixture "$round" "$id"
    else side fixture "$round" "$id"; side probe "$round" "$id"; fi
  done
  echo "round $round done: $(date -u +%FT%TZ) $(uptime)" >>"$out/log.txt"
done
echo "end: $(date -u +%FT%TZ) $(uptime)" >>"$out/log.txt"
python3 - "$out" "$ids" "$rounds" <<'EOF' | tee "$out/table.txt"
import json, os, sys
out, ids, rounds = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])

def row(side, r, i):
    try:
        with open(os.path.join(out, f"{side}-{r}-{i}.json")) as f:
            rows = json.load(f)["rows"]
    except (OSError, ValueError, KeyError):
        return None
    return rows[0] if rows else None

def rate(v, unit):
    for scale, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= scale:
            return f"{v / scale:.3g} {prefix}{unit}/s"
    return f"{v:.3g} {unit}/s"

print(f"{'probe':<22} {'probe rate':>14} {'fixture rate':>14} {'ratio':>6}  per-round ratios")
worst = None
for i in ids:
    best = {}
    per_round = []
    status = ""
    for r in range(1, rounds + 1):
        got = {}
        for side in ("probe", "fixture"):
            x = row(side, r, i)
            if x is None or x.get("status") not in ("ok", "throttled"):
                status = f"{side} round {r}: " + (x.get("status", "?") + " " + x.get("message", "") if x else "no row")
                continue
            got[side] = x["value"]
            best[side] = max(best.get(side, 0), x["value"])
            unit = x["metric"]["unit"] if isinstance(x.get("metric"), dict) else ""
        if len(got) == 2:
            per_round.append(got["probe"] / got["fixture"])
    if len(best) < 2:
        print(f"{i:<22} {'-':>14} {'-':>14} {'-':>6}  {status.strip()[:60]}")
        continue
    ratio = best["probe"] / best["fixture"]
    worst = ratio if worst is None else min(worst, ratio)
    spread = f"{min(per_round):.2f}-{max(per_round):.2f}" if per_round else "-"
    print(f"{i:<22} {rate(best['probe'], unit):>14} {rate(best['fixture'], unit):>14} {ratio:>6.2f}  {spread}"
          + (f"  ({status.strip()[:40]})" if status else ""))
if worst is not None:
    print(f"lowest ratio: {worst:.2f}")
EOF
cat "$out/log.txt"
