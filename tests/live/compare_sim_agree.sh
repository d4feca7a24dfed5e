#!/usr/bin/env bash
# Objective: `rxlab live --compare-sim` predicts the test bed: napi mode at
# 10% and 50% of the sender's maximum rate, simulated p50 and p99 within
# 30% of the measured ones (issue 17).  The simulated side is
# deterministic; the live side is this machine, shared with other work,
# whose interference only adds delay: so each load is measured twice and
# passes when one of the two runs agrees on both p50 and p99 (both are
# printed).  A run whose idle check (printed by rxlab live before every
# run) found the receiver core under 90% idle makes the test skip, with
# the figure: its latencies would be other people's, not the model's.
# Nothing here is timed; the tolerance is the issue's 30%.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns
perf_test

TOL=0.30

# quiet NAME: skip unless the idle check of run NAME found the receiver core quiet.
quiet() {
	local idle
	idle=$(sed -n 's/.*idle check: CPU [0-9]* (receiver) \([0-9.]*\)% idle.*/\1/p' "$TMP/$1.err" | head -1)
	[ -n "$idle" ] || fail "run $1 printed no idle check"
	python3 -c "import sys; sys.exit(0 if $idle >= 90 else 1)" ||
		skip "the receiver core was only $idle% idle before run $1 (< 90%): the machine is too busy to compare with the model"
}

live max napi --rate max --duration 1s
quiet max
max=$(get max live napi offered_pps)
check "$max > 50000" "sender maximum $max pps"

failed=""
for pct in 10 50; do
	rate=$(python3 -c "print(int($max * $pct / 100))")
	ok=0
	for run in 1 2; do
		name="l${pct}_$run"
		live "$name" napi --rate "${rate}pps" --duration 1s --compare-sim
		quiet "$name"
		lp50=$(get "$name" live_vs_sim napi live_p50_us)
		sp50=$(get "$name" live_vs_sim napi sim_p50_us)
		lp99=$(get "$name" live_vs_sim napi live_p99_us)
		sp99=$(get "$name" live_vs_sim napi sim_p99_us)
		echo "load $pct% ($rate pps) run $run: p50 live $lp50 sim $sp50 us, p99 live $lp99 sim $sp99 us"
		if python3 -c "import sys; sys.exit(0 if abs($sp50-$lp50) <= $TOL*$lp50 and abs($sp99-$lp99) <= $TOL*$lp99 else 1)"; then
			ok=1
		fi
	done
	if [ "$ok" = 1 ]; then
		echo "ok: load $pct%: simulated p50 and p99 within 30% of measured"
	else
		failed="$failed $pct%"
	fi
done
assert_clean
[ -z "$failed" ] || fail "load$failed: neither run's simulated p50 and p99 within 30% of the measured"
