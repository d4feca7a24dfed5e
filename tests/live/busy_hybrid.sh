#!/usr/bin/env bash
# Objective: busy never sleeps; hybrid spins under load and sleeps when the
# sender stops.  The sender alternates 100 ms at 100 kpps with 100 ms of
# silence: busy must show 0 sleeps; hybrid must sleep (the silences) yet
# take far fewer sleeps than packets and poll empty while spinning.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns

live onoff busy,hybrid --rate 100kpps --pattern onoff:100ms/100ms --duration 1s
bs=$(get onoff live busy sleeps)
check "$bs == 0" "busy: $bs sleeps"
hs=$(get onoff live hybrid sleeps)
he=$(get onoff live hybrid empty_polls)
hrx=$(get onoff live hybrid rx_pps)
check "$hs > 0" "hybrid sleeps when the sender stops: $hs sleeps"
check "$hs < 0.2 * $hrx" "hybrid spins under load: $hs sleeps for $hrx packets"
check "$he > 0" "hybrid polls empty while spinning: $he empty polls"
assert_clean
