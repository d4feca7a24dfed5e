#!/usr/bin/env bash
# Objective: `rxlab tune` finds the setting that is right by construction,
# says so when nothing meets the goals, gives the same bytes for the same
# inputs (and any --jobs), searches fewer points than the full grid, takes
# a trace, and writes its data, gnuplot script and commands with --out.
set -u
rxlab="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# By construction.  50 kpps at a constant rate; goal: at most 600
# interrupts/s.  Static coalescing fires at least every 64 frames (rx-frames
# <= 64: >= 781/s) or every 256 us (>= 3906/s); DIM's profiles are no
# wider (256 us); e1000's dynamic modes never go below 4000/s; only a fixed
# InterruptThrottleRate of 500 caps the line at 500/s.  So the one point
# that meets the goal is itr InterruptThrottleRate=500.
cons=(tune udp-sink --set traffic.pattern=constant --set traffic.rate=50kpps
      --goal 'irqs<=600' --policies coalesce,dim,itr-dynamic,itr)
best="$("$rxlab" "${cons[@]}" --format csv --out "$tmp/cons" | awk '/^# best/ {b = 1; next} b && NR > 1 && !/^policy/ && NF {print; exit}')"
case "$best" in
  itr,InterruptThrottleRate=500,*,true) ok "by construction: $best" ;;
  *) fail "by construction: best is '$best', want itr,InterruptThrottleRate=500,...,true" ;;
esac
meets="$(awk -F, 'NR > 1 && $10 == "true"' "$tmp/cons/tune-points.csv" | cut -d, -f1,2)"
low="$(awk -F, 'NR > 1 && $1 != "itr" && $9 + 0 <= 600' "$tmp/cons/tune-points.csv" | wc -l)"
if [ "$meets" = "itr,InterruptThrottleRate=500" ] && [ "$low" -eq 0 ]; then
  ok "only that point meets irqs<=600; no coalesce/dim/itr-dynamic point is below 600/s"
else
  fail "points meeting the goal: '$meets'; non-ITR points at or below 600/s: $low"
fi
grep -q '^ethtool -C eth0 rx-usecs 2000$' "$tmp/cons/apply.sh" \
  && ok "apply.sh: ethtool -C eth0 rx-usecs 2000 (e1000 reads 2000 us as 500 interrupts/s)" \
  || { fail "apply.sh lacks the ethtool line"; cat "$tmp/cons/apply.sh"; }

# Same inputs, same bytes; --jobs does not change them.
rr=(tune rr-server --goal 'p99<=90us' --minimize cpu)
"$rxlab" "${rr[@]}" --jobs 1 > "$tmp/a" || fail "rr-server tune exit $?"
"$rxlab" "${rr[@]}" --jobs 2 > "$tmp/b"
"$rxlab" "${rr[@]}" --jobs 2 > "$tmp/c"
if cmp -s "$tmp/a" "$tmp/b" && cmp -s "$tmp/b" "$tmp/c"; then
  ok "same inputs: identical output ($(wc -c < "$tmp/a") bytes) with --jobs 1, 2, 2"
else
  fail "tune output differs between runs"; diff "$tmp/a" "$tmp/b" | head
fi
line="$(grep '^searched' "$tmp/a")"
n="$(echo "$line" | awk '{print $2}')"; g="$(echo "$line" | sed 's/.*full grid has \([0-9]*\).*/\1/')"
if [ -n "$n" ] && [ -n "$g" ] && [ "$n" -lt "$g" ]; then ok "$line"; else fail "search: '$line'"; fi
grep -q '^best: ' "$tmp/a" && grep -q '^echo [0-9]* > /sys/class/net/eth0/napi_defer_hard_irqs$' "$tmp/a" \
  && ok "$(grep '^best: ' "$tmp/a")" || fail "no best line or sysfs command"

# The figures tune judges are those of `rxlab run` on the same setting:
# throughput = delivered + forwarded + replied, cpu = 100 - idle, drops.
run="$("$rxlab" run udp-sink --set traffic.rate=300kpps --set nic.eth0.adaptive-rx=dim --format csv \
      | awk -F, 'NR == 3 {printf "%.1f,%s,%s,%s", 100 - $10, $12, $4, $13}')"
tun="$("$rxlab" tune udp-sink --set traffic.rate=300kpps --goal 'drops<=0.5%' --maximize throughput \
      --policies dim --format csv | awk -F, '/^# best/ {b = 1} b && $1 == "dim" {print $3 "," $5 "," $7 "," $8}')"
[ -n "$run" ] && [ "$run" = "$tun" ] && ok "tune's cpu,p99,throughput,drops = rxlab run's: $tun" \
  || fail "tune figures '$tun' differ from rxlab run '$run'"

# Nothing meets the goal: say so, name the closest, exit 0.
out="$("$rxlab" tune rr-server --goal 'p99<=1us' --policies dim,busy-poll)"; rc=$?
if [ $rc -eq 0 ] && echo "$out" | grep -q '^no setting meets p99<=1us; the closest is '; then
  ok "$(echo "$out" | grep '^no setting meets')"
else
  fail "unreachable goal: exit $rc"; echo "$out" | tail -5
fi

# A trace is a target: the same packets as pcap and CSV give the same advice.
a="$("$rxlab" tune "$src/tests/traces/tiny.pcap" --goal 'p99<=100us' --policies coalesce,defer)"
b="$("$rxlab" tune "$src/tests/traces/tiny.csv" --goal 'p99<=100us' --policies coalesce,defer)"
[ -n "$a" ] && [ "$a" = "$b" ] && ok "tune on tiny.pcap and tiny.csv: identical advice" \
  || fail "trace tune differs between pcap and csv"

# --out: data, gnuplot script, commands; figures when gnuplot is here.
"$rxlab" "${rr[@]}" --out "$tmp/out" > /dev/null
for f in tune-points.csv tune.dat tune.gp apply.sh; do
  [ -s "$tmp/out/$f" ] || fail "--out: $f missing or empty"
done
blocks="$(grep -c '^# ' "$tmp/out/tune.dat")"
pts="$(($(wc -l < "$tmp/out/tune-points.csv") - 1))"
[ "$blocks" -ge 3 ] && [ "$pts" -eq "$n" ] && ok "--out: $pts points in tune-points.csv, $blocks data blocks in tune.dat" \
  || fail "--out: $pts points (want $n), $blocks blocks"
if command -v gnuplot > /dev/null; then
  (cd "$tmp/out" && gnuplot tune.gp 2> gp.err) && [ -s "$tmp/out/tune.svg" ] \
    && ok "gnuplot tune.gp drew tune.svg" || { fail "gnuplot tune.gp"; cat "$tmp/out/gp.err"; }
else
  echo "skip gnuplot not installed: tune.gp not drawn"
fi
[ "$fails" -eq 0 ]
