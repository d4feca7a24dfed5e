#!/usr/bin/env bash
# Objective: --iface runs the receiver on an existing interface instead of
# the test bed.  On lo the built-in sender sends to 127.0.0.1 (the only
# address outside its own namespaces rxlab ever sends to), and at 2 kpps a
# UDP mode and TPACKET receive every packet the sender sends; no test bed
# is built (no NAPI kthread, no veth counters).
#
# What the test controls: 2 kpps for 300 ms schedules N = 600 packets,
# numbered 0..N-1.  How many of them go out is up to the machine: the
# sender stops at the end of the 300 ms (src/live/sender.c), so a sender
# held off its CPU near the end skips the packets it was late for (main
# asserted exactly 2000 pps and failed 1 run in 3 on a loaded machine,
# with 1980 = 594 packets).  So: sent <= N; every packet sent is received
# (lost 0, and received = sent: offered/s and rx/s share the planned 300 ms
# as denominator, one packet being 3.3 of their units, so each recovers
# its count exactly); and sent >= N / 2 - fewer would mean a sender kept
# off the CPU for 150 ms, far beyond any scheduler period of a loaded
# 2-core machine: a broken sender, not load.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns

rate=2000
dur_ms=300
n=$((rate * dur_ms / 1000))
port=$((20000 + $$ % 20000))
live lo napi,tpacket --iface lo --port "$port" --rate "${rate}pps" --duration "${dur_ms}ms"
for m in napi tpacket; do
	lost=$(get lo live $m lost)
	sent=$(python3 -c "print(round($(get lo live $m offered_pps) * $dur_ms / 1000))")
	rx=$(python3 -c "print(round($(get lo live $m rx_pps) * $dur_ms / 1000))")
	check "$sent <= $n and 2 * $sent >= $n" "--iface lo $m: the sender sent $sent of the $n packets scheduled"
	check "$lost == 0 and $rx == $sent" "--iface lo $m: received $rx of $sent, lost $lost"
done
ring=$(get lo live_kernel napi drop_veth_ring)
check "'$ring' == 'nan'" "no veth on --iface lo (drop-ring is '-')"
assert_clean
