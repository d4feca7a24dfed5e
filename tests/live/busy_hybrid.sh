#!/usr/bin/env bash
# Objective: busy never sleeps; hybrid batches under load and sleeps when
# the sender stops.  The sender alternates 100 ms at 100 kpps with 100 ms of
# silence (five silences in 1 s, the last cut by the end of the run).  busy
# must show 0 sleeps.  hybrid must sleep in every silence (a nap that finds
# nothing ends in a sleep on readiness: >= 4 sleeps), switch between
# polling and sleeping (>= 2 per on/off cycle after the first: >= 8), nap
# on its timer under load (packets 10 us apart come faster than the 20 us a
# wake-up is priced at), and never spin with naps on: with wake-cost 20 us
# and nap-max 50 us every gap that makes spinning pay (below 20 us) makes a
# nap pay (below 25 us), so each of its polls follows a sleep (readiness or
# nap) or a full poll (budget 64): polls <= sleeps + packets / 64 + 1.
# With naps off (nap-max 0) the same traffic makes hybrid spin: it polls
# far more often than it sleeps.
#
# Main also asserted that hybrid sleeps less than half as often as
# interrupt mode; that depends on how evenly packets come, which the
# machine decides: a sender held off its CPU by two CPU hogs sends in
# bursts, interrupt mode then wakes once per burst, and hybrid (a wake-up
# and a nap per burst) slept 0.59-0.77 times as often (failed 2 runs in 4).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns
perf_test

# wake-cost 20us: at 100 kpps (10 us between packets) polling is cheaper than
# sleeping on readiness, whatever `rxlab live calibrate` measured here
live onoff busy,hybrid,interrupt --rate 100kpps --pattern onoff:100ms/100ms --duration 1s \
	--set wake-cost=20us
bs=$(get onoff live busy sleeps)
is=$(get onoff live interrupt sleeps)
check "$bs == 0" "busy: $bs sleeps"
hs=$(get onoff live hybrid sleeps)
hw=$(get onoff live hybrid mode_switches)
ht=$(get onoff live hybrid timer_wakeups_per_s)
hp=$(get onoff live hybrid polls_per_s)
hr=$(get onoff live hybrid rx_pps)
check "$hs >= 4" "hybrid sleeps when the sender stops: $hs sleeps"
check "$hw >= 8" "hybrid switches between polling and sleeping: $hw switches"
check "$ht > 0" "hybrid naps under load: $ht timer wake-ups/s"
check "$hp <= $hs + $hr / 64 + 1" "hybrid does not spin with naps: $hp polls for $hs sleeps and $hr packets"
echo "info: interrupt mode slept $is times on the same traffic"

live spin hybrid --rate 100kpps --pattern onoff:100ms/100ms --duration 1s \
	--set wake-cost=20us --set nap-max=0
ss=$(get spin live hybrid sleeps)
sp=$(get spin live hybrid polls_per_s)
check "$sp > 4 * $ss" "hybrid without naps spins under load: $sp polls/s, $ss sleeps"
assert_clean
