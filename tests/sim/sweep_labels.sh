#!/usr/bin/env bash
# Objective: every row says which point it is.  `compare --vary KEY=...`
# labels each row with the value it ran (a column named KEY after the
# scheme), so the rows of one scheme differ in that column; `seeds SEED`
# lists only that seed's experiments (an unknown one is refused: see
# tests/bad/sweep_seeds_unknown).
set -u
rxlab="$1"
fails=0
short=(--set run.warmup=10ms --set run.duration=30ms)

csv="$("$rxlab" compare --vary host.cpus=1,2 "${short[@]}" --format csv)"; rc=$?
if [ "$rc" -eq 0 ] && python3 -c "
import csv, io, sys
rows = list(csv.DictReader(io.StringIO(sys.argv[1])))
keys = [(r['scheme'], r['host.cpus']) for r in rows]
schemes = {r['scheme'] for r in rows}
ok = (list(rows[0])[:2] == ['scheme', 'host.cpus'] and len(keys) == len(set(keys))
      and len(rows) == 2 * len(schemes)
      and all({r['host.cpus'] for r in rows if r['scheme'] == s} == {'1', '2'} for s in schemes))
sys.exit(0 if ok else 1)" "$csv"; then
  echo "ok   compare --vary host.cpus=1,2: each row labelled with its host.cpus"
else
  echo "FAIL compare --vary host.cpus=1,2: exit $rc"; echo "$csv" | head -5; fails=$((fails+1))
fi

# linked keys label the row once, with the value both keys take
csv="$("$rxlab" compare --vary nic.eth0.rx-frames+nic.eth0.rx-frames-irq=4,8 "${short[@]}" \
       --format csv)"; rc=$?
if [ "$rc" -eq 0 ] && [ "$(echo "$csv" | head -1 | cut -d, -f2)" = \
     "nic.eth0.rx-frames+nic.eth0.rx-frames-irq" ] &&
   [ "$(echo "$csv" | sed -n 2,3p | cut -d, -f2 | tr '\n' ' ')" = "4 8 " ]; then
  echo "ok   compare --vary A+B=4,8: rows labelled 4 and 8"
else
  echo "FAIL compare --vary A+B=4,8: exit $rc"; echo "$csv" | head -3; fails=$((fails+1))
fi

out="$("$rxlab" seeds 001)"; rc=$?
if [ "$rc" -eq 0 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ "$out" == seeds/001-* ]]; then
  echo "ok   seeds 001: one experiment"
else
  echo "FAIL seeds 001: exit $rc"; echo "$out"; fails=$((fails+1))
fi
out="$("$rxlab" seeds 002)"; n="$(echo "$out" | grep -c '^seeds/002-')"
all="$("$rxlab" seeds | grep -c '^seeds/002-')"
if [ "$n" -eq "$all" ] && [ "$n" -eq "$(echo "$out" | wc -l)" ]; then
  echo "ok   seeds 002: the $n experiments of seed 002"
else
  echo "FAIL seeds 002: $n of $all"; fails=$((fails+1))
fi
[ "$fails" -eq 0 ]
