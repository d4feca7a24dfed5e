#!/usr/bin/env bash
# Objective: `rxlab host IFACE` reads back what was set on an interface.
# The test builds its own test bed (a network namespace rxh-PID with a veth
# pair of 4 RX/TX queues), sets on one end: 3 RX/TX channels (ethtool -L
# through SIOCETHTOOL), GRO on (so that veth has NAPIs), threaded 1,
# napi_defer_hard_irqs 3 and gro_flush_timeout 20000 ns (sysfs), rps_cpus
# of every RX queue to CPU 0, and, over netdev netlink napi-set when the
# kernel has it, defer-hard-irqs 7 on its first NAPI alone.  Then, inside
# the namespace, `rxlab host VETH --out F --format json` must report each
# of these in the table and write them into the scenario, name what veth
# cannot answer (ethtool -g/-c/-x: EOPNOTSUPP; no IRQ), and `rxlab run F`
# and `rxlab tune F` must load F.  lo and an absent interface are asked too.  Everything is
# deleted on every exit path (trap).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns
command -v ip >/dev/null || skip "ip(8) missing"

NS="rxh-$$"
A=rxh0 B=rxh1
cleanup() { ip netns del "$NS" 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT INT TERM
ip netns add "$NS" || skip "cannot create a named network namespace"
in_ns() { ip netns exec "$NS" "$@"; }
ip -n "$NS" link add "$A" numrxqueues 4 numtxqueues 4 type veth peer name "$B" \
	numrxqueues 4 numtxqueues 4
ip -n "$NS" link set lo up
ip -n "$NS" link set "$A" up
ip -n "$NS" link set "$B" up

# ethtool -L / -K and netlink napi-set without the tools: the ioctl and
# the generic netlink messages, written out.
cat > "$TMP/set.py" <<'PY'
import ctypes, fcntl, socket, struct, sys

def ethtool(ifname, buf):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    cb = ctypes.create_string_buffer(buf, len(buf))
    fcntl.ioctl(s, 0x8946, struct.pack('16sP', ifname.encode(), ctypes.addressof(cb)))
    return cb.raw

def nlattr(t, data):
    n = 4 + len(data)
    return struct.pack('HH', n, t) + data + b'\0' * ((4 - n % 4) % 4)

def genl(s, fam, cmd, attrs, flags=0x5):  # NLM_F_REQUEST | NLM_F_ACK
    body = struct.pack('BBH', cmd, 1, 0) + attrs
    s.send(struct.pack('IHHII', 16 + len(body), fam, flags, 1, 0) + body)
    out = b''
    while True:
        d = s.recv(65536)
        out += d
        ln, typ = struct.unpack('IH', d[:6])
        if typ == 2:  # NLMSG_ERROR: the ACK or the error
            err = struct.unpack('i', d[16:20])[0]
            if err:
                raise OSError(-err, 'netlink')
            return out

def family(s, name):
    r = genl(s, 0x10, 3, nlattr(2, name.encode() + b'\0'))  # CTRL_CMD_GETFAMILY
    i = 20
    while i < len(r):
        n, t = struct.unpack('HH', r[i:i + 4])
        if n == 0:
            break
        if t == 1:  # CTRL_ATTR_FAMILY_ID
            return struct.unpack('H', r[i + 4:i + 6])[0]
        i += (n + 3) & ~3
    raise OSError(2, 'no family ' + name)

ifname, what = sys.argv[1], sys.argv[2]
if what == 'channels':
    v = list(struct.unpack('9I', ethtool(ifname, struct.pack('9I', 0x3c, *[0] * 8))))
    if len(sys.argv) > 3:
        v[0], v[5], v[6] = 0x3d, int(sys.argv[3]), int(sys.argv[3])
        ethtool(ifname, struct.pack('9I', *v))
        v = list(struct.unpack('9I', ethtool(ifname, struct.pack('9I', 0x3c, *[0] * 8))))
    print(v[5], v[6], v[8])  # rx_count tx_count combined_count
elif what == 'gro':
    ethtool(ifname, struct.pack('II', 0x2c, int(sys.argv[3])))  # ETHTOOL_SGRO
elif what == 'napi-defer':  # napi-set id=ARGV3 defer-hard-irqs=ARGV4
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
    fam = family(s, 'netdev')
    genl(s, fam, 14, nlattr(2, struct.pack('I', int(sys.argv[3]))) +
         nlattr(5, struct.pack('I', int(sys.argv[4]))))
PY
set_py() { in_ns python3 "$TMP/set.py" "$@"; }

ch="$(set_py "$A" channels 3)" || skip "veth has no ethtool -L here"
[ "$ch" = "3 3 0" ] || fail "ethtool -L rx 3 tx 3 read back '$ch'"
set_py "$A" gro 1
set_py "$B" gro 1
sysfs=/sys/class/net/$A
in_ns sh -c "echo 1 > $sysfs/threaded && echo 3 > $sysfs/napi_defer_hard_irqs &&
	echo 20000 > $sysfs/gro_flush_timeout" || fail "cannot set the sysfs NAPI knobs of $A"
for q in 0 1 2; do in_ns sh -c "echo 1 > $sysfs/queues/rx-$q/rps_cpus"; done

run_host() { # NAME ARGS...: rxlab host ARGS in the namespace; rc in $TMP/NAME.rc
	local name="$1"; shift
	set +e
	in_ns "$RXLAB" host "$@" > "$TMP/$name.out" 2> "$TMP/$name.err"
	echo $? > "$TMP/$name.rc"
	set -e
}
run_host first "$A" --format json
field() { # FILE FIELD: the table's value of FIELD ("MISSING" when absent)
	python3 - "$1" "$2" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
print(next((r["value"] if r["status"] == "read" else "UNREAD " + r["status"]
            for r in rows if r["field"] == sys.argv[2]), "MISSING"))
PY
}
napis() { python3 -c "import json,sys; print(' '.join(sorted({r['field'].split('.')[1] for r in json.load(open(sys.argv[1])) if r['field'].startswith('napi.')}, key=int)))" "$1"; }
[ "$(cat "$TMP/first.rc")" = 0 ] || { cat "$TMP/first.err"; fail "rxlab host $A failed"; }
ids=($(napis "$TMP/first.out"))
[ "${#ids[@]}" = 3 ] || fail "3 channels with GRO on: want 3 NAPIs, the table has ${#ids[@]}"
echo "ok: 3 NAPIs read: ${ids[*]}"

# Per-NAPI: the first NAPI's deferral alone, over netlink.
per_napi=no
if set_py "$A" napi-defer "${ids[0]}" 7 2>"$TMP/napi-set.err"; then
	per_napi=yes
else
	echo "note: napi-set not available here ($(cat "$TMP/napi-set.err" | tail -1)); sysfs only"
fi
F="$TMP/host.ini"
run_host table "$A" --out "$F" --format json
[ "$(cat "$TMP/table.rc")" = 0 ] || { cat "$TMP/table.err"; fail "rxlab host $A --out failed"; }
T="$TMP/table.out"

want() { # FIELD VALUE
	local got
	got="$(field "$T" "$1")"
	[ "$got" = "$2" ] || fail "table: $1 = '$got', want '$2'"
	echo "ok: table $1 = $2"
}
unread() { # FIELD REASON
	local got
	got="$(field "$T" "$1")"
	case "$got" in "UNREAD $2"*) echo "ok: table $1: $got" ;;
	*) fail "table: $1 = '$got', want it unread with $2" ;; esac
}
want driver veth
want channels.rx 3
want channels.tx 3
want speed 10000Mbit
want gro 1
want threaded 1
want napi_defer_hard_irqs 3
want gro_flush_timeout 20000ns
for q in 0 1 2; do want "rx-$q.rps_cpus" 0; done
for id in "${ids[@]:1}"; do
	want "napi.$id.defer-hard-irqs" 3
	want "napi.$id.gro-flush-timeout" 20000ns
	want "napi.$id.threaded" 1
