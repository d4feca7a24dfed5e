#!/usr/bin/env bash
# Objective: rxlab plot and rxlab sweep --plot write, for a sweep's results,
# the data (data/*.dat, one file per line of the figures), a gnuplot script
# per figure and, with gnuplot, a PNG and an SVG per script; the lines are
# the values of the varied key other than the load (here host.rxpath), the
# points come from the results (checked against the CSV).  Without gnuplot
# the data and scripts are still written and the message says how to
# install it.  At a single offered load the x axis is the varied key.  The
# default job names its figure folder last.
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fails=$((fails+1)); }
sweep=(sweep livelock --set run.duration=20ms --set run.warmup=2ms
       --vary host.rxpath=classic,napi --vary traffic.rate=50kpps..1Mpps:4:log --format csv)
figs="throughput interrupts pkts-per-irq latency cpu-classic cpu-napi latency-cdf-classic latency-cdf-napi"

# Without gnuplot (empty PATH): data and scripts, a hint, exit 0.
"$rxlab" "${sweep[@]}" > "$tmp/res.csv"
env PATH=/nonexistent RXLAB_GNUPLOT= "$rxlab" plot "$tmp/res.csv" --out "$tmp/nognu" 2> "$tmp/err"; rc=$?
missing=""
for f in $figs; do [ -s "$tmp/nognu/$f.gp" ] || missing="$missing $f.gp"; done
for f in classic napi cdf-classic cdf-napi results; do
  [ -s "$tmp/nognu/data/$f.dat" ] || [ -s "$tmp/nognu/data/$f.csv" ] || missing="$missing data/$f"
