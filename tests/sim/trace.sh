#!/usr/bin/env bash
# Objective: traffic from a trace (pattern = trace) uses the arrival times
# and frame lengths of a pcap, pcapng or CSV file: the three hand-made
# files of tests/traces/ holding the same packets give byte-identical
# output; every packet is received once; trace-speed scales the times;
# the frame lengths set the wire time; the same trace gives the same bytes.
set -u
rxlab="$1"; src="$2"
tr="$src/tests/traces"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
# rx_ok of eth0 from a --format csv report
rx_ok() { awk -F, '/^# netstat_i/ {t = 1; next} t && $1 == "eth0" {print $2; exit}' ; }
run() { "$rxlab" run udp-sink --set run.warmup=0 --format csv "$@"; }

for f in tiny.pcap tiny.pcapng tiny.csv; do
  run --set traffic.trace="$tr/$f" --set run.duration=3ms > "$tmp/$f.out" || fail "$f: exit $?"
done
if cmp -s "$tmp/tiny.pcap.out" "$tmp/tiny.csv.out" && cmp -s "$tmp/tiny.pcapng.out" "$tmp/tiny.csv.out"; then
  ok "pcap, pcapng and CSV with the same packets: identical output"
else
  fail "pcap / pcapng / CSV outputs differ"; diff "$tmp/tiny.pcap.out" "$tmp/tiny.csv.out" | head
fi
n="$(rx_ok < "$tmp/tiny.pcap.out")"
[ "$n" = 8 ] && ok "all 8 packets of the trace received (RX-OK $n)" || fail "RX-OK $n, want 8"
run --set traffic.trace="$tr/tiny.pcap" --set run.duration=3ms > "$tmp/again.out"
cmp -s "$tmp/again.out" "$tmp/tiny.pcap.out" && ok "same trace twice: identical" || fail "not deterministic"

# The last packet is at 1000 us: a 600 us run sees 7 of 8, twice as fast all 8.
a="$(run --set traffic.trace="$tr/tiny.csv" --set run.duration=600us | rx_ok)"
b="$(run --set traffic.trace="$tr/tiny.csv" --set traffic.trace-speed=2 --set run.duration=600us | rx_ok)"
c="$(run --set traffic.trace="$tr/tiny.csv" --set traffic.trace-speed=0.4 --set run.duration=600us | rx_ok)"
[ "$a" = 7 ] && [ "$b" = 8 ] && [ "$c" = 6 ] && ok "trace-speed: 600 us holds 7 packets at 1x, 8 at 2x, 6 at 0.4x (the 250 us packet moves to 625 us)" \
  || fail "trace-speed: $a at 1x (want 7), $b at 2x (want 8), $c at 0.4x (want 6)"

d="$(run --set traffic.trace="$tr/tiny.csv" --speed 2 --set run.duration=600us | rx_ok)"
[ "$d" = "$b" ] && ok "--speed 2 is traffic.trace-speed=2" || fail "--speed 2: $d, want $b"

# Lengths are used: a 9000-byte frame needs 722 us on a 100 Mbit/s link, so
# within 500 us neither it nor the frame queued behind it is in; with
# 64-byte frames both are.
printf 'time_us,length\n0,9000\n1,60\n' > "$tmp/jumbo.csv"
printf 'time_us,length\n0,60\n1,60\n' > "$tmp/small.csv"
j="$(run --set traffic.trace="$tmp/jumbo.csv" --set nic.eth0.speed=100Mbit --set run.duration=500us | rx_ok)"
s="$(run --set traffic.trace="$tmp/small.csv" --set nic.eth0.speed=100Mbit --set run.duration=500us | rx_ok)"
[ "$j" = 0 ] && [ "$s" = 2 ] && ok "frame lengths set the wire time (jumbo: $j in 500 us, small: $s)" \
  || fail "lengths: jumbo $j (want 0), small $s (want 2)"

# The mean rate of the trace is reported as the offered load.
o="$(run --set traffic.trace="$tr/tiny.csv" --set run.duration=3ms | awk -F, 'NR == 3 {print $2}')"
[ "$o" = 7000 ] && ok "offered rate = 7 gaps / 1 ms = $o pps" || fail "offered $o, want 7000"
[ "$fails" -eq 0 ]