done
want "napi.${ids[0]}.defer-hard-irqs" "$([ $per_napi = yes ] && echo 7 || echo 3)"
unread rx-ring EOPNOTSUPP
unread rx-usecs EOPNOTSUPP
unread rss.indir-size EOPNOTSUPP
unread "napi.${ids[0]}.irq" ENOENT
unread irqs ENOENT

key() { # KEY VALUE: the line "KEY = VALUE" in [nic A] of the scenario
	awk -v k="$1" -v v="$2" '/^\[/ { s = $0 } s == "[nic '"$A"']" && $0 == k " = " v { f = 1 }
		END { exit !f }' "$F" || { cat "$F"; fail "scenario lacks '$1 = $2' in [nic $A]"; }
	echo "ok: scenario $1 = $2"
}
line() { grep -qF -- "$1" "$F" || { cat "$F"; fail "scenario lacks '$1'"; }; echo "ok: scenario has '$1'"; }
key combined 3
key threaded 1
key gro_flush_timeout 20000ns
key gro on
key speed 10000Mbit
key rps-cpus 0
key driver generic
if [ $per_napi = yes ]; then
	key napi_defer_hard_irqs "7 3 3"
	line "# napi_defer_hard_irqs: napi-get, one value per NAPI (ids ${ids[*]}) in queue order"
else
	key napi_defer_hard_irqs 3
fi
line "# driver: the kernel's veth"
line "profile = veth-host"
line "# rx-ring, tx-ring: not read (ETHTOOL_GRINGPARAM: EOPNOTSUPP"
line "# rx-usecs, rx-frames, tx-usecs, tx-frames, adaptive-rx: not read (ETHTOOL_GCOALESCE: EOPNOTSUPP"
line "# irq-affinity: not read (napi-get irq: ENOENT"
line "rate = 10kpps"

"$RXLAB" run "$F" --set run.duration=10ms > "$TMP/run.out" 2> "$TMP/run.err" ||
	{ cat "$TMP/run.err"; fail "rxlab run of the written scenario failed"; }
echo "ok: rxlab run $F --set run.duration=10ms loads and runs"
"$RXLAB" tune "$F" --goal 'p99<=1ms' --set run.duration=10ms > "$TMP/tune.out" 2> "$TMP/tune.err" ||
	{ cat "$TMP/tune.err"; fail "rxlab tune of the written scenario failed"; }
echo "ok: rxlab tune $F --goal 'p99<=1ms' --set run.duration=10ms loads it"

run_host lo lo --format json
[ "$(cat "$TMP/lo.rc")" = 0 ] || { cat "$TMP/lo.err"; fail "rxlab host lo failed"; }
T="$TMP/lo.out"
unread driver EOPNOTSUPP
unread channels.combined EOPNOTSUPP
want mtu 65536

run_host none rxhnosuch0
[ "$(cat "$TMP/none.rc")" = 2 ] || fail "an absent interface: exit $(cat "$TMP/none.rc"), want 2"
grep -qF "rxlab host: no interface 'rxhnosuch0' in this network namespace; its interfaces: lo, $A, $B" \
	"$TMP/none.err" || { cat "$TMP/none.err"; fail "the absent interface's message"; }
echo "ok: an absent interface is refused, naming the namespace's interfaces"
