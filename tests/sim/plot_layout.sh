#!/usr/bin/env bash
# Objective: the figures are readable as drawn.  From a known results file
# (three series a, b, c = a, four loads 100..1000 kpps; written here), the
# scripts rxlab plot writes hold:
#  - every figure 800 x 560 pixels at 12 points, PNG and SVG alike;
#  - the key inside the plot area (never outside), opaque, in a corner no
#    line crosses: the X of the interrupts figure leaves only the bottom
#    corners, and the first of them is taken; a key placed along a row
#    ("at graph X, Y") covers no point or line of the figure; a filled
#    area that reaches the top (CPU at 100%) moves the data down (y range
#    above 100, tics to 100) rather than hide them;
#  - the throughput figure on a linear load axis from 0, its y axis the
#    data's (0..400 kpps, not the loads' 1000), and the ideal output =
#    input a segment that ends at the top of that range;
#  - a linear y axis from 0 to a round number 2% or more above the data
#    (39000 -> 40000), 1-2-5 tics on a log axis of a decade or so;
#  - lines that coincide said so in the key ("c (same as a)", a CDF line
#    "400 kpps (same as 100 kpps)") and the CDF lines each with their own
#    dash and point type;
#  - the same scripts (and, with gnuplot, the same PNG bytes) every run;
#    gnuplot draws them without a warning.
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fails=$((fails+1)); }

python3 - > "$tmp/known.csv" <<'PY'
q = ["p0", "p1", "p5", "p10", "p20", "p30", "p40", "p50", "p60", "p70", "p80", "p90", "p95",
     "p99", "p999", "p9999", "p100"]
keys = ["traffic.rate", "host.rxpath", "offered_pps", "forwarded_pps", "delivered_pps",
        "rx_irqs_per_s", "pkts_per_irq", "cpu_hardirq_pct", "cpu_softirq_pct", "cpu_system_pct",
        "cpu_user_pct", "lat_p50_us", "lat_p99_us", "lat_p999_us"] + ["lat_cdf_%s_us" % x for x in q]
loads = [100, 400, 700, 1000]
out = {"a": [100, 380, 380, 380], "b": [100, 150, 50, 0]}
irqs = {"a": [10000, 20000, 30000, 39000], "b": [39000, 30000, 20000, 10000]}
ppi = {"a": [1, 3, 9, 27], "b": [27, 9, 3, 1]}
cdf = lambda lo: [lo * (1 + i / 16) for i in range(17)]
cdfs = {"a": [cdf(5), cdf(5), cdf(50), cdf(500)], "b": [cdf(7), cdf(70), cdf(700), cdf(7000)]}
print(",".join(keys))
for s in ("a", "b", "c"):
    src = "a" if s == "c" else s
    for i, load in enumerate(loads):
        c = cdfs[src][i]
        row = ["%dkpps" % load, s, load * 1000, out[src][i] * 1000, 0, irqs[src][i], ppi[src][i],
               30 if s == "b" else 100, 0, 0, 0, c[7], c[13], c[14]] + ["%g" % v for v in c]
        print(",".join(str(x) for x in row))
PY

env PATH=/nonexistent RXLAB_GNUPLOT= "$rxlab" plot "$tmp/known.csv" --out "$tmp/a" --title known 2>/dev/null
env PATH=/nonexistent RXLAB_GNUPLOT= "$rxlab" plot "$tmp/known.csv" --out "$tmp/b" --title known 2>/dev/null
out="$(python3 - "$tmp/a" <<'PY' 2>&1
import glob, math, os, re, sys
d = sys.argv[1]
gp = {os.path.basename(p)[:-3]: open(p).read() for p in glob.glob(os.path.join(d, "*.gp"))}
want = {"throughput", "interrupts", "pkts-per-irq", "latency", "cpu-a", "cpu-b", "cpu-c",
        "latency-cdf-a", "latency-cdf-b", "latency-cdf-c"}
assert set(gp) == want, sorted(gp)
for n, s in gp.items():
    assert "set terminal pngcairo size 800,560 font 'Sans,12' linewidth 1.5" in s, n
    assert "set terminal svg size 800,560 dynamic font 'Sans,12' linewidth 1.5" in s, n
    keys = re.findall(r"^set key .*$", s, re.M)
    assert len(keys) == 1 and "opaque" in keys[0] and "outside" not in keys[0], (n, keys)
    assert re.search(r"^set xrange \[", s, re.M) and re.search(r"^set yrange \[", s, re.M), n

t = gp["throughput"]
assert "set logscale x" not in t and "set xrange [0:1000]\n" in t and "set yrange [0:400]\n" in t, t
assert "set arrow 1 from 0, 0 to 400, 400 nohead back" in t, t
assert "keyentry with lines dashtype 2 linecolor 'gray' title 'ideal (output = input)'" in t, t
assert not re.search(r"^\s*x with", t, re.M), "the ideal is a function again"
assert "title 'c (same as a)'" in t and "title 'a' " in t and "title 'b' " in t, t
print("throughput: linear x [0:1000], y [0:400], ideal to (400, 400), c marked as a")

