#!/usr/bin/env bash
# Objective: `rxlab replay` at the command line.  Every kind prints table,
# CSV and JSON and reads standard input from "-"; bad input exits 2 with one
# line naming file:line and the column; and the coalescing replay, fed the
# arrivals of a constant source, counts the same interrupts as the simulator
# running that source on the classic path with the same rx-usecs/rx-frames.
set -u
rxlab="$1"
dir="$(mktemp -d)"; trap 'rm -rf "$dir"' EXIT
fails=0
ok() { echo "ok   $1"; }
ko() { echo "FAIL $1"; fails=$((fails+1)); }

# ---- inputs ----
{ echo time_ns,packets,bytes,events
  for k in $(seq 0 130); do echo "$((k*10000)),$((k*10)),$((k*1000)),$k"; done; } > "$dir/dim.csv"
printf 'time_ns,rx_packets,rx_bytes,tx_packets,tx_bytes\n1000,1,64,0,0\n2000,40,60000,0,0\n' > "$dir/itr.csv"
printf 'time_ns,packets,bytes,events\n0,0,0,0\n1000000000,5000,0,1\n2000000000,55000,0,2\n' > "$dir/adaptive.csv"
printf 'time_ns\n0\n100000\n200000\n300000\n' > "$dir/coalesce.csv"
printf 'time_ns,work\n0,3\n20000,0\n40000,0\n' > "$dir/defer.csv"
declare -A args=( [dim]="" [itr]="--mode 3" [adaptive]="--sample-interval 1s"
                  [coalesce]="--rx-usecs 250 --rx-frames 100"
                  [defer]="--napi-defer-hard-irqs 1 --gro-flush-timeout 20us" )

# ---- formats and stdin ----
for kind in dim itr adaptive coalesce defer; do
  a=${args[$kind]}
  # shellcheck disable=SC2086
  if "$rxlab" replay $kind $a "$dir/$kind.csv" --format csv > "$dir/$kind.out.csv" &&
     "$rxlab" replay $kind $a --format json "$dir/$kind.csv" > "$dir/$kind.out.json" &&
     "$rxlab" replay $kind $a "$dir/$kind.csv" > "$dir/$kind.out.txt" &&
     "$rxlab" replay $kind $a --format csv - < "$dir/$kind.csv" > "$dir/$kind.stdin.csv"; then
    ok "$kind: table, csv, json and stdin run"
  else
    ko "$kind: a format or stdin failed"; continue
  fi
  cmp -s "$dir/$kind.out.csv" "$dir/$kind.stdin.csv" && ok "$kind: stdin gives the file's output" \
    || ko "$kind: stdin output differs"
  python3 - "$dir/$kind.out.csv" "$dir/$kind.out.json" <<'PY' && ok "$kind: CSV and JSON hold the same rows" || ko "$kind: CSV/JSON mismatch"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
js = json.load(open(sys.argv[2]))
assert rows and len(rows) == len(js), (len(rows), len(js))
for r, j in zip(rows, js):
    for k, v in r.items():
        jv = j[k]
        assert (v == "" and jv is None) or str(jv) == v, (k, v, jv)
PY
done
grep -qx '640000,640000,1000,100000,100,better,going_left,0,1,256,yes' "$dir/dim.out.csv" \
  && ok "dim: first window decides as computed by hand" || ko "dim: first window: $(sed -n 2p "$dir/dim.out.csv")"
grep -qx '250000,3,timer,250000' "$dir/coalesce.out.csv" \
  && ok "coalesce: 0, 100, 200 us fire at 250 us by the timer" || ko "coalesce: $(cat "$dir/coalesce.out.csv")"

# ---- errors: exit 2, one line, file:line and the column ----
# case NAME EXPECTED-FRAGMENT INPUT-TEXT ARGS...
case_() {
  local name="$1" want="$2" text="$3" out rc lines; shift 3
  printf '%s\n' "$text" > "$dir/$name.csv"
  out="$("$rxlab" replay "$@" "$dir/$name.csv" 2>&1 >/dev/null)"; rc=$?
  lines=$(printf '%s\n' "$out" | wc -l)
  if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [[ "$out" == *"$want"* ]]; then
    ok "$name: $out"
  else
    ko "$name: exit $rc, $lines line(s): $out"; echo "     expected to contain: $want"
  fi
}
case_ bad_bytes "bad_bytes.csv:3: column 'bytes': '12x' is not a whole number; accepted a decimal integer" \
  "$(printf 'time_ns,packets,bytes,events\n0,1,2,3\n10,1,12x,3')" dim
