#!/bin/bash
# calibrate_repeat.sh - `rxlab live calibrate --repeat 2` on the test bed
# (no --out: the default name calibrated-HOSTNAME.ini, written in the
# current directory): a spread line "(2 runs, MIN..MAX)" per cost with MIN
# <= mean <= MAX, printed and in the profile; the veth "not measured" line;
# the host and kernel release in the description; the profile loads with
# --set host.profile=FILE.  Skips, with the message, when the machine gave
# no quiet moment for the wake-up runs (live_calibrate.c).  Skipped under
# the sanitizers: calibrate_iface.sh runs --repeat 2 there (each
# calibration takes about 8 s).
source "$2/tests/live/lib.sh"
RXLAB=$(realpath "$RXLAB")
need_netns
[ -z "${RXLAB_SANITIZED:-}" ] || skip "under the sanitizers calibrate_iface.sh runs --repeat 2"
host=$(hostname | tr -c 'A-Za-z0-9._\n-' -)
cd "$TMP" || fail "cd $TMP"
if ! "$RXLAB" live calibrate --repeat 2 --duration 200ms >"$TMP/cal.out" 2>"$TMP/cal.err"; then
	cat "$TMP/cal.err"
	grep -q "host is quieter\|quieter machine" "$TMP/cal.err" && skip "live calibrate found no quiet moment (above)"
	fail "calibrate --repeat 2 failed"
fi
out="$TMP/calibrated-$host.ini"
[ -f "$out" ] || fail "no $out (files: $(ls "$TMP"))"
grep "spread:\|noisy\|WARNING" "$TMP/cal.err"
python3 - "$out" <<'PY' || fail "spread lines"
import re, sys
keys = ["ctx-switch", "syscall", "isr", "rx-pkt+local-deliver", "sched-wake", "cstate-exit",
        "cold-wake", "cold-after", "hrtimer-irq"]
text = open(sys.argv[1]).read()
for k in keys:
    m = re.search(r"^#   spread: %s ([0-9.]+)us \+-([0-9]+)%% \(2 runs, ([0-9.]+)\.\.([0-9.]+)us\)"
                  % re.escape(k), text, re.M)
    if not m:
        sys.exit("no spread line for " + k)
    mean, lo, hi = float(m[1]), float(m[3]), float(m[4])
    if not lo - 0.01 <= mean <= hi + 0.01:
        sys.exit("%s: mean %.2f outside %.2f..%.2f" % (k, mean, lo, hi))
PY
grep -q "^#   not measured: irq-entry, reg-read, dma-fixed, dma-per-byte (written 0):" "$out" ||
	fail "the profile does not say what was not measured"
grep -q "^#     veth has no device interrupt, DMA or registers" "$out" || fail "no reason"
# hrtimer-irq and cold-wake come from the fit through the simulator, and the
# deferral run that hrtimer-irq is fitted on is in the comments
[ "$(grep -c "^#   fitted through the simulator" "$out")" = 2 ] || fail "no simulator fit per calibration"
[ "$(grep -c "^#   deferral run (napi_defer_hard_irqs 100, gro_flush_timeout 50 us" "$out")" = 2 ] ||
	fail "no deferral run per calibration"
grep -Eq "^hrtimer-irq = [0-9]+ns$" "$out" || fail "hrtimer-irq: $(grep '^hrtimer-irq' "$out")"
grep -q "^name = calibrated-$host$" "$out" || fail "name: $(grep '^name' "$out")"
grep -q "^description = \"veth receiver of $host (Linux $(uname -r | cut -c1-32)" "$out" ||
	fail "description: $(grep '^description' "$out")"
"$RXLAB" run udp-sink --set host.profile="$out" --set traffic.rate=20kpps >"$TMP/run.out" 2>&1 ||
	fail "the profile does not load: $(cat "$TMP/run.out")"
echo "OK"
