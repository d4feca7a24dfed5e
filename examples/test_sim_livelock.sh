#!/usr/bin/env bash
# test_sim_livelock.sh EXAMPLE RXLAB - run the simulator example
# (examples/sim_livelock.c, built on include/rxlab/sim.h alone).
# Objective: a program that embeds the simulator gets the figures the
# command line gets, and they show receive livelock: the classic kernel's
# forwarding collapses under overload while NAPI's holds; bad input is
# refused with the loader's message and status 2.
set -euo pipefail
ex=$1 rxlab=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out" 2>/dev/null || true; exit 1; }

"$ex" -r 100kpps,200kpps,400kpps,1488kpps >"$tmp/out" || fail "exit status $?"

# forwarded/s of RXPATH at OFFERED in the example's rows
fwd() { awk -v p="$1" -v o="$2" '$1 == p && $2 == o { print $3 }' "$tmp/out"; }

# 1. Livelock: classic forwards at least 100 kpps at its peak and under 10%
#    of that at 1488 kpps; NAPI keeps at least 90% of its peak.
for p in classic napi; do
  grep -q "^$p  *peak " "$tmp/out" || fail "no summary for $p"
done
c_peak=$(sed -n 's/^classic  *peak \([0-9]*\) pps.*/\1/p' "$tmp/out")
c_last=$(fwd classic 1488000)
n_peak=$(sed -n 's/^napi  *peak \([0-9]*\) pps.*/\1/p' "$tmp/out")
n_last=$(fwd napi 1488000)
[ -n "$c_last" ] && [ -n "$n_last" ] || fail "rows at 1488000 offered"
[ "$c_peak" -ge 100000 ] || fail "classic peak $c_peak < 100000"
[ $((c_last * 10)) -lt "$c_peak" ] || fail "classic at 1488 kpps: $c_last, peak $c_peak: no livelock"
[ $((n_last * 10)) -ge $((n_peak * 9)) ] || fail "napi at 1488 kpps: $n_last, peak $n_peak"

# 2. The library and the command line agree, point by point.
for p in classic napi; do
  for r in 200000 1488000; do
    cli=$("$rxlab" run livelock --set host.rxpath=$p --set traffic.rate=${r}pps --format csv |
          awk -F, 'NR == 3 { print $3; exit }')
    [ "$cli" = "$(fwd $p $r)" ] || fail "$p at $r: example $(fwd $p $r), rxlab run $cli"
  done
done

# 3. Overrides reach the run (-s); a bad one is refused, naming it.
#    1518 B frames: 10^9 / ((1518 + 20) * 8) = 81274.4 per second fit on
#    1 Gbit/s, give or take a frame at the window's edges (6.25/s in 160 ms).
"$ex" -p napi -r 400kpps -s traffic.frame-size=1518 >"$tmp/out" || fail "-s run"
big=$(fwd napi 400000)
[ -n "$big" ] && [ "$big" -le 81281 ] && [ "$big" -ge 81268 ] || fail "1518 B frames: $big forwarded"
set +e
"$ex" -s traffic.rat=1Mpps >"$tmp/out" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "bad key: exit status $rc, want 2"
grep -q "unknown key 'rat' in \[traffic\]; did you mean 'rate'?" "$tmp/out" || fail "bad key message"
echo "ok"
