#!/bin/bash
# tune_verify_agree.sh - `rxlab tune --verify` agrees with its prediction on
# the test bed when the simulator has this machine's costs: `rxlab live
# calibrate` first (one calibration), then `tune live-veth` with that
# profile, interrupt deferral (--policies defer, p99 <= 2 ms) at 3 and
# 8 kpps, verified for 1 s per load.  Asserted: for the best setting and the
# runner-up at both loads, measured/predicted of p99 and of CPU within the
# tolerance the command prints (default 2: [0.50, 2.00]), each ratio row
# "agrees", and both settings "meet the goals on real packets".
#
# Why these figures can be asserted: deferral's latency is set by the timer
# the test chooses through the goal (gro_flush_timeout bounds how long a
# frame waits), and its CPU is a few wake-ups per timer period, each after a
# long idle and a timer interrupt - what calibrate's cold-wake and
# irq-entry measure (docs/live.md "Cold wake-ups and the NAPI hrtimer"); 3
# and 8 kpps are not rates calibrate ran at.  Without cold-wake the CPU
# ratio was 2.8-5.3 in every run (the mutation: calibrate without its
# cold-wake fit makes this test fail).
#
# A live run shares the machine, and one packet's bad luck moves a p99 of
# 3000 (seen: one row of four at 2.6x or 3.1x, a different one each time,
# CPU agreeing in all): the verification is run up to three times, and the
# test fails unless each row (setting and load) agreed in one of them.  A
# model that is wrong disagrees in every run (the mutation above: CPU
# 2.8-5.3x in each).  It skips,
# with the reason, when calibrate finds no quiet moment or warns that a run
# found the receiver core busy, or when a verification run finds the
# receiver core under 90% idle before it starts (the idle check's own
# threshold): CPU measured then includes other work.
source "$2/tests/live/lib.sh"
RXLAB=$(realpath "$RXLAB")
need_netns
perf_test

prof="$TMP/here.ini"
if ! "$RXLAB" live calibrate --repeat 1 --duration 200ms --out "$prof" >"$TMP/cal.out" \
	2>"$TMP/cal.err"; then
	cat "$TMP/cal.err"
	grep -q "host is quieter\|quieter machine" "$TMP/cal.err" &&
		skip "live calibrate found no quiet moment (above)"
	fail "live calibrate failed"
fi
grep "spread: cold" "$TMP/cal.err" || true
# the costs of a calibration that shared the core with other work are not
# this machine's (live_calibrate.c warns): nothing to compare against
grep "WARNING: .* found the receiver core" "$TMP/cal.err" &&
	skip "live calibrate found the receiver core busy (above)"

# verify N: one `tune --verify` into $TMP/vN.{out,err}; the rows that
# agree (p99 and CPU within the tolerance, and the measured row meets the
# goals), as "RANK LOAD" lines, appended to $TMP/agreed; 0, or 2 when the
# receiver core was busy.
verify() {
	local n="$1" rc=0
	"$RXLAB" tune live-veth --set host.profile="$prof" --set nic.eth0.threaded=on \
		--set nic.eth0.threaded-prio=10 --set host.idle=menu --jobs 2 \
		--goal 'p99<=2ms' --policies defer --load 3kpps,8kpps \
		--verify --verify-duration 1s --format json >"$TMP/v$n.out" 2>"$TMP/v$n.err" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$TMP/v$n.err"; fail "rxlab tune --verify: exit $rc"; }
	python3 - "$TMP/v$n.out" "$TMP/v$n.err" "$TMP/agreed" <<'PY'
import json, re, sys
s = open(sys.argv[1]).read()
dec = json.JSONDecoder()
search, at = dec.raw_decode(s)
ver, _ = dec.raw_decode(s[at:].lstrip())
rows = ver["verify"]
busy = [float(x) for x in re.findall(r"idle check: CPU \d+ \(receiver\) ([0-9.]+)% idle",
                                     open(sys.argv[2]).read())]
if any(b < 90 for b in busy):
    print("receiver core busy before a run: %s%% idle" % min(busy))
    sys.exit(2)
ratios = [r for r in rows if r["row"] == "ratio"]
assert len(ratios) == 4, [(r["rank"], r["load_pps"]) for r in ratios]
assert sorted(r["load_pps"] for r in ratios) == [3000, 3000, 8000, 8000]
meets = {(r["rank"], r["load_pps"]) for r in rows
         if r["row"] == "measured" and r["verdict"] == "meets"}
with open(sys.argv[3], "a") as out:
    for r in ratios:
        tol = r["tolerance"]
        assert tol == 2.0, tol
        ok = all(1 / tol <= r[k] <= tol for k in ("p99_us", "cpu_pct"))
        assert (r["verdict"] == "agrees") == ok, r
        key = (r["rank"], r["load_pps"])
        print("%-9s %5d pps: p99 x%.2f cpu x%.2f (tolerance %.2f) %s%s" %
              (r["rank"], r["load_pps"], r["p99_us"], r["cpu_pct"], tol, r["verdict"],
               "" if key in meets else ", misses the goals on real packets"))
        if ok and key in meets:
            out.write("%s %d\n" % key)
PY
}

# all_agreed: every row (2 settings x 2 loads) has agreed in some run.
all_agreed() {
	[ "$(sort -u "$TMP/agreed" | wc -l)" -eq 4 ]
}

: >"$TMP/agreed"
for n in 1 2 3; do
	rc=0
	verify "$n" || rc=$?
	[ "$rc" -eq 2 ] && skip "the receiver core was busy with other work (above)"
	all_agreed && break
	[ "$n" -lt 3 ] && echo "note: not every row has agreed yet; measuring again"
done
all_agreed || fail "a setting and load whose p99 or CPU was outside the printed tolerance in all 3 verifications (above)"
echo "ok: predicted and measured agree within the printed tolerance at 3 and 8 kpps"
echo "PASS"