done
if [ "$rc" -eq 0 ] && [ -z "$missing" ] && grep -q "apt-get install gnuplot-nox" "$tmp/err" \
   && ! ls "$tmp/nognu"/*.png >/dev/null 2>&1; then
  ok "no gnuplot: scripts and data written, no images, hint given"
else
  no "no gnuplot: exit $rc, missing:$missing; stderr: $(cat "$tmp/err")"
fi

# The data are the results: one row per point of the series, by load, and
# output = forwarded + delivered in kpps; the legend names the series.
python3 - "$tmp" <<'PY' && ok "data/classic.dat and data/napi.dat hold the CSV's points; legends classic, napi" || no "plot data"
import csv, sys, os
d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "res.csv"))))
for s in ("classic", "napi"):
    want = sorted((float(r["offered_pps"]) / 1e3, (float(r["forwarded_pps"]) + float(r["delivered_pps"])) / 1e3)
                  for r in rows if r["host.rxpath"] == s)
    got = [tuple(float(x) for x in l.split()[:2])
           for l in open(os.path.join(d, "nognu", "data", s + ".dat")) if not l.startswith("#")]
    assert len(got) == 4, got
    for (a, b), (c, e) in zip(want, got):
        assert abs(a - c) < 1e-3 * max(1, a) and abs(b - e) < 1e-3 * max(1, b), (s, want, got)
gp = open(os.path.join(d, "nognu", "throughput.gp")).read()
assert "title 'classic'" in gp and "title 'napi'" in gp and "offered load (kpps)" in gp, gp
# 50 kpps .. 1 Mpps: log spaced, so a log load axis, but for the
# throughput figure: its load axis is linear from 0 (the ideal y = x).
assert "set logscale x" in open(os.path.join(d, "nognu", "interrupts.gp")).read()
assert "set logscale x" not in gp and "set xrange [0:1000]" in gp, gp
PY

# With gnuplot: a PNG and an SVG per script, from rxlab sweep --plot.
if command -v gnuplot >/dev/null; then
  "$rxlab" "${sweep[@]}" --plot "$tmp/figs" > "$tmp/res2.csv" 2> "$tmp/err2"; rc=$?
  bad=""
  for f in $figs; do
    head -c 8 "$tmp/figs/$f.png" 2>/dev/null | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" || bad="$bad $f.png"
    grep -q "<svg" "$tmp/figs/$f.svg" 2>/dev/null || bad="$bad $f.svg"
  done
  [ "$rc" -eq 0 ] && [ -z "$bad" ] && cmp -s "$tmp/res.csv" "$tmp/res2.csv" \
    && ok "sweep --plot: $(ls "$tmp/figs"/*.png | wc -l) PNG and SVG figures, results unchanged" \
    || no "sweep --plot: exit $rc, bad:$bad; $(cat "$tmp/err2")"
else
  echo "skip gnuplot is not installed (scripts/deps installs gnuplot-nox): images not checked"
fi

# At one offered load, the figures are drawn against the varied key.
"$rxlab" sweep livelock --set run.duration=20ms --set run.warmup=2ms --set traffic.rate=300kpps \
  --vary nic.eth0.rx-usecs=0,20us,50us --vary host.rxpath=classic,napi --format csv > "$tmp/usecs.csv"
env PATH=/nonexistent RXLAB_GNUPLOT= "$rxlab" plot "$tmp/usecs.csv" --out "$tmp/usecs" 2>/dev/null
x="$(grep -v '^#' "$tmp/usecs/data/napi.dat" | awk '{ printf "%s ", $1 }')"
if grep -q "set xlabel 'nic.eth0.rx-usecs (us)'" "$tmp/usecs/interrupts.gp" && [ "$x" = "0 20 50 " ]; then
  ok "one load: x axis is nic.eth0.rx-usecs (us), points $x"
else
  no "one load: x axis $(grep xlabel "$tmp/usecs/interrupts.gp"), points '$x'"
fi

# A figure with no values (no RX interrupts under bsd-poll: no packets per
# interrupt) is left out and said so; the others are written.
"$rxlab" sweep livelock --set run.duration=20ms --set run.warmup=2ms --vary host.rxpath=bsd-poll \
  --vary traffic.rate=50kpps,100kpps --format csv > "$tmp/bsd.csv"
env PATH=/nonexistent RXLAB_GNUPLOT= "$rxlab" plot "$tmp/bsd.csv" --out "$tmp/bsd" 2> "$tmp/bsd.err"; rc=$?
if [ "$rc" -eq 0 ] && [ ! -e "$tmp/bsd/pkts-per-irq.gp" ] && [ -s "$tmp/bsd/throughput.gp" ] \
   && grep -q "no pkts-per-irq figure: pkts_per_irq has no positive value" "$tmp/bsd.err"; then
  ok "bsd-poll: $(head -1 "$tmp/bsd.err")"
else
  no "bsd-poll: exit $rc, $(cat "$tmp/bsd.err")"
fi

# A gnuplot that fails: exit 1, the scripts named.
out="$(RXLAB_GNUPLOT=/bin/false "$rxlab" plot "$tmp/res.csv" --out "$tmp/false" 2>&1)"; rc=$?
[ "$rc" -eq 1 ] && grep -q "/bin/false failed on .*throughput.gp" <<<"$out" \
  && ok "failing gnuplot: exit 1" || no "failing gnuplot: exit $rc, $out"

# The default job names its folder at the end of its text output.
(cd "$tmp" && env PATH=/nonexistent "$rxlab" > out.txt 2> err.txt); rc=$?
last="$(tail -n 1 "$tmp/out.txt")"
if [ "$rc" -eq 0 ] && [[ "$last" == "figures: rxlab-livelock-figures/"* ]] && [ -s "$tmp/rxlab-livelock-figures/throughput.gp" ] \
   && [ -s "$tmp/rxlab-livelock-figures/data/napi.dat" ]; then
  ok "default job: '$last'"
else
  no "default job: exit $rc, last line '$last'"
fi
"$rxlab" --no-plot > "$tmp/noplot.txt"
head -n -2 "$tmp/out.txt" | cmp -s - "$tmp/noplot.txt" && ok "default job: tables as with --no-plot" \
  || no "default job: figures changed the tables"

# The default job whose figures fail says so after its tables and exits
# non-zero: 1 when gnuplot fails.  (A --plot folder that cannot be made is
# refused before the sweep: tests/bad/plot_default_dir_under_file.)
(cd "$tmp" && RXLAB_GNUPLOT=/bin/false "$rxlab" --plot "$tmp/jobfalse" > jobfalse.txt 2> jobfalse.err); rc=$?
if [ "$rc" -eq 1 ] && grep -q "no figures: /bin/false failed on .*throughput.gp" "$tmp/jobfalse.err" \
   && cmp -s "$tmp/jobfalse.txt" "$tmp/noplot.txt"; then
  ok "default job, gnuplot fails: exit 1 after the tables, $(cut -c1-60 "$tmp/jobfalse.err")..."
else
  no "default job, gnuplot fails: exit $rc, $(cat "$tmp/jobfalse.err")"
fi

out="$("$rxlab" plot /dev/null 2>&1)"; rc=$?
[ "$rc" -eq 2 ] && grep -q "empty file" <<<"$out" && ok "plot of an empty file: $out" || no "plot /dev/null: $rc $out"
"$rxlab" run livelock --set run.duration=20ms --set run.warmup=2ms --format csv > "$tmp/run.csv"
out="$("$rxlab" plot "$tmp/run.csv" 2>&1)"; rc=$?
[ "$rc" -eq 2 ] && grep -q "a report of several tables" <<<"$out" && ok "plot of a run's report refused: $out" || no "plot run.csv: $rc $out"
[ "$fails" -eq 0 ]
