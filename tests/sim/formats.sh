#!/usr/bin/env bash
# Objective: every command honours --format: CSV has a header row with the
# contract columns, JSON parses, and a sweep has one row per point of the
# cartesian product in the order of the --vary options.
set -euo pipefail
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
short=(--set run.duration=20ms --set run.warmup=2ms)
"$rxlab" sweep livelock "${short[@]}" --vary host.rxpath=classic,napi --vary traffic.rate=50kpps..250kpps:3 --format csv > "$tmp/sweep.csv"
"$rxlab" sweep livelock "${short[@]}" --vary host.rxpath=classic,napi --vary traffic.rate=50kpps..250kpps:3 --format json > "$tmp/sweep.json"
"$rxlab" run livelock "${short[@]}" --format json > "$tmp/run.json"
"$rxlab" run livelock "${short[@]}" --format csv > "$tmp/run.csv"
python3 - "$tmp" <<'PY'
import csv, json, sys, os
d = sys.argv[1]
need = "rxpath,offered_pps,forwarded_pps,delivered_pps,rx_irqs_per_s,pkts_per_irq,cpu_hardirq_pct,cpu_softirq_pct,cpu_user_pct,cpu_idle_pct,lat_p50_us,lat_p99_us,drops_total".split(",")
rows = list(csv.DictReader(open(os.path.join(d, "sweep.csv"))))
missing = [k for k in need if k not in rows[0]]
assert not missing, "CSV lacks columns %s" % missing
print("ok   sweep CSV header has the contract columns")
got = [(r["host.rxpath"], r["traffic.rate"], r["rxpath"], float(r["offered_pps"])) for r in rows]
want = [(p, r, p, o) for p in ("classic", "napi") for r, o in (("50kpps", 50000), ("150kpps", 150000), ("250kpps", 250000))]
assert got == want, "sweep points %s != %s" % (got, want)
print("ok   sweep rows are the product in --vary order")
js = json.load(open(os.path.join(d, "sweep.json")))
assert isinstance(js, list) and len(js) == 6 and js[0]["rxpath"] == "classic", js
print("ok   sweep JSON is a list of 6 objects")
run = json.load(open(os.path.join(d, "run.json")))
for t in ("summary", "netstat_i", "interrupts", "softnet_stat", "mpstat", "threads"):
    assert t in run, "run JSON lacks table %s" % t
assert [r["iface"] for r in run["netstat_i"]] == ["eth0", "eth1"]
print("ok   run JSON has every table; netstat rows eth0, eth1")
text = open(os.path.join(d, "run.csv")).read()
assert text.startswith("# summary\n") and "\n# netstat_i\n" in text
print("ok   run CSV has one section per table")
PY
# The number of sweep processes does not change the output.
a="$("$rxlab" sweep livelock "${short[@]}" --vary host.rxpath=classic,napi --vary traffic.rate=50kpps..250kpps:3 --jobs 1 --format csv)"
b="$("$rxlab" sweep livelock "${short[@]}" --vary host.rxpath=classic,napi --vary traffic.rate=50kpps..250kpps:3 --jobs 4 --format csv)"
[ "$a" = "$b" ] || { echo "FAIL --jobs 1 and --jobs 4 differ"; exit 1; }
echo "ok   --jobs 1 and --jobs 4 give identical sweeps"
