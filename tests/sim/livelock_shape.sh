#!/usr/bin/env bash
# Objective: the default job shows receive livelock.  classic rises to a peak
# (its MLFRR) and at 4x the offered load of that peak forwards under 20% of
# the peak; napi at the highest load still forwards >= 90% of its own peak;
# under napi the RX interrupt rate at the highest load is >= 10x below its
# maximum over the sweep.
set -euo pipefail
rxlab="$1"
out="$(mktemp)"; trap 'rm -f "$out"' EXIT
"$rxlab" --format csv --no-plot > "$out"
python3 - "$out" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault(r["rxpath"], []).append({k: float(v) if k not in ("rxpath", "partial") and v else v
                                           for k, v in r.items()})
assert set(by) == {"classic", "isr-loop", "napi"}, by.keys()
fails = 0
def check(ok, what):
    global fails
    print(("ok   " if ok else "FAIL ") + what)
    fails += not ok

c = by["classic"]
peak = max(c, key=lambda r: r["forwarded_pps"])
later = [r for r in c if r["offered_pps"] >= 4 * peak["offered_pps"]]
check(bool(later), "classic sweep reaches 4x its peak input (%.0f pps)" % (4 * peak["offered_pps"]))
if later:
    r = later[0]
    check(r["forwarded_pps"] < 0.2 * peak["forwarded_pps"],
          "classic at %.0f pps offered forwards %.0f pps < 20%% of its peak %.0f pps"
          % (r["offered_pps"], r["forwarded_pps"], peak["forwarded_pps"]))
check(peak is not c[-1] and peak is not c[0], "classic has an interior peak at %.0f pps offered" % peak["offered_pps"])

n = by["napi"]
npeak = max(r["forwarded_pps"] for r in n)
check(n[-1]["forwarded_pps"] >= 0.9 * npeak,
      "napi at the highest load forwards %.0f pps >= 90%% of its peak %.0f pps" % (n[-1]["forwarded_pps"], npeak))
imax = max(r["rx_irqs_per_s"] for r in n)
check(n[-1]["rx_irqs_per_s"] * 10 <= imax,
      "napi RX interrupts at the highest load %.0f/s are >= 10x below their maximum %.0f/s" % (n[-1]["rx_irqs_per_s"], imax))
sys.exit(1 if fails else 0)
PY
