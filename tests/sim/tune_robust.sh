#!/usr/bin/env bash
# Objective: `rxlab tune --load` judges a setting at every load point and
# calls it "meets" only if it meets every goal at each (issue #21), with
# answers known by construction on udp-sink (RSS off, one queue):
#   (a) at 100 kpps alone the fewest interrupts under p99<=1ms come from
#       rx-usecs 0 rx-frames 64 (no timer: an interrupt every 64 frames);
#       at 2 kpps the same setting leaves a frame waiting for 63 more
#       (32 ms), so over --load 2kpps,100kpps it does not meet, and the
#       best found meets p99<=1ms with no loss when `rxlab run` plays it at
#       each load; the figures tune shows are those of its worst load;
#   (b) the no-timer setting is flagged as a trap with its reason;
#   (c) rx-usecs 0 rx-frames 1 at 200 kpps meets p99<=10ms but drops frames
#       (interrupt per frame: the CPU saturates): never "meets" under the
#       default --max-loss 0.1%, meets with --max-loss 50%;
#   (d) --jobs 1 and --jobs 2 give the same bytes with --load;
#   (e) napi_defer_hard_irqs 100 x gro_flush_timeout 500us defers 50 ms,
#       longer than the 256 descriptors of the ring hold at 100 kpps
#       (2.56 ms): flagged; 1 x 2us is not;
#   (f) --speeds 0.5,2 plays a trace at both speeds: the figures tune shows
#       are those `rxlab run` gives at the speed where p99 is higher, and
#       the load shown is the offered rate run reports there.
# Runs are 100 ms (50 ms at 200 kpps) of simulated time, so each is short.
set -u
rxlab="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
base=(udp-sink --set run.duration=100ms --policies coalesce --goal 'p99<=1ms' --minimize irqs)
# field $2 (named column) of the row whose setting is $3 in tune-points.csv $1
col() { awk -F, -v c="$2" -v s="$3" 'NR == 1 {for (i = 1; i <= NF; i++) h[$i] = i; next}
                                     $2 == s {print $h[c]}' "$1"; }

# (a), (b) one load: the trap wins, and is flagged
one="$("$rxlab" tune "${base[@]}" --set traffic.rate=100kpps --jobs 2)"
if echo "$one" | grep -q '^best: coalesce rx-usecs=0 rx-frames=64 meets p99<=1ms' \
   && echo "$one" | grep -q '^warning: the best setting is a known trap: no timer: rx-frames 64 with rx-usecs 0, a lone frame waits for 63 more$'; then
  ok "100 kpps alone: best rx-usecs=0 rx-frames=64, flagged: $(echo "$one" | grep '^warning')"
else
  fail "100 kpps alone: want best rx-usecs=0 rx-frames=64 with the no-timer warning"; echo "$one" | tail -12
fi

# (a) two loads: the trap misses at 2 kpps; the best found is verified by run
"$rxlab" tune "${base[@]}" --load 2kpps,100kpps --jobs 2 --out "$tmp/a" > "$tmp/a.out" \
  || fail "tune --load exit $?"
pts="$tmp/a/tune-points.csv"
t_meets="$(col "$pts" meets_goals 'rx-usecs=0 rx-frames=64')"
t_load="$(col "$pts" worst_load_pps 'rx-usecs=0 rx-frames=64')"
t_trap="$(grep '^coalesce,rx-usecs=0 rx-frames=64,' "$pts")"
[ "$t_meets" = false ] && [ "$t_load" = 2000 ] \
  && ok "--load 2kpps,100kpps: rx-usecs=0 rx-frames=64 does not meet; worst load $t_load/s" \
  || fail "rx-usecs=0 rx-frames=64 over both loads: meets '$t_meets', worst load '$t_load'"
case "$t_trap" in
  *"no timer: rx-frames 64 with rx-usecs 0, a lone frame waits for 63 more"*) ok "traps column: ${t_trap##*,}" ;;
  *) fail "traps column of the no-timer setting: '$t_trap'" ;;
esac
best="$(grep '^best: ' "$tmp/a.out")"
set_="$(echo "$best" | sed -n 's/^best: coalesce \(rx-usecs=[0-9]* rx-frames=[0-9]*\) meets .*/\1/p')"
if [ -z "$set_" ] || [ "$set_" = 'rx-usecs=0 rx-frames=64' ]; then
  fail "best over both loads: '$best'"
else
  us="${set_#rx-usecs=}"; us="${us%% *}"; fr="${set_##*rx-frames=}"
  worst_p99=0 worst_l=""
  for l in 2000 100000; do
    r="$("$rxlab" run udp-sink --set run.duration=100ms --set traffic.rate=${l}pps \
         --set nic.eth0.adaptive-rx=off --set nic.eth0.rx-usecs="$us" --set nic.eth0.rx-frames="$fr" \
         --format csv | awk -F, 'NR == 2 {for (i = 1; i <= NF; i++) h[$i] = i; next}
                                 NR == 3 {print $h["lat_p99_us"], $h["drops_total"]}')"
    p99="${r% *}"; drops="${r#* }"
    if awk -v p="$p99" -v d="$drops" 'BEGIN {exit !(p != "" && p <= 1000 && d == 0)}'; then
      ok "rxlab run $set_ at ${l}pps: p99 ${p99} us <= 1000, drops $drops"
    else
      fail "rxlab run $set_ at ${l}pps: p99 '$p99' us, drops '$drops'"
    fi
    awk -v p="$p99" -v w="$worst_p99" 'BEGIN {exit !(p > w)}' && worst_p99="$p99" worst_l="$l"
  done
  shown="$(col "$pts" lat_p99_us "$set_") $(col "$pts" worst_load_pps "$set_")"
  # the worst load is the one closest to missing p99<=1ms: the higher p99
  [ "$shown" = "$worst_p99 $worst_l" ] && ok "tune shows p99 $worst_p99 us at its worst load $worst_l/s, as run measured" \
    || fail "tune shows p99/load '$shown', run's worst is '$worst_p99 $worst_l'"
