#!/usr/bin/env bash
# Objective: --resume FILE keeps FILE's finished rows and never runs their
# points again; it runs the missing points and the partial ones, and the
# result is byte-identical to an uninterrupted run.  Proof that kept rows
# are not recomputed: (1) a kept row whose forwarded_pps was altered by hand
# comes out altered; (2) RXLAB_SWEEP_TRACE, which logs every point a
# process starts, lists none of the kept points.  A sweep interrupted with
# SIGINT, or killed with SIGKILL after checkpoints (--checkpoint 0), and
# resumed equals the uninterrupted one.  A file of another sweep,
# format or shard is refused.
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fails=$((fails+1)); }
sweep=(sweep livelock --set run.duration=20ms --set run.warmup=2ms
       --vary host.rxpath=classic,napi --vary traffic.rate=50kpps..1Mpps:5:log --format csv)
"$rxlab" "${sweep[@]}" > "$tmp/whole.csv"

# Points 0-3 and 6 done, 6 ended partial, point 1's forwarded_pps altered.
python3 - "$tmp" <<'PY'
import csv, sys, os
d = sys.argv[1]
rows = list(csv.reader(open(os.path.join(d, "whole.csv"))))
h = rows[0]
keep = [rows[1 + p][:] for p in (0, 1, 2, 3, 6)]
keep[1][h.index("forwarded_pps")] = "123456789"
keep[4][h.index("partial")] = "true"
csv.writer(open(os.path.join(d, "part.csv"), "w"), lineterminator="\n").writerows([h] + keep)
PY
RXLAB_SWEEP_TRACE="$tmp/trace" "$rxlab" "${sweep[@]}" --jobs 2 --resume "$tmp/part.csv" \
  --out "$tmp/resumed.csv" 2> "$tmp/err" || no "resume exit $?"
ran="$(sed 's/point //' "$tmp/trace" | sort -n | tr '\n' ' ')"
[ "$ran" = "4 5 6 7 8 9 " ] && ok "resume ran points $ran(kept 0-3; 6 was partial)" || no "resume ran '$ran'"
grep -q "4 finished points kept (1 partial dropped); running 6" "$tmp/err" \
  && ok "resume says: $(cat "$tmp/err")" || no "resume message: $(cat "$tmp/err")"
python3 - "$tmp" <<'PY' && ok "kept rows are copied (altered value kept), the others computed" || no "resumed rows"
import sys, os
d = sys.argv[1]
whole = open(os.path.join(d, "whole.csv")).read().splitlines()
res = open(os.path.join(d, "resumed.csv")).read().splitlines()
part = open(os.path.join(d, "part.csv")).read().splitlines()
assert len(res) == len(whole), (len(res), len(whole))
assert res[2] == part[2] and "123456789" in res[2], res[2]
assert [l for i, l in enumerate(res) if i != 2] == [l for i, l in enumerate(whole) if i != 2]
PY

# JSON: resume from the first three rows.
"$rxlab" "${sweep[@]/csv/json}" > "$tmp/whole.json"
python3 -c "
import sys; l = open('$tmp/whole.json').read().splitlines()
open('$tmp/part.json', 'w').write('\n'.join(l[:3] + [l[3].rstrip(','), ']']) + '\n')"
RXLAB_SWEEP_TRACE="$tmp/trace.json" "$rxlab" "${sweep[@]/csv/json}" --resume "$tmp/part.json" \
  --out "$tmp/resumed.json" 2>/dev/null
if cmp -s "$tmp/resumed.json" "$tmp/whole.json" && ! grep -qx "point [012]" "$tmp/trace.json"; then
  ok "JSON resume: identical, points 0-2 not run"
else
  no "JSON resume differs or reran kept points"
fi

# SIGINT in the middle (once the trace shows 4 points started), then resume
# into the same file.
long=(sweep livelock --set run.duration=1s --vary host.rxpath=classic,napi
      --vary traffic.rate=100kpps..1Mpps:8 --format csv --jobs 2)
RXLAB_SWEEP_TRACE="$tmp/long.trace" "$rxlab" "${long[@]}" --out "$tmp/long.csv" 2>/dev/null & pid=$!
for _ in $(seq 600); do
  [ "$(cat "$tmp/long.trace" 2>/dev/null | wc -l)" -ge 4 ] && break
  sleep 0.05
done
kill -INT "$pid" 2>/dev/null; wait "$pid"; rc=$?
kept="$(($(wc -l < "$tmp/long.csv") - 1))"
"$rxlab" "${long[@]}" --resume "$tmp/long.csv" --out "$tmp/long.csv" 2>/dev/null || no "resume of the interrupted sweep: exit $?"
"$rxlab" "${long[@]}" > "$tmp/long-whole.csv"
note="interrupted (exit $rc), $kept rows written"
[ "$rc" -eq 130 ] || note="not interrupted: it ended before the signal (exit $rc)"
if cmp -s "$tmp/long.csv" "$tmp/long-whole.csv"; then
  ok "$note; resumed == uninterrupted"
else
  no "interrupted and resumed differs from uninterrupted"
fi

