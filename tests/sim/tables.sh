#!/usr/bin/env bash
# Objective (issue #19): one table per CSV.
#   - `run --out-dir DIR` writes DIR/NAME.csv per table, and Python's csv
#     module (no pandas) reads every file as one table: one header row,
#     every row as long as it, no comment or blank lines; the files are
#     the tables of the multi-table stream, byte for byte;
#   - `--table NAME` prints that table alone (CSV: the same bytes); an
#     unknown name exits 2 and lists the report's tables; several tables
#     in CSV on stdout are refused (that was the multi-table stream);
#   - JSON of --table and of --out-dir carries each column's unit;
#   - --out-dir creates DIR, refuses a symlink or a file, replaces the
#     files it writes and leaves the others;
#   - tune --table / --out-dir on its tables (front, best).
set -u
rxlab="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# The tables of the old multi-table CSV stream, split at "# NAME" lines.
split_stream() { # FILE DIR
  awk -v d="$2" '/^# /{f=d"/"substr($0,3)".csv"; next} /^$/{next} {print > f}' "$1"
}

for scn in livelock memcached tcp-stream rss-imbalance seeds/004-e100-ping seeds/004-e100-netperf \
           seeds/002-smp-recycle; do
  d="$tmp/out-${scn//\//_}"
  short=(--set run.duration=200ms --set run.warmup=50ms)	# the same tables, sooner
  [ "$scn" = livelock ] && short=()
  [ "$scn" = seeds/004-e100-netperf ] && short=(--set run.duration=2100ms --set run.warmup=0)
  if ! "$rxlab" run "$scn" "${short[@]}" --show-coalesce --out-dir "$d" > "$tmp/stdout" \
       2> "$tmp/err"; then
    fail "$scn: run --out-dir: $(cat "$tmp/err")"; continue
  fi
  [ -s "$tmp/stdout" ] && fail "$scn: --out-dir printed on stdout"
  if python3 - "$d" > "$tmp/py" 2>&1 <<'PY'
import csv, glob, os, sys
files = sorted(glob.glob(os.path.join(sys.argv[1], "*.csv")))
assert files, "no CSV file"
for path in files:
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    name = os.path.basename(path)
    assert rows, f"{name}: empty"
    header = rows[0]
    assert header and all(header), f"{name}: empty column name in {header}"
    assert len(set(header)) == len(header), f"{name}: a column twice: {header}"
    assert not header[0].startswith("#"), f"{name}: a comment line: {header}"
    for i, r in enumerate(rows[1:], 2):
        assert r, f"{name}:{i}: blank line"
        assert len(r) == len(header), f"{name}:{i}: {len(r)} fields, header has {len(header)}"
        assert not r[0].startswith("#"), f"{name}:{i}: a comment line"
        assert r != header, f"{name}:{i}: a second header"
    print(f"{name}: {len(header)} columns, {len(rows) - 1} rows")
PY
  then ok "$scn: python csv reads $(ls "$d" | wc -l) tables: $(tr '\n' ' ' < "$tmp/py")"
  else fail "$scn: $(cat "$tmp/py")"; fi
  # the same bytes as the tables of the multi-table stream
  "$rxlab" run "$scn" "${short[@]}" --show-coalesce --format csv > "$tmp/stream.csv"
  rm -rf "$tmp/split"; mkdir "$tmp/split"; split_stream "$tmp/stream.csv" "$tmp/split"
  diff -r "$tmp/split" "$d" > /dev/null && ok "$scn: the files are the stream's tables" \
    || fail "$scn: the files differ from the stream's tables"
done

# --table NAME: the table alone, the same bytes as in the stream
d="$tmp/out-livelock"
for t in summary netstat_i threads; do
  "$rxlab" run livelock --table "$t" --format csv > "$tmp/one.csv" \
    && cmp -s "$tmp/one.csv" "$d/$t.csv" && ok "--table $t: the table alone" \
    || fail "--table $t differs from $d/$t.csv"
done
got="$("$rxlab" run livelock --table nosuch 2>&1 >/dev/null)"; rc=$?
want="rxlab: --table: unknown table 'nosuch'; this report's tables: summary, netstat_i, interrupts, softnet_stat, mpstat, threads
try 'rxlab help'"
[ "$rc" -eq 2 ] && [ "$got" = "$want" ] && ok "--table nosuch: exit 2, lists the tables" \
  || fail "--table nosuch: exit $rc: $got"
got="$("$rxlab" run livelock --table summary --table threads --format csv 2>&1 >/dev/null)"; rc=$?
[ "$rc" -eq 2 ] && [[ "$got" == "rxlab: CSV on standard output is one table"* ]] \
  && ok "two --table in CSV on stdout: refused" || fail "two --table in CSV: exit $rc: $got"
got="$("$rxlab" sweep livelock --vary traffic.rate=1,2 --table summary 2>&1 >/dev/null)"; rc=$?
[ "$rc" -eq 2 ] && [[ "$got" == "rxlab: --table and --out-dir are options of rxlab run"* ]] \
  && ok "--table on sweep: refused" || fail "--table on sweep: exit $rc: $got"
