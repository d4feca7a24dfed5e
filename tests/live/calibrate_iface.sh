#!/bin/bash
# calibrate_iface.sh - `rxlab live calibrate --iface IFACE --sender-ns NAME
# --repeat N` on a veth pair of the test's own: two named namespaces
# rxcv-rPID (the receiver, where rxlab runs) and rxcv-tPID (the sender), link-local addresses (scope
# link: not a host connection), GRO and threaded NAPI on the receiving
# veth, its kthread pinned to CPU 1 (SCHED_FIFO 10) as the test bed does.
# Asserts the profile: a spread line for every cost with "(N run", the "not
# measured" line for the hard IRQ, DMA and registers, the interface and
# host in its description, and that it loads (`rxlab run ... --set
# host.profile=FILE`).  Then the refusals: --iface without --sender-ns, an
# interface with a global address without --allow-host-iface (exit 2).
# Skips, with the message, when the machine gave no quiet moment for the
# wake-up runs (live_calibrate.c).
#
# N is 1, and 2 under the sanitizers: each calibration takes about 8 s, and
# calibrate_repeat.sh, which runs --repeat 2 without --iface, skips itself
# there, so that each build runs the repeat's code once and --iface once.
source "$2/tests/live/lib.sh"
need_netns
n=1 runs="1 run"
[ -z "${RXLAB_SANITIZED:-}" ] || n=2 runs="2 runs"
R=rxcv-r$$ T=rxcv-t$$
cleanup() { ip netns del "$R" 2>/dev/null; ip netns del "$T" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
# ethtool -K IFACE gro on / tso off through SIOCETHTOOL (ETHTOOL_SGRO,
# ETHTOOL_STSO; no ethtool(8) needed): veth queues a packet for NAPI only
# when the receiver has GRO and the sender no TSO (veth_skb_is_eligible_for_gro)
cat >"$TMP/feat.py" <<'PY'
import ctypes, fcntl, socket, struct, sys
SIOCETHTOOL, CMD = 0x8946, {"gro": 0x2c, "tso": 0x1f}[sys.argv[2]]
val = ctypes.create_string_buffer(struct.pack("II", CMD, int(sys.argv[3])))
ifr = struct.pack("16sP", sys.argv[1].encode(), ctypes.addressof(val)) + b"\0" * 16
fcntl.ioctl(socket.socket(socket.AF_INET, socket.SOCK_DGRAM), SIOCETHTOOL, ifr)
PY
inr() { ip netns exec "$R" "$@"; }
ip netns add "$R" && ip netns add "$T" || fail "ip netns add"
ip -n "$R" link add rxcv-r type veth peer name rxcv-s netns "$T" || fail "veth"
ip -n "$R" link add rxcv-g type veth peer name rxcv-h || fail "second veth"
inr python3 "$TMP/feat.py" rxcv-r gro 1 || fail "GRO on rxcv-r"
ip netns exec "$T" python3 "$TMP/feat.py" rxcv-s tso 0 || fail "TSO off on rxcv-s"
ip -n "$R" addr add 169.254.88.2/24 dev rxcv-r scope link
ip -n "$R" addr add 192.0.2.2/24 dev rxcv-g   # global scope: looks like a host connection
ip -n "$T" addr add 169.254.88.1/24 dev rxcv-s scope link
for l in lo rxcv-r rxcv-g rxcv-h; do ip -n "$R" link set "$l" up; done
ip -n "$T" link set lo up && ip -n "$T" link set rxcv-s up
inr sh -c 'echo 1 > /sys/class/net/rxcv-r/threaded' || fail "threaded NAPI on rxcv-r"
pid=$(ps -eo pid,comm | awk '$2 ~ /^napi\/rxcv-r-/ {print $1; exit}')
[ -n "$pid" ] || fail "no napi/rxcv-r kthread"
taskset -pc 1 "$pid" >/dev/null && chrt -f -p 10 "$pid" || fail "pin the kthread"

# refusals first (they build nothing)
inr "$RXLAB" live calibrate --iface rxcv-r --out "$TMP/x.ini" 2>"$TMP/e1"; rc=$?
[ $rc -eq 2 ] && grep -q -- "needs --sender-ns NAME" "$TMP/e1" || fail "--iface alone: $rc $(cat "$TMP/e1")"
inr "$RXLAB" live calibrate --iface rxcv-g --sender-ns "$T" --out "$TMP/x.ini" 2>"$TMP/e2"; rc=$?
[ $rc -eq 2 ] && grep -q "global address 192.0.2.2/24.*--allow-host-iface" "$TMP/e2" ||
	fail "global address not refused: $rc $(cat "$TMP/e2")"
[ ! -e "$TMP/x.ini" ] || fail "a refused calibration wrote its profile"

out="$TMP/cal.ini"
if ! inr "$RXLAB" live calibrate --iface rxcv-r --sender-ns "$T" --repeat "$n" --duration 200ms \
	--out "$out" >"$TMP/cal.out" 2>"$TMP/cal.err"; then
	cat "$TMP/cal.err"
	grep -q "host is quieter\|quieter machine" "$TMP/cal.err" && skip "live calibrate found no quiet moment (above)"
	fail "calibrate --iface failed"
fi
cat "$TMP/cal.err"
for k in ctx-switch syscall isr rx-pkt+local-deliver sched-wake cstate-exit cold-wake cold-after hrtimer-irq; do
	grep -Eq "^#   spread: ${k//+/\\+} [0-9.]+us \+-[0-9]+% \($runs, [0-9.]+\.\.[0-9.]+us\)" "$out" ||
		fail "no spread line for $k in the profile"
	grep -q "rxlab live calibrate: spread: $k " "$TMP/cal.err" || fail "no spread for $k printed"
done
grep -q "^#   not measured: irq-entry, reg-read, dma-fixed, dma-per-byte" "$out" ||
	fail "the profile does not say what was not measured"
grep -q "not measured:" "$TMP/cal.err" || fail "the output does not say what was not measured"
grep -q "^description = \"rxcv-r receiver of $(hostname | tr -c 'A-Za-z0-9._\n-' -) (Linux " "$out" ||
	fail "description does not name the interface and host: $(grep description "$out")"
[ "$(grep -c "^# Calibration [12] of $n:" "$out")" -eq "$n" ] || fail "not $n calibrations' runs"
"$RXLAB" run udp-sink --set host.profile="$out" --set traffic.rate=20kpps >"$TMP/run.out" 2>&1 ||
	fail "the profile does not load: $(cat "$TMP/run.out")"
echo "OK"
