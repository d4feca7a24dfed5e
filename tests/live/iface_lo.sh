#!/usr/bin/env bash
# Objective: --iface runs the receiver on an existing interface instead of
# the test bed.  On lo the built-in sender sends to 127.0.0.1 (the only
# address outside its own namespaces rxlab ever sends to), and at 2 kpps a
# UDP mode and TPACKET receive every packet; no test bed is built (no NAPI
# kthread, no veth counters).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns

port=$((20000 + $$ % 20000))
live lo napi,tpacket --iface lo --port "$port" --rate 2kpps --duration 300ms
for m in napi tpacket; do
	lost=$(get lo live $m lost)
	rx=$(get lo live $m rx_pps)
	check "$lost == 0 and $rx == 2000" "--iface lo $m: lost $lost, received $rx pps"
done
ring=$(get lo live_kernel napi drop_veth_ring)
check "'$ring' == 'nan'" "no veth on --iface lo (drop-ring is '-')"
assert_clean
