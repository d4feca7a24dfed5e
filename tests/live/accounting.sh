#!/usr/bin/env bash
# Objective: every lost packet is found at a named place.  Long kernel
# deferral (napi_defer_hard_irqs 100, gro_flush_timeout 20 ms) at 100 kpps
# lets about 2000 packets arrive between polls (600 even for a sender slowed
# down by the sanitizers), so veth's 256-entry ring
# overflows: each refused packet is one tx_dropped on the sending veth and
# one ENOBUFS at the sender, and what the ring let through but the socket
# could not hold is a socket drop.  lost = ring drops + socket drops.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns

live acc epoll --rate 100kpps --duration 500ms \
	--set napi_defer_hard_irqs=100 --set gro_flush_timeout=20ms
lost=$(get acc live epoll lost)
sock=$(get acc live_kernel epoll drop_socket)
ring=$(get acc live_kernel epoll drop_veth_ring)
enob=$(get acc live_kernel epoll drop_enobufs)
check "$ring > 0" "the veth ring overflowed: $ring drops"
check "$ring == $enob" "each ring drop is an ENOBUFS at the sender: $ring = $enob"
check "$lost == $ring + $sock" "lost $lost = ring $ring + socket $sock"
assert_clean
