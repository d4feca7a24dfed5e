#!/usr/bin/env bash
# Objective: --compare-sim runs each live row's workload in the simulator
# (scenario live-veth, profile veth-host) at the rate the sender offered:
# the simulator delivers that rate for napi, its NAPI is threaded exactly
# when the live one was (the test bed's default, not with --no-threaded),
# and a mode without a simulated counterpart (busy) has no simulated
# figures.  The simulated side is
# deterministic; two runs of the same rate give the same simulated p99.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns

live cmp napi,busy,coalesce --rate 20kpps --duration 300ms --compare-sim
off=$(get cmp live napi offered_pps)
sim=$(get cmp live_vs_sim napi sim_rx_pps)
check "abs($sim - $off) <= 0.01 * $off" "napi: simulated $sim pps for $off offered"
as=$(get cmp live_vs_sim coalesce sim_as)
check "'$as' == 'napi + rx-usecs/rx-frames; threaded napi'" "coalesce is simulated as $as"
live soft napi --rate 20kpps --duration 300ms --compare-sim --no-threaded
as=$(get soft live_vs_sim napi sim_as)
check "'$as' == 'napi, irq per frame'" "napi without threaded NAPI is simulated as $as"
b=$(get cmp live_vs_sim busy sim_rx_pps)
check "'$b' == 'nan'" "busy has no simulated counterpart"
"$RXLAB" run live-veth --set traffic.rate=20kpps --set host.profile=veth-host --format csv >"$TMP/a.csv"
"$RXLAB" run live-veth --set traffic.rate=20kpps --set host.profile=veth-host --format csv >"$TMP/b.csv"
cmp -s "$TMP/a.csv" "$TMP/b.csv" || fail "the simulated side is not deterministic"
echo "ok: live-veth simulation deterministic"
assert_clean