assert "set yrange [0:40000]\n" in gp["interrupts"], gp["interrupts"]
assert "set key inside bottom left opaque" in gp["interrupts"], gp["interrupts"]
print("interrupts: key inside bottom left (the X takes both top corners)")

p = gp["pkts-per-irq"]
assert "set logscale y\nset yrange [1:50]\nset ytics (1, 2, 5, 10, 20, 50)\n" in p, p
print("pkts-per-irq: log y [1:50], tics 1 2 5 10 20 50")

assert "set yrange [0:100]\n" in gp["cpu-b"] and "ytics" not in gp["cpu-b"], gp["cpu-b"]
m = re.search(r"^set yrange \[0:([0-9.]+)\]\nset ytics 0, 20, 100\nset key inside top (left|right)", gp["cpu-a"], re.M)
assert m and float(m.group(1)) > 110, gp["cpu-a"]
print("cpu: 30%% fits under the key; 100%% makes room: y to %s, tics to 100" % m.group(1))

c = gp["latency-cdf-a"]
lines = re.findall(r"index (\d) using 1:2 with linespoints linecolor (\d+) dashtype (\d+) pointtype (\d+) title '([^']*)'", c)
assert [l[4] for l in lines] == ["100 kpps", "400 kpps (same as 100 kpps)", "700 kpps", "1000 kpps"], lines
assert len({l[2] for l in lines}) == 4 and len({l[3] for l in lines}) == 4, lines
assert "(same as" not in gp["latency-cdf-b"], gp["latency-cdf-b"]
print("latency-cdf-a: '400 kpps (same as 100 kpps)', 4 dash types, 4 point types")

# A key put along a row covers nothing: its box, at least 8 px a character
# of its longest title and 16 px a row, holds no point or line of the data.
def axis(s, a):
    lo, hi = map(float, re.search(r"^set %srange \[([^:]+):([^\]]+)\]" % a, s, re.M).groups())
    log = ("set logscale %s\n" % a) in s
    f = (lambda v: (math.log(v) - math.log(lo)) / (math.log(hi) - math.log(lo))) if log else \
        (lambda v: (v - lo) / (hi - lo))
    return f
checked = 0
for n, s in sorted(gp.items()):
    m = re.search(r"^set key at graph ([0-9.]+), graph ([0-9.]+) left top", s, re.M)
    if not m:
        continue
    fx, fy = axis(s, "x"), axis(s, "y")
    titles = [t for t in re.findall(r"title '([^']*)'", s) if not s.count("set title '%s'" % t)]
    x0, y1 = float(m.group(1)), float(m.group(2))
    x1 = x0 + (max(map(len, titles)) * 8 + 30) / 700
    y0 = y1 - len(titles) * 16 / 450
    for f, idx, col in re.findall(r"'(data/[^']+)'(?: index (\d+))? using 1:(\d+)", s):
        blocks = open(os.path.join(d, f)).read().split("\n\n\n")
        rows = [l.split() for l in blocks[int(idx or 0)].splitlines() if l and not l.startswith("#")]
        pts = [(fx(float(r[0])), fy(float(r[int(col) - 1]))) for r in rows if r[int(col) - 1] != "?"]
        for (ax, ay), (bx, by) in zip(pts, pts[1:]):
            for k in range(101):
                x, y = ax + (bx - ax) * k / 100, ay + (by - ay) * k / 100
                assert not (x0 <= x <= x1 and y0 <= y <= y1), (n, f, (x, y), (x0, y0, x1, y1))
    checked += 1
assert checked >= 2, checked
print("%d keys placed along a row cover no data" % checked)
PY
)"; rc=$?
[ "$rc" -eq 0 ] && ok "$(tr '\n' ';' <<<"$out")" || no "scripts of the known input: $out"

diff -r "$tmp/a" "$tmp/b" >/dev/null && ok "the same scripts and data every run" || no "scripts differ between runs"

if command -v gnuplot >/dev/null; then
  "$rxlab" plot "$tmp/known.csv" --out "$tmp/g1" --title known 2> "$tmp/g1.err"; rc=$?
  "$rxlab" plot "$tmp/known.csv" --out "$tmp/g2" --title known 2>/dev/null
  same=1
  for f in "$tmp"/g1/*.png; do cmp -s "$f" "$tmp/g2/${f##*/}" || same=0; done
  n="$(ls "$tmp"/g1/*.png | wc -l)"
  if [ "$rc" -eq 0 ] && [ "$n" -eq 10 ] && ! grep -qi "warning\|error" "$tmp/g1.err"; then
    ok "gnuplot draws the $n figures without a warning"
  else
    no "gnuplot: exit $rc, $n PNGs; $(cat "$tmp/g1.err")"
  fi
  [ "$same" -eq 1 ] && ok "the same PNG bytes every run" || no "PNG bytes differ between runs"
else
  echo "skip gnuplot is not installed (scripts/deps installs gnuplot-nox): images not drawn"
fi
[ "$fails" -eq 0 ]
