#!/usr/bin/env bash
# Objective: wrong input to `rxlab live` is refused before anything is built:
# exit status 2 and a message naming the mode, key, value or option and
# what is accepted.  Needs no root: nothing here reaches the network.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# refuse EXPECTED ARGS...: rxlab live ARGS exits 2 with EXPECTED in stderr.
refuse() {
	local want="$1" rc=0
	shift
	"$RXLAB" live "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 2 ] || { cat "$TMP/err"; fail "rxlab live $*: exit $rc, expected 2"; }
	grep -qF -- "$want" "$TMP/err" || { cat "$TMP/err"; fail "rxlab live $*: no '$want'"; }
	[ ! -s "$TMP/out" ] || fail "rxlab live $*: printed a report"
	echo "ok: $* -> $want"
}

refuse "unknown mode 'nappi'; the modes are interrupt coalesce napi" nappi
refuse "unknown key 'budgett' (accepted: budget" napi --set budgett=3
refuse "budget: '0' out of range (accepted: 1..1024)" napi --set budget=0
refuse "unknown device setting (accepted: dev.napi_defer_hard_irqs" napi --set dev.foo=1
refuse "--set threaded=3: out of range (accepted: 0..2)" napi --set threaded=3
refuse "gro_flush_timeout = 5Mpps: not a time; use ns, us, ms or s" napi --set gro_flush_timeout=5Mpps
refuse "--set takes KEY=VALUE, not budget" napi --set budget
refuse "--rate = 5Mbit: not a packet rate; use pps, kpps or Mpps" napi --rate 5Mbit
refuse "missing value after --duration" napi --duration
refuse "--duration = 1ms is out of range: accepted 10ms..600s" napi --duration 1ms
refuse "unknown option --fast" napi --fast
refuse "--pattern takes constant, poisson, onoff:ON/OFF, csv:FILE or pcap:FILE, not zipf" napi --pattern zipf
refuse "--pattern onoff takes onoff:ON/OFF" napi --pattern onoff:10ms
refuse "/nonexistent.csv: No such file or directory" napi --pattern csv:/nonexistent.csv
printf '0\n5\n3\n' >"$TMP/back.csv"
refuse "back.csv:3: expected TIME_US[,BYTES] with times not going back" napi --pattern "csv:$TMP/back.csv"
refuse "--rate max goes with the constant pattern only" napi --rate max --pattern poisson
refuse "--format takes table, csv or json, not xml" napi --format xml
refuse "unknown or incomplete option '--out'" calibrate --out
refuse "no packets in" napi --pattern "pcap:$SRC/tests/fuzz/corpus/fuzz_pcap/header-only.pcap"
refuse "back.csv: not a pcap or pcapng capture" napi --pattern "pcap:$TMP/back.csv"
# more queues than CPUs: refused with the reason (the figure is this machine's)
n=$(getconf _NPROCESSORS_ONLN)
if [ "$n" -lt 4 ]; then
	refuse "--queues $((n + 1)): this machine has $n CPUs, and each queue needs a core of its own" napi --queues $((n + 1))
fi
"$RXLAB" live --help | grep -q "usage: rxlab live" || fail "no usage text"
echo "ok: --help"
