#!/usr/bin/env bash
# Before/after the one-pipeline restructuring, interleaved: A = noise branch (1b77be8 + the one noise
# rule), B = driver branch; the same commands, alternating, twice.
set -u
cd /tmp/pipe
A=/work/wt-noise/scripts/wgb; B=/work/wt-driver/scripts/wgb
for round in 1 2; do
  for side in A B; do
    W=${!side}
    uptime > load-$side$round.txt
    COLUMNS=100 $W run --filter 'read-linear,f32-fma-scalar,reduction-*,tile-*' --json run-$side$round.json > run-$side$round.out 2> run-$side$round.err
    COLUMNS=100 $W memory --working-set 16 --budget-ms 300 --latency-budget-ms 300 --sustain-ms 600 --transition-ms 50 --json memory-$side$round.json > memory-$side$round.out 2>&1
    COLUMNS=100 $W sweep read-linear --values 1M,4M --json sweep-$side$round.json > sweep-$side$round.out 2>&1
    COLUMNS=100 $W host --quick --json host-$side$round.json > host-$side$round.out 2>&1
    uptime >> load-$side$round.txt
  done
done
echo done > done.txt
