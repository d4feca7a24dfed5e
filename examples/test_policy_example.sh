#!/usr/bin/env bash
# test_policy_example.sh POLICY_LIVELOCK - run examples/policy_livelock.c.
# Objective: a policy registered by a program outside rxlab runs in the
# simulator through adaptive-rx = policy:step and changes what it should:
# at 200 kpps under NAPI it forwards everything with under half the
# interrupts of the unmoderated port, under the classic kernel at 400 kpps
# it forwards where the unmoderated port is livelocked (0/s), and its
# output is the same bytes on a second run (the simulator's determinism).
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/a"; exit 1; }

"$bin" 200kpps 400kpps >"$tmp/a"
"$bin" 200kpps 400kpps >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "two runs differ"
# columns: rxpath offered static-fwd static-irq step-fwd step-irq
row() { awk -v p="$1" -v r="$2" '$1 == p && $2 == r' "$tmp/a"; }
read -r _ _ sf si pf pi <<<"$(row napi 200000)"
[ -n "$pi" ] || fail "no napi 200 kpps row"
awk -v sf="$sf" -v pf="$pf" 'BEGIN { exit !(pf >= 0.99 * sf) }' || fail "napi: step forwards less"
awk -v si="$si" -v pi="$pi" 'BEGIN { exit !(pi < si / 2) }' || fail "napi: step irq/s not below half"
read -r _ _ sf si pf pi <<<"$(row classic 400000)"
[ "$sf" = 0 ] || fail "classic 400 kpps unmoderated is not livelocked (fwd $sf)"
awk -v pf="$pf" 'BEGIN { exit !(pf > 100000) }' || fail "classic: step does not forward"
# A rate the loader refuses ends the program with a non-zero status.
if "$bin" 2>/dev/null >/dev/null no-such-rate; then fail "bad rate accepted"; fi
echo ok