case_ backwards "backwards.csv:4: column 'time_ns': 5 is earlier than 9 on line 3" \
  "$(printf 'time_ns\n1\n9\n5')" coalesce
case_ header "header.csv:1: header 'time,work' is not 'time_ns,work'" \
  "$(printf 'time,work\n0,1')" defer
case_ columns "columns.csv:2: 2 columns, expected 5" \
  "$(printf 'time_ns,rx_packets,rx_bytes,tx_packets,tx_bytes\n0,1')" itr
case_ work "work.csv:2: column 'work': '65' is out of range; accepted a decimal integer 0..64" \
  "$(printf 'time_ns,work\n0,65')" defer
out="$(printf 'time_ns\n3\n2\n' | "$rxlab" replay coalesce - 2>&1 >/dev/null)"; rc=$?
[ $rc -eq 2 ] && [[ "$out" == "rxlab: <stdin>:3: column 'time_ns'"* ]] && ok "stdin errors name <stdin>: $out" \
  || ko "stdin error: $rc $out"
out="$("$rxlab" replay coalesce "$dir/nope.csv" 2>&1)"; rc=$?
[ $rc -eq 2 ] && [[ "$out" == *"nope.csv: cannot open"* ]] && ok "missing file: $out" || ko "missing file: $rc $out"
out="$("$rxlab" replay dim --profile rx "$dir/dim.csv" 2>&1)"; rc=$?
[ $rc -eq 2 ] && [[ "$out" == *"accepted rx-eqe, rx-cqe, tx-eqe or tx-cqe"* ]] && ok "bad option: ${out%%$'\n'*}" \
  || ko "bad option: $rc $out"
out="$("$rxlab" replay nim "$dir/dim.csv" 2>&1)"; rc=$?
[ $rc -eq 2 ] && [[ "$out" == *"unknown replay kind 'nim'"* ]] && ok "bad kind: ${out%%$'\n'*}" || ko "bad kind: $rc $out"

# ---- the simulator and the replay on the same arrivals ----
# A constant 10 kpps source on the classic path, no route (no TX
# interrupts), 9.95 ms.  The simulator's completions come a fixed wire + DMA
# time (under 3 us) after the replay's k * 100 us, so every interrupt
# shifts by that constant; the window's end is more than 15 us away from any
# interrupt in these settings, so both count the same ones.
compare() {
  local sets="$1" ropts="$2" sim rep
  cat > "$dir/cmp.ini" <<EOF
[host]
rxpath = classic
[nic eth0]
$sets
[traffic]
port = eth0
pattern = constant
rate = 10kpps
[run]
duration = 9.95ms
EOF
  sim="$("$rxlab" run "$dir/cmp.ini" --format csv | awk -F, '/^# interrupts/{f=1;next} f&&/eth0/{print $2; exit}')"
  # shellcheck disable=SC2086
  rep="$(seq 0 100000 9900000 | sed '1i time_ns' | "$rxlab" replay coalesce - $ropts --format csv |
         awk -F, 'NR>1 && $1 < 9950000 {n++} END {print n+0}')"
  if [ -n "$sim" ] && [ "$sim" = "$rep" ]; then ok "sim vs replay ($ropts): $sim interrupts"
  else ko "sim vs replay ($ropts): simulator '$sim', replay '$rep'"; fi
}
compare $'rx-usecs = 250\nrx-frames = 100' "--rx-usecs 250 --rx-frames 100"
compare $'rx-usecs = 0\nrx-frames = 4' "--rx-usecs 0 --rx-frames 4"
compare $'rx-usecs = 30\nrx-frames = 0\ncqe-mode-rx = on' "--rx-usecs 30 --rx-frames 0 --timer restart"
compare $'min-irq-interval = 250us' "--itr-ns 250us"

[ "$fails" -eq 0 ] || { echo "$fails case(s) failed"; exit 1; }