"$rxlab" run livelock --table mpstat --table threads > "$tmp/two.txt" \
  && grep -q '^mpstat -P ALL' "$tmp/two.txt" && grep -q '^Threads' "$tmp/two.txt" \
  && ! grep -q '^Summary' "$tmp/two.txt" && ok "two --table in text: those two" \
  || fail "two --table in text: $(cat "$tmp/two.txt")"

# JSON carries the units: --table (one and two) and --out-dir
"$rxlab" run livelock --table summary --format json > "$tmp/one.json"
"$rxlab" run livelock --table summary --table netstat_i --format json > "$tmp/two.json"
"$rxlab" run livelock --out-dir "$tmp/json" --format json
"$rxlab" run livelock --format json > "$tmp/all.json"
if python3 - "$tmp" > "$tmp/py" 2>&1 <<'PY'
import json, os, sys
t = sys.argv[1]
allt = json.load(open(os.path.join(t, "all.json")))
one = json.load(open(os.path.join(t, "one.json")))
assert set(one) == {"units", "rows"}, one.keys()
assert one["rows"] == allt["summary"], "rows differ from the plain JSON"
u = one["units"]
assert list(u) == list(one["rows"][0]), "units not in column order"
want = {"offered_pps": "pkt/s", "rx_irqs_per_s": "1/s", "cpu_idle_pct": "%",
        "lat_p99_us": "us", "rxpath": "text", "partial": "bool", "drops_total": "packets",
        "pkts_per_irq": "pkt/irq"}
for k, v in want.items():
    assert u[k] == v, f"{k}: {u[k]}, want {v}"
two = json.load(open(os.path.join(t, "two.json")))
assert list(two) == ["summary", "netstat_i"], list(two)
assert two["netstat_i"]["units"]["rx_ok"] == "packets"
for name in allt:
    f = json.load(open(os.path.join(t, "json", name + ".json")))
    assert f["rows"] == allt[name], name
    assert set(f["units"]) == set(allt[name][0]), name
print("units ok:", len(allt), "tables")
PY
then ok "JSON units: $(cat "$tmp/py")"; else fail "JSON units: $(cat "$tmp/py")"; fi

# --out-dir: created, refused through a symlink or on a file, files replaced
mkdir "$tmp/real"; ln -s "$tmp/real" "$tmp/link"; : > "$tmp/file"
got="$("$rxlab" run livelock --out-dir "$tmp/link" 2>&1)"; rc=$?
[ "$rc" -eq 2 ] && [ "$got" = "rxlab: $tmp/link: is a symbolic link, not a directory (--out-dir writes its files into a directory it creates or finds, never through a link)" ] \
  && [ -z "$(ls "$tmp/real")" ] && ok "--out-dir SYMLINK: refused, nothing written" \
  || fail "--out-dir SYMLINK: exit $rc: $got"
got="$("$rxlab" run livelock --out-dir "$tmp/file" 2>&1)"; rc=$?
[ "$rc" -eq 2 ] && [[ "$got" == "rxlab: $tmp/file: is a regular file, not a directory"* ]] \
  && ok "--out-dir FILE: refused" || fail "--out-dir FILE: exit $rc: $got"
mkdir "$tmp/again"; echo old > "$tmp/again/summary.csv"; echo mine > "$tmp/again/notes.txt"
"$rxlab" run livelock --out-dir "$tmp/again" --table summary \
  && cmp -s "$tmp/again/summary.csv" "$d/summary.csv" && [ "$(cat "$tmp/again/notes.txt")" = mine ] \
  && [ "$(ls "$tmp/again" | tr '\n' ' ')" = "notes.txt summary.csv " ] \
  && ok "--out-dir with --table: summary.csv replaced, other files kept" \
  || fail "--out-dir again: $(ls "$tmp/again")"

# tune: --table and --out-dir on its two tables (front, best)
tq=(udp-sink --goal 'p99<=100us' --policies coalesce --set run.duration=100ms --set run.warmup=20ms)
"$rxlab" tune "${tq[@]}" --format csv > "$tmp/tune.csv" 2>/dev/null
rm -rf "$tmp/tsplit"; mkdir "$tmp/tsplit"; split_stream "$tmp/tune.csv" "$tmp/tsplit"
"$rxlab" tune "${tq[@]}" --out-dir "$tmp/tune" 2>/dev/null
diff -r "$tmp/tsplit" "$tmp/tune" > /dev/null && [ "$(ls "$tmp/tune" | tr '\n' ' ')" = "best.csv front.csv " ] \
  && ok "tune --out-dir: best.csv and front.csv, the stream's tables" \
  || fail "tune --out-dir: $(ls "$tmp/tune")"
"$rxlab" tune "${tq[@]}" --table best --format csv 2>/dev/null | cmp -s - "$tmp/tune/best.csv" \
  && ok "tune --table best: the table alone" || fail "tune --table best differs"
got="$("$rxlab" tune "${tq[@]}" --table nosuch 2>&1 >/dev/null)"; rc=$?
[ "$rc" -eq 2 ] && [ "$got" = "rxlab: --table: unknown table 'nosuch'; this report's tables: front, best" ] \
  && ok "tune --table nosuch: exit 2, lists front, best" || fail "tune --table nosuch: exit $rc: $got"

[ "$fails" -eq 0 ] && echo "all ok" || echo "$fails failure(s)"
[ "$fails" -eq 0 ]
