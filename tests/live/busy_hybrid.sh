#!/usr/bin/env bash
# Objective: busy never sleeps; hybrid batches under load and sleeps when
# the sender stops.  The sender alternates 100 ms at 100 kpps with 100 ms of
# silence.  busy must show 0 sleeps.  hybrid must sleep (the silences),
# switch between polling and sleeping, nap on its timer under load (packets
# 10 us apart come faster than the 20 us a wake-up is priced at), and sleep
# - naps included - less than half as often as interrupt mode does on the
# same traffic (interrupt wakes for every packet or two; a 50 us nap
# collects about five).  With naps off (nap-max 0) the same traffic makes
# hybrid spin: it polls far more often than it sleeps.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns
perf_test

# wake-cost 20us: at 100 kpps (10 us between packets) polling is cheaper than
# sleeping on readiness, whatever `rxlab live calibrate` measured here
live onoff busy,hybrid,interrupt --rate 100kpps --pattern onoff:100ms/100ms --duration 1s \
	--set wake-cost=20us
bs=$(get onoff live busy sleeps)
check "$bs == 0" "busy: $bs sleeps"
hs=$(get onoff live hybrid sleeps)
hw=$(get onoff live hybrid mode_switches)
ht=$(get onoff live hybrid timer_wakeups_per_s)
is=$(get onoff live interrupt sleeps)
check "$hs > 0" "hybrid sleeps when the sender stops: $hs sleeps"
check "$hw > 0" "hybrid switches between polling and sleeping: $hw switches"
check "$ht > 0" "hybrid naps under load: $ht timer wake-ups/s"
check "$hs < 0.5 * $is" "hybrid batches under load: $hs sleeps against interrupt's $is"

live spin hybrid --rate 100kpps --pattern onoff:100ms/100ms --duration 1s \
	--set wake-cost=20us --set nap-max=0
ss=$(get spin live hybrid sleeps)
sp=$(get spin live hybrid polls_per_s)
check "$sp > 4 * $ss" "hybrid without naps spins under load: $sp polls/s, $ss sleeps"
assert_clean
