#!/usr/bin/env bash
# Objective: NAPI deferral batches.  At about 100 kpps, the napi mode with
# napi-defer-hard-irqs 2 and napi-gro-flush-timeout 50 us (the loop re-polls
# after 50 us instead of re-arming, until 2 empty polls) gets at least 3x the
# packets per poll of plain napi, which re-arms after every short poll.  The
# kernel's own deferral (device napi_defer_hard_irqs 2, gro_flush_timeout
# 50 us) batches the NAPI kthread the same way: fewer kthread wake-ups.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns
perf_test

# The sender sends one packet per call (--batch 1), so arrivals are as even
# as the machine allows.  Packets per poll of plain napi grow when the
# receiver is slow to wake (a machine busy with other work), which narrows
# the ratio; so up to three pairs of runs are made, and one pair must show
# it.  That the deferred loop waits on its timer instead of readiness holds
# in every pair: it wakes on readiness far less often.
met=""
for attempt in 1 2 3; do
	live plain$attempt napi --rate 100kpps --duration 1s --batch 1
	live defer$attempt napi --rate 100kpps --duration 1s --batch 1 \
		--set napi-defer-hard-irqs=2 --set napi-gro-flush-timeout=50us
	p=$(get plain$attempt live napi pkts_per_poll)
	d=$(get defer$attempt live napi pkts_per_poll)
	pw=$(get plain$attempt live napi wakeups_per_s)
	dw=$(get defer$attempt live napi wakeups_per_s)
	check "$dw < 0.2 * $pw" "pair $attempt: deferred napi wakes on readiness $dw/s, plain $pw/s"
	for r in plain$attempt defer$attempt; do
		lost=$(get $r live napi lost)
		off=$(get $r live napi offered_pps)
		check "$lost <= 0.01 * $off" "$r: lost $lost of $off (at most 1%)"
	done
	if python3 -c "import sys; sys.exit(0 if $d >= 3 * $p else 1)"; then
		met="deferred $d >= 3 x plain $p (pair $attempt)"
		break
	fi
	echo "pair $attempt: packets per poll deferred $d, plain $p: under 3x, again"
done
[ -n "$met" ] || fail "packets per poll: deferred never reached 3x plain in 3 pairs"
echo "ok: packets per poll: $met"

live kplain epoll --rate 100kpps --duration 1s
live kdefer epoll --rate 100kpps --duration 1s \
	--set napi_defer_hard_irqs=2 --set gro_flush_timeout=50us
knobs=$(get kdefer live_kernel epoll device_knobs)
check "'$knobs' == 'napi_defer_hard_irqs=2 gro_flush_timeout=50us'" "device knobs applied: $knobs"
wp=$(get kplain live_kernel epoll napi_wakeups_per_s)
wd=$(get kdefer live_kernel epoll napi_wakeups_per_s)
rp=$(get kplain live epoll rx_pps)
rd=$(get kdefer live epoll rx_pps)
check "$wd / $rd < $wp / $rp" "NAPI kthread wake-ups per packet: deferred $wd/s for $rd pps < plain $wp/s for $rp pps"
assert_clean
