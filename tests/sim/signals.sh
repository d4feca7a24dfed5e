#!/usr/bin/env bash
# Objective: Ctrl-C (SIGINT) or SIGTERM during a run prints the report for the
# simulated time reached, marked partial, and exits 130 / 143; during a sweep
# the finished points are printed and the interrupted one is marked partial.
# (The sleep only gives the run time to start; nothing asserts on time.)
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
long=(run livelock --set run.duration=3600s --set traffic.rate=1Mpps --set host.rxpath=classic)

"$rxlab" "${long[@]}" > "$tmp/int.txt" 2> "$tmp/int.err" & pid=$!
sleep 1; kill -INT "$pid"; wait "$pid"; rc=$?
if [ "$rc" -eq 130 ] && grep -q "PARTIAL: interrupted at" "$tmp/int.txt" && grep -q "netstat" "$tmp/int.txt"; then
  echo "ok   SIGINT: exit 130, partial report ($(head -1 "$tmp/int.txt"))"
else
  echo "FAIL SIGINT: exit $rc"; cat "$tmp/int.err"; fails=$((fails+1))
fi

"$rxlab" "${long[@]}" --format json > "$tmp/term.json" 2> /dev/null & pid=$!
sleep 1; kill -TERM "$pid"; wait "$pid"; rc=$?
if [ "$rc" -eq 143 ] && python3 -c "
import json,sys; d=json.load(open('$tmp/term.json')); s=d['summary'][0]
sys.exit(0 if s['partial'] is True else 1)"; then
  echo "ok   SIGTERM: exit 143, JSON summary has partial = true"
else
  echo "FAIL SIGTERM: exit $rc"; fails=$((fails+1))
fi

"$rxlab" sweep livelock --vary traffic.rate=100kpps..1Mpps:2000 --set run.duration=2s --format csv > "$tmp/sweep.csv" 2> /dev/null & pid=$!
sleep 1; kill -INT "$pid"; wait "$pid"; rc=$?
if [ "$rc" -eq 130 ] && python3 -c "
import csv,sys; rows=list(csv.DictReader(open('$tmp/sweep.csv')))
flags = [r['partial'] == 'true' for r in rows]
rates = [r['traffic.rate'] for r in rows]
# a prefix of the points in order; the points that were running when the
# signal came (at most one per worker) end partial, the others are complete
ok = 1 <= len(rows) < 2000 and sum(flags) <= 256 and len(set(rates)) == len(rates)
sys.exit(0 if ok else 1)"; then
  echo "ok   sweep SIGINT: exit 130, $(($(wc -l < "$tmp/sweep.csv") - 1)) finished rows kept"
else
  echo "FAIL sweep SIGINT: exit $rc"; fails=$((fails+1))
fi
[ "$fails" -eq 0 ]