# SIGKILL (no chance to write at exit): with --checkpoint 0 the --out file
# holds every row emitted so far, and resuming from it gives the whole sweep.
RXLAB_SWEEP_TRACE="$tmp/kill.trace" "$rxlab" "${long[@]}" --out "$tmp/kill.csv" --checkpoint 0 2>/dev/null & pid=$!
for _ in $(seq 600); do
  [ "$(cat "$tmp/kill.trace" 2>/dev/null | wc -l)" -ge 6 ] && break
  sleep 0.05
done
kill -KILL "$pid" 2>/dev/null; { wait "$pid"; } 2>/dev/null; rc=$?
if [ -s "$tmp/kill.csv" ]; then
  kept="$(($(wc -l < "$tmp/kill.csv") - 1))"
  "$rxlab" "${long[@]}" --resume "$tmp/kill.csv" --out "$tmp/kill.csv" 2>/dev/null
  cmp -s "$tmp/kill.csv" "$tmp/long-whole.csv" \
    && ok "SIGKILL (exit $rc) with --checkpoint 0: $kept rows on disk; resumed == uninterrupted" \
    || no "SIGKILL: resumed checkpoint differs from uninterrupted"
else
  no "SIGKILL (exit $rc): no checkpoint file"
fi

# SIGKILL during a resume whose --out is its --resume file, --checkpoint 0:
# the rows are streamed in point order, so a checkpoint holds the rows so
# far AND the kept rows still ahead; no kept row may be lost, the file stays
# in point order, and resuming it again gives the whole sweep.  CSV and JSON.
python3 - "$rxlab" "$tmp" "${long[@]}" <<'PY' && ok "SIGKILL in a resume into its own file: kept rows ahead survive the checkpoints (CSV, JSON); resumed == uninterrupted" || no "SIGKILL in a resume into its own file"
import csv, io, json, os, signal, subprocess, sys, time
rxlab, tmp, args = sys.argv[1], sys.argv[2], sys.argv[3:]
kept_points = (0, 7, 12, 15)
for fmt in ("csv", "json"):
    a = [x if x != "csv" else fmt for x in args]
    if fmt == "csv":   # the same command as long-whole.csv above: not run twice
        whole = open(os.path.join(tmp, "long-whole.csv")).read()
    else:
        whole = subprocess.run([rxlab, *a], capture_output=True, check=True).stdout.decode()
    lines = whole.splitlines()   # CSV: a header; JSON: "[", a row per line, "]"
    picked = [lines[1 + p] for p in kept_points]
    if fmt == "json":
        picked = [l[:-1] if l.endswith(",") else l for l in picked]
    if fmt == "csv":
        rows_of = lambda text: list(csv.DictReader(io.StringIO(text)))
        part = "\n".join([lines[0]] + picked) + "\n"
    else:
        rows_of = lambda text: json.loads(text)
        part = "[\n" + ",\n".join(picked) + "\n]\n"
    key = lambda r: (r["host.rxpath"], r["traffic.rate"])
    order = [key(r) for r in rows_of(whole)]
    want = {key(r): r for r in rows_of(whole)}
    path = os.path.join(tmp, "self." + fmt)
    trace = os.path.join(tmp, "self.trace." + fmt)
    open(path, "w").write(part)
    p = subprocess.Popen([rxlab, *a, "--resume", path, "--out", path, "--checkpoint", "0"],
                         stderr=subprocess.DEVNULL, env=dict(os.environ, RXLAB_SWEEP_TRACE=trace))
    started = lambda: os.path.exists(trace) and len(open(trace).readlines())
    while p.poll() is None and started() < 5:   # 3 new points finished at least
        time.sleep(0.01)
    p.send_signal(signal.SIGKILL); p.wait()
    got = rows_of(open(path).read())
    keys = [key(r) for r in got]
    assert keys == sorted(keys, key=order.index), (fmt, keys)
    for q in kept_points:
        assert want[order[q]] in got, (fmt, "kept point lost", q)
    subprocess.run([rxlab, *a, "--resume", path, "--out", path], stderr=subprocess.DEVNULL,
                   check=True)
    assert open(path).read() == whole, (fmt, "resumed differs")
PY

# expect_refusal NAME MESSAGE-PART sweep-args...
expect_refusal() {
  local name="$1" want="$2" out rc
  shift 2
  out="$("$rxlab" "$@" 2>&1 >/dev/null)"; rc=$?
  if [ "$rc" -eq 2 ] && grep -qF -- "$want" <<<"$out"; then ok "resume refuses $name: $out"
  else no "resume $name: exit $rc, message '$out' lacks '$want'"; fi
}
expect_refusal "another sweep's file" "but this sweep has 30ms" "${sweep[@]/20ms/30ms}" --resume "$tmp/part.csv"
expect_refusal "another format" "resume with the same --format" "${sweep[@]/csv/json}" --resume "$tmp/part.csv"
expect_refusal "a whole sweep as a shard" "is a whole sweep, not shard 1/2" "${sweep[@]}" --shard 1/2 --resume "$tmp/part.csv"
expect_refusal "a missing file" "cannot open $tmp/nope.csv" "${sweep[@]}" --resume "$tmp/nope.csv"
"$rxlab" "${sweep[@]}" --shard 2/2 > "$tmp/s2.csv"
expect_refusal "a shard of the wrong K" "is shard 2/2: resume it with --shard 2/2" "${sweep[@]}" --shard 1/2 --resume "$tmp/s2.csv"
[ "$fails" -eq 0 ]
