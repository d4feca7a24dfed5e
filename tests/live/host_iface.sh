#!/usr/bin/env bash
# Objective: `rxlab live --iface` refuses an interface that carries a
# default route (IPv4 or IPv6) or a global address, naming the interface,
# the route or address and --allow-host-iface; it still takes lo when lo
# has only host-scope addresses, and takes a refused interface with
# --allow-host-iface.  Everything happens in an anonymous network
# namespace this test creates (unshare -n): its veth pair and routes die
# with it, and the host's own interfaces are never named.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns

cat > "$TMP/inside.sh" <<'SH'
set -u
rxlab="$1" tmp="$2" port="$3"
ip link set lo up
ip link add rxlhi0 type veth peer name rxlhi1
ip link set rxlhi0 up
ip link set rxlhi1 up
ip addr add 198.51.100.1/24 dev rxlhi0
ip route add default dev rxlhi1
run() { "$rxlab" live "$@" --duration 20ms --port "$port" --format csv >"$tmp/out" 2>"$tmp/err"; echo $?; }
echo "global $(run --iface rxlhi0)"; cp "$tmp/err" "$tmp/global.err"
echo "route4 $(run --iface rxlhi1)"; cp "$tmp/err" "$tmp/route4.err"
ip route del default dev rxlhi1
if ip -6 route add default dev rxlhi1 2>/dev/null; then
	echo "route6 $(run --iface rxlhi1)"; cp "$tmp/err" "$tmp/route6.err"
	ip -6 route del default dev rxlhi1
else
	echo "route6 skipped"
fi
echo "lo $(run --iface lo --rate 1kpps)"; cp "$tmp/err" "$tmp/lo.err"
echo "allowed $(run --iface rxlhi0 --allow-host-iface)"; cp "$tmp/err" "$tmp/allowed.err"
SH
port=$((20000 + $$ % 20000))
unshare -n bash "$TMP/inside.sh" "$RXLAB" "$TMP" "$port" > "$TMP/rc" || fail "the namespace script failed"
cat "$TMP/rc"
rc() { awk -v k="$1" '$1 == k { print $2 }' "$TMP/rc"; }
has() { grep -qF -- "$2" "$TMP/$1.err" || { cat "$TMP/$1.err"; fail "$1: message lacks '$2'"; }; }

[ "$(rc global)" = 2 ] || fail "an interface with a global address: exit $(rc global), want 2"
has global "rxlab live: --iface rxlhi0 carries the global address 198.51.100.1/24"
has global "--allow-host-iface"
echo "ok: global address refused: $(cat "$TMP/global.err")"
[ "$(rc route4)" = 2 ] || fail "the IPv4 default route's interface: exit $(rc route4), want 2"
has route4 "rxlab live: --iface rxlhi1 carries the IPv4 default route (0.0.0.0/0)"
echo "ok: IPv4 default route refused"
if [ "$(rc route6)" != skipped ]; then
	[ "$(rc route6)" = 2 ] || fail "the IPv6 default route's interface: exit $(rc route6), want 2"
	has route6 "rxlab live: --iface rxlhi1 carries the IPv6 default route (::/0)"
	echo "ok: IPv6 default route refused"
fi
[ "$(rc lo)" = 0 ] || { cat "$TMP/lo.err"; fail "--iface lo with host-scope addresses only: exit $(rc lo), want 0"; }
echo "ok: --iface lo accepted (127.0.0.1 and ::1 are host scope)"
[ "$(rc allowed)" = 0 ] || { cat "$TMP/allowed.err"; fail "--allow-host-iface: exit $(rc allowed), want 0"; }
echo "ok: --allow-host-iface takes the interface anyway"
assert_clean