fi

# (c) a setting that loses frames never meets
loss=(udp-sink --set run.duration=50ms --set traffic.rate=200kpps --policies coalesce --goal 'p99<=10ms')
"$rxlab" tune "${loss[@]}" --jobs 2 --out "$tmp/c" > "$tmp/c.out" || fail "tune loss exit $?"
drops="$(col "$tmp/c/tune-points.csv" drops 'rx-usecs=0 rx-frames=1')"
p99="$(col "$tmp/c/tune-points.csv" lat_p99_us 'rx-usecs=0 rx-frames=1')"
m="$(col "$tmp/c/tune-points.csv" meets_goals 'rx-usecs=0 rx-frames=1')"
if [ "$m" = false ] && awk -v d="$drops" -v p="$p99" 'BEGIN {exit !(d > 100 && p <= 10000)}' \
   && grep -q '^[0-9]* settings\? met p99<=10ms but lost more than 0.1% of the frames (--max-loss): not counted as meeting$' "$tmp/c.out"; then
  ok "rx-usecs=0 rx-frames=1 at 200 kpps: p99 $p99 us <= 10 ms but $drops drops: not meets; $(grep 'not counted' "$tmp/c.out")"
else
  fail "lossy setting: meets '$m', drops '$drops', p99 '$p99'"; grep -E '^(best|no|[0-9]+ setting)' "$tmp/c.out"
fi
"$rxlab" tune "${loss[@]}" --jobs 2 --max-loss 50% --out "$tmp/c2" > /dev/null
m="$(col "$tmp/c2/tune-points.csv" meets_goals 'rx-usecs=0 rx-frames=1')"
[ "$m" = true ] && ok "with --max-loss 50% the same setting meets (the loss goal alone excluded it)" \
  || fail "with --max-loss 50%: meets '$m'"

# (d) --jobs does not change a word
"$rxlab" tune "${base[@]}" --load 2kpps..100kpps --load-points 3 --jobs 1 --out "$tmp/d1" > "$tmp/d1.out"
"$rxlab" tune "${base[@]}" --load 2kpps..100kpps --load-points 3 --jobs 2 --out "$tmp/d2" > "$tmp/d2.out"
sed -i "s|$tmp/d[12]|DIR|g" "$tmp/d1.out" "$tmp/d2.out"
if cmp -s "$tmp/d1.out" "$tmp/d2.out" && cmp -s "$tmp/d1/tune-points.csv" "$tmp/d2/tune-points.csv"; then
  ok "--load 2kpps..100kpps (3 points): --jobs 1 and 2 give identical output and tune-points.csv"
else
  fail "--jobs 1 and 2 differ"; diff "$tmp/d1.out" "$tmp/d2.out" | head
fi
grep -q 'at every load of 2000..100000 frames/s (3 points)' "$tmp/d1.out" \
  && ok "3 log-spaced points named in the verdict" || fail "verdict lacks the load range: $(grep -E '^(best|no)' "$tmp/d1.out")"
# (e) the deferral trap
"$rxlab" tune udp-sink --set run.duration=50ms --goal 'p99<=1ms' --policies defer --load 100kpps \
  --jobs 2 --out "$tmp/e" > /dev/null || fail "tune defer exit $?"
long="$(grep '^defer,napi_defer_hard_irqs=100 gro_flush_timeout=500us,' "$tmp/e/tune-points.csv")"
short="$(grep '^defer,napi_defer_hard_irqs=1 gro_flush_timeout=2us,' "$tmp/e/tune-points.csv")"
case "$long" in
  *"deferral 50000 us is longer than the rx ring of 256 descriptors holds at the peak 100000 frames/s per queue (2560 us)") ;;
  *) fail "defer 100 x 500us: no deferral trap: '$long'"; long="" ;;
esac
case "$short" in
  *,-) [ -n "$long" ] && ok "deferral trap: 100 x 500us flagged, 1 x 2us not" ;;
  *) fail "defer 1 x 2us flagged: '$short'" ;;
esac
# (f) a trace at several speeds
trace="$src/tests/traces/tiny.csv"
"$rxlab" tune "$trace" --goal 'p99<=100us' --policies coalesce --speeds 2,0.5 --jobs 2 \
  --out "$tmp/f" > "$tmp/f.out" || fail "tune --speeds exit $?"
shown="$(col "$tmp/f/tune-points.csv" lat_p99_us 'rx-usecs=0 rx-frames=1') $(col "$tmp/f/tune-points.csv" worst_load_pps 'rx-usecs=0 rx-frames=1')"
want="$(for sp in 0.5 2; do "$rxlab" run udp-sink --set traffic.trace="$trace" --set traffic.trace-speed=$sp \
          --set nic.eth0.adaptive-rx=off --format csv \
        | awk -F, 'NR == 2 {for (i = 1; i <= NF; i++) h[$i] = i; next} NR == 3 {print $h["lat_p99_us"], $h["offered_pps"]}'
        done | sort -n | tail -1)"
[ -n "$want" ] && [ "$shown" = "$want" ] && ok "--speeds 0.5,2: tune shows p99/load '$shown', as rxlab run at the worse speed" \
  || fail "--speeds: tune shows '$shown', run's worse speed gives '$want'"
grep -q 'at every trace-speed of 0.5..2 (2 points)' "$tmp/f.out" && ok "speeds sorted and named in the verdict" \
  || fail "verdict: $(grep -E '^(best|no)' "$tmp/f.out")"
[ "$fails" -eq 0 ]
