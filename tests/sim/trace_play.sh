#!/usr/bin/env bash
# Objective: a trace given with --set traffic.trace is played whole when
# run.duration is not given (as `rxlab tune TRACE` plays it): every packet
# of a 2 s trace is received by udp-sink, whose own run is 200 ms; when
# --set run.duration cuts it, stderr says which part is played and the
# duration that plays it whole; a trace faster than its port's link gets a
# note with its 1 ms peak and the link's rate, and the number of frames the
# link drops is exactly the drops of the run.  The traces are CSV files
# written here (times in us).
set -u
rxlab="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
rx_ok() { awk -F, '/^# netstat_i/ {t = 1; next} t && $1 == "eth0" {print $2; exit}' "$1"; }

{ echo time_us,length; for i in $(seq 0 2000); do echo "$((i * 1000)),60"; done; } > "$tmp/long.csv"
{ echo time_us,length; for i in $(seq 0 2999); do echo "$i,1514"; done; } > "$tmp/fast.csv"

"$rxlab" run udp-sink --set traffic.trace="$tmp/long.csv" --format csv >"$tmp/whole" 2>"$tmp/whole.err" \
	|| fail "whole: exit $?"
n="$(rx_ok "$tmp/whole")"
[ "$n" = 2001 ] && ok "a 2 s trace into udp-sink (run.duration 200ms): all 2001 packets received" \
	|| fail "a 2 s trace: RX-OK $n, want 2001 (played in part)"
[ ! -s "$tmp/whole.err" ] && ok "played whole: nothing on stderr" || fail "stderr: $(cat "$tmp/whole.err")"

# a scenario on a pipe is read once, by the run itself
"$rxlab" run /dev/stdin --set traffic.trace="$tmp/long.csv" --format csv <"$src/scenarios/udp-sink.ini" \
	>"$tmp/pipe" 2>"$tmp/pipe.err" || fail "pipe: exit $?: $(cat "$tmp/pipe.err")"
n="$(rx_ok "$tmp/pipe")"
[ "$n" = 2001 ] && ok "the same from a pipe: 2001 packets" || fail "from a pipe: RX-OK '$n', want 2001"

"$rxlab" run udp-sink --set traffic.trace="$tmp/long.csv" --set run.duration=500ms --format csv \
	>"$tmp/part" 2>"$tmp/part.err" || fail "part: exit $?"
want="rxlab: note: run.duration = 500ms plays the first 500.000 ms of the trace $tmp/long.csv, which lasts 2.000 s at trace-speed 1; --set run.duration=2001001us plays it whole"
[ "$(cat "$tmp/part.err")" = "$want" ] && ok "--set run.duration=500ms: stderr says what is played" \
	|| fail "part: stderr '$(cat "$tmp/part.err")', want '$want'"

"$rxlab" run udp-sink --set traffic.trace="$tmp/fast.csv" --format csv >"$tmp/fast" 2>"$tmp/fast.err" \
	|| fail "fast: exit $?"
drops="$(awk -F, '/^# summary/ {getline; for (i = 1; i <= NF; i++) if ($i == "drop_link") c = i; getline; print $c; exit}' "$tmp/fast")"
want="rxlab: note: the trace $tmp/fast.csv (at trace-speed 1) peaks at 12304.0 Mbit/s on the wire over 1 ms, above the 1000.0 Mbit/s link of nic eth0: $drops of its 3000 frames would wait longer than link-queue = 1ms and are dropped at the link"
[ -n "$drops" ] && [ "$drops" -gt 0 ] && [ "$(cat "$tmp/fast.err")" = "$want" ] \
	&& ok "a trace at 12.3 Gbit/s into a 1 Gbit/s port: stderr says so; $drops link drops, as the run counts" \
	|| fail "fast: drops '$drops', stderr '$(cat "$tmp/fast.err")', want '$want'"
[ "$fails" -eq 0 ]
