#!/usr/bin/env bash
# Objective: busy never sleeps; hybrid spins under load and sleeps when the
# sender stops.  The sender alternates 100 ms at 100 kpps with 100 ms of
# silence.  busy must show 0 sleeps.  hybrid must sleep (the silences),
# switch between polling and sleeping, and under load sleep less than half
# as often as interrupt mode does on the same traffic (interrupt sleeps
# after every short poll; hybrid keeps polling while packets come faster
# than a wake-up costs).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns
perf_test

# wake-cost 20us: at 100 kpps (10 us between packets) polling is cheaper than
# sleeping, whatever `rxlab live calibrate` measured on this machine
live onoff busy,hybrid,interrupt --rate 100kpps --pattern onoff:100ms/100ms --duration 1s \
	--set wake-cost=20us
bs=$(get onoff live busy sleeps)
check "$bs == 0" "busy: $bs sleeps"
hs=$(get onoff live hybrid sleeps)
hw=$(get onoff live hybrid mode_switches)
is=$(get onoff live interrupt sleeps)
check "$hs > 0" "hybrid sleeps when the sender stops: $hs sleeps"
check "$hw > 0" "hybrid switches between polling and sleeping: $hw switches"
check "$hs < 0.5 * $is" "hybrid spins under load: $hs sleeps against interrupt's $is"
assert_clean
