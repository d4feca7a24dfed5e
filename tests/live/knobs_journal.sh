#!/usr/bin/env bash
# Objective: device settings changed on a real interface (--iface) are
# restored after the run, and also after a run killed with SIGKILL: its
# journal (/run/rxlab/knobs.PID) is replayed by the next rxlab live.  The
# same holds for the XDP program an af-xdp run attaches.  The
# "real interface" is a veth pair the test makes in the host namespace
# (named rxlab<pid>r / rxlab<pid>s) and removes on exit.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns

dev="rxlab$$r"
ip link add "$dev" type veth peer name "rxlab$$s" || skip "cannot create a veth pair"
trap 'ip link del "$dev" 2>/dev/null; rm -rf "$TMP"' EXIT
ip link set "$dev" up
ip link set "rxlab$$s" up
gft=/sys/class/net/$dev/gro_flush_timeout
echo 1000 >"$gft"

# A normal run restores the value it changed.
"$RXLAB" live epoll --iface "$dev" --duration 100ms --set dev.gro_flush_timeout=77777 >/dev/null
check "$(cat $gft) == 1000" "gro_flush_timeout back to 1000 after a run (now $(cat $gft))"

# A killed run leaves the value and its journal; the next run undoes it.
"$RXLAB" live epoll --iface "$dev" --duration 10s --set dev.gro_flush_timeout=88888 >/dev/null &
pid=$!
for i in $(seq 1 100); do
	[ "$(cat $gft)" = 88888 ] && break
	sleep 0.05
done
check "$(cat $gft) == 88888" "gro_flush_timeout set by the run"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
check "$(cat $gft) == 88888" "a SIGKILLed run cannot restore"
[ -f "/run/rxlab/knobs.$pid" ] || fail "no journal /run/rxlab/knobs.$pid"
"$RXLAB" live epoll --iface "$dev" --duration 50ms 2>"$TMP/reap.err" >/dev/null
grep -q "restored $dev gro_flush_timeout = 1000" "$TMP/reap.err" || { cat "$TMP/reap.err"; fail "no restore message"; }
check "$(cat $gft) == 1000" "the next run restored gro_flush_timeout to 1000"
[ ! -e "/run/rxlab/knobs.$pid" ] || fail "journal of $pid still there"
echo "ok: journal removed"

# AF_XDP on a real interface: the library attaches an XDP program.  A run
# killed before it could detach leaves the program; the next run detaches
# it from its journal.
xdp_on() { ip -o link show dev "$dev" | grep -q 'prog/xdp'; }
xdp_on && fail "an XDP program on $dev before the run"
"$RXLAB" live af-xdp --iface "$dev" --duration 10s >/dev/null 2>"$TMP/xdp.err" &
pid=$!
for i in $(seq 1 100); do
	xdp_on && break
	sleep 0.05
done
xdp_on || { cat "$TMP/xdp.err"; fail "af-xdp run attached no XDP program"; }
echo "ok: af-xdp run attached an XDP program to $dev"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
xdp_on || fail "the program went away without a restore (nothing tested)"
"$RXLAB" live epoll --iface "$dev" --duration 50ms 2>"$TMP/reap2.err" >/dev/null
grep -q "restored $dev xdp = 0" "$TMP/reap2.err" || { cat "$TMP/reap2.err"; fail "no XDP restore message"; }
xdp_on && fail "XDP program still attached to $dev"
echo "ok: the next run detached the killed run's XDP program"
