#!/usr/bin/env bash
# First result from a clean clone: every line stamped with the seconds since the start.
cd /tmp/fr-clone
start=$(date +%s.%N)
el() { echo "$(date +%s.%N) - $start" | bc; }
uptime > /tmp/fr-uptime.txt
{ /usr/bin/time -f "scripts/run.sh total: wall %e s user %U s sys %S s" bash scripts/run.sh 2>&1; } | while IFS= read -r l; do printf '%8.1f s  %s\n' "$(el)" "$l"; done > /tmp/fr-all.txt
uptime >> /tmp/fr-uptime.txt
