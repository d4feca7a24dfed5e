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

live plain napi --rate 100kpps --duration 1s
live defer napi --rate 100kpps --duration 1s \
	--set napi-defer-hard-irqs=2 --set napi-gro-flush-timeout=50us
p=$(get plain live napi pkts_per_poll)
d=$(get defer live napi pkts_per_poll)
check "$d >= 3 * $p" "packets per poll: deferred $d >= 3 x plain $p"
for r in plain defer; do
	lost=$(get $r live napi lost)
	off=$(get $r live napi offered_pps)
	check "$lost <= 0.01 * $off" "$r: lost $lost of $off (at most 1%)"
done

live kplain epoll --rate 100kpps --duration 1s
live kdefer epoll --rate 100kpps --duration 1s \
	--set napi_defer_hard_irqs=2 --set gro_flush_timeout=50us
knobs=$(get kdefer live_kernel epoll device_knobs)
check "'$knobs' == 'napi_defer_hard_irqs=2 gro_flush_timeout=50us'" "device knobs applied: $knobs"
wp=$(get kplain live_kernel epoll napi_wakeups_per_s)
wd=$(get kdefer live_kernel epoll napi_wakeups_per_s)
check "$wd < $wp" "NAPI kthread wake-ups/s: deferred $wd < plain $wp"
assert_clean
