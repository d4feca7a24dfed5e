#!/usr/bin/env bash
# Objective (issue #19): "-" reads standard input wherever rxlab reads a
# file, as the file itself would read, and once per command:
#   - a scenario: run, sweep (parallel workers), compare, tune;
#   - a trace: traffic.trace = - (CSV, pcap, pcapng; a pipe and a
#     redirected file), also in a sweep whose workers fork;
#   - a results file: plot, merge, sweep --resume;
#   - errors name "<stdin>": empty, a directory, too large, bad contents;
#     standard input read twice in one command (a scenario from - whose
#     traffic.trace is also -, merge - -) exits 2 naming both readers.
# Every command runs under `timeout`: a reader that waits fails, never hangs.
set -u
rxlab="$(realpath "$1")"; src="$2"
tr="$src/tests/traces"; scn="$src/scenarios"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
rx() { timeout -s KILL 60 "$rxlab" "$@"; }
# same WHAT FILE_CMD -- STDIN_CMD: both print the same bytes (status 0)
same() {
  local what="$1"; shift
  if cmp -s "$tmp/a" "$tmp/b" && [ -s "$tmp/a" ]; then ok "$what"
  else fail "$what: outputs differ ($(wc -c < "$tmp/a") vs $(wc -c < "$tmp/b") bytes)"; fi
}
# expect_msg WHAT WANT CMD...: exit 2 and stderr is WANT (stdin as given)
expect_msg() {
  local what="$1" want="$2" got rc; shift 2
  got="$(timeout -s KILL 20 "$@" 2>&1 >/dev/null)"; rc=$?
  if [ "$rc" -eq 2 ] && [ "$got" = "$want" ]; then ok "$what: $got"
  else fail "$what: exit $rc, got '$got', want '$want'"; fi
}

# scenarios
rx run "$scn/livelock.ini" --format csv > "$tmp/a"
rx run - --format csv < "$scn/livelock.ini" > "$tmp/b"; same "run - < FILE"
cat "$scn/livelock.ini" | rx run - --format csv > "$tmp/b"; same "cat FILE | run -"
rx run livelock --format json > "$tmp/a"
cat "$scn/livelock.ini" | rx run - --format json > "$tmp/b"; same "run - --format json"
v=(--vary traffic.rate=10kpps,20kpps,30kpps,40kpps --format csv)
rx sweep "$scn/udp-sink.ini" "${v[@]}" --jobs 4 | cut -d, -f1,3- > "$tmp/a"
cat "$scn/udp-sink.ini" | rx sweep - "${v[@]}" --jobs 4 | cut -d, -f1,3- > "$tmp/b"
same "sweep - --jobs 4 (workers fork after stdin is read)"
rx compare --format csv > "$tmp/a"
cat "$scn/moderation-compare.ini" | rx compare - --format csv > "$tmp/b"; same "compare -"
g=(--goal 'p99<=100us' --policies coalesce --format csv --jobs 2)
rx tune "$scn/udp-sink.ini" "${g[@]}" > "$tmp/a" 2>/dev/null
cat "$scn/udp-sink.ini" | rx tune - "${g[@]}" > "$tmp/b" 2>/dev/null; same "tune -"

# traces
for t in tiny.csv tiny.pcap tiny.pcapng; do
  rx run udp-sink --set traffic.trace="$tr/$t" --format csv > "$tmp/a"
  cat "$tr/$t" | rx run udp-sink --set traffic.trace=- --format csv > "$tmp/b"
  same "cat $t | run --set traffic.trace=-"
  rx run udp-sink --set traffic.trace=- --format csv < "$tr/$t" > "$tmp/b"
  same "run --set traffic.trace=- < $t"
done
printf '[host]\n[nic eth0]\n[traffic]\npattern = trace\ntrace = -\n' > "$tmp/trace-stdin.ini"
printf '[host]\n[nic eth0]\n[traffic]\npattern = trace\ntrace = %s\n' "$tr/tiny.csv" > "$tmp/trace-file.ini"
rx run "$tmp/trace-file.ini" --format csv > "$tmp/a"
cat "$tr/tiny.csv" | rx run "$tmp/trace-stdin.ini" --format csv > "$tmp/b"
same "trace = - in the scenario file"
rx sweep "$tmp/trace-file.ini" --vary nic.eth0.rx-usecs=0,8,16,32 --jobs 4 --format csv \
  | cut -d, -f1,3- > "$tmp/a"
cat "$tr/tiny.csv" | rx sweep "$tmp/trace-stdin.ini" --vary nic.eth0.rx-usecs=0,8,16,32 \
  --jobs 4 --format csv | cut -d, -f1,3- > "$tmp/b"
same "sweep --jobs 4 of a scenario whose trace = -"

# results files
rx sweep udp-sink --vary traffic.rate=10kpps,20kpps,30kpps --format csv > "$tmp/all.csv"
for k in 1 2; do
  rx sweep udp-sink --vary traffic.rate=10kpps,20kpps,30kpps --format csv --shard $k/2 \
    > "$tmp/s$k.csv"
done
cp "$tmp/all.csv" "$tmp/a"
rx merge - "$tmp/s2.csv" < "$tmp/s1.csv" > "$tmp/b"; same "merge - SHARD"
head -2 "$tmp/all.csv" | rx sweep udp-sink --vary traffic.rate=10kpps,20kpps,30kpps \
  --format csv --resume - > "$tmp/b" 2>/dev/null; same "sweep --resume - (one row kept)"
if command -v gnuplot > /dev/null; then
  (cd "$tmp" && rx plot - < all.csv 2> plot.err) && [ -d "$tmp/stdin-figures" ] \
    && [ -n "$(ls "$tmp/stdin-figures")" ] && ok "plot -: figures in stdin-figures/" \
    || fail "plot -: $(cat "$tmp/plot.err")"
else
  echo "skip plot - (no gnuplot)"
fi

# errors name <stdin>
expect_msg "run - < /dev/null" "rxlab: <stdin>: file is empty" "$rxlab" run - < /dev/null
expect_msg "run - < DIR" "rxlab: <stdin>: is a directory, not a file" "$rxlab" run - < "$tmp"
expect_msg "run - < /dev/zero" \
  "rxlab: <stdin>:1: line longer than 4 KiB (the limit of a scenario or profile)" \
  "$rxlab" run - < /dev/zero
printf '[host]\nrxpath = nosuch\n' > "$tmp/bad.ini"
got="$(rx run - < "$tmp/bad.ini" 2>&1 >/dev/null)"; rc=$?
[ "$rc" -eq 2 ] && [[ "$got" == "rxlab: <stdin>:2: "* ]] && ok "bad scenario on stdin: $got" \
  || fail "bad scenario on stdin: exit $rc: $got"
expect_msg "trace = - < /dev/null" \
  "rxlab: <stdin>: empty trace: no header and no packets; the first line must be 'time_us,length'" \
  "$rxlab" run udp-sink --set traffic.trace=- < /dev/null
expect_msg "plot - < /dev/null" \
  "rxlab: <stdin>: empty file; expected a sweep's results (CSV or JSON)" \
  "$rxlab" plot - --out "$tmp/nofig" < /dev/null
twice="(a command reads standard input once: give one of them a file)"
expect_msg "scenario - with trace = -" \
  "rxlab: <stdin>: standard input is already read as a scenario; a trace cannot read it too $twice" \
  "$rxlab" run - < "$tmp/trace-stdin.ini"
expect_msg "merge - -" \
  "rxlab: <stdin>: standard input is already read as a results file; a results file cannot read it too $twice" \
  "$rxlab" merge - - < "$tmp/s1.csv"
expect_msg "sweep - --resume -" \
  "rxlab: <stdin>: standard input is already read as a scenario; a results file cannot read it too $twice" \
  "$rxlab" sweep - --vary traffic.rate=1kpps,2kpps --format csv --resume - < "$scn/udp-sink.ini"

got="$(head -2 "$tmp/all.csv" | timeout -s KILL 20 "$rxlab" sweep udp-sink \
  --vary nic.eth0.rx-usecs=1,2 --format csv --resume - 2>&1 >/dev/null)"; rc=$?
[ "$rc" -eq 2 ] && [[ "$got" == "rxlab: <stdin>"* ]] && ok "resume - of another sweep: $got" \
  || fail "resume - of another sweep: exit $rc: $got"

# a trace = - that only a point reads (not the parent): its forked worker
# is refused by name, never left to race its siblings for the bytes
got="$(timeout -s KILL 20 "$rxlab" sweep udp-sink --vary traffic.trace=-,"$tr/tiny.csv" \
  --jobs 2 --format csv < "$tr/tiny.csv" 2>&1 >/dev/null)"; rc=$?
[ "$rc" -eq 2 ] && [ "$got" = "rxlab: <stdin>: a worker process cannot read standard input; a trace is read once, by the command before its workers start (give a file)" ] \
  && ok "a worker reading stdin: refused" || fail "a worker reading stdin: exit $rc: $got"
rx sweep udp-sink --vary traffic.trace="$tr/tiny.pcap","$tr/tiny.csv" --jobs 1 --format csv \
  | cut -d, -f1,3- > "$tmp/a"
rx sweep udp-sink --vary traffic.trace=-,"$tr/tiny.csv" --jobs 1 --format csv < "$tr/tiny.pcap" \
  | cut -d, -f1,3- | sed "s|^-,|$tr/tiny.pcap,|" > "$tmp/b"
same "--vary traffic.trace=-,FILE --jobs 1: the parent reads it"

[ "$fails" -eq 0 ] && echo "all ok" || echo "$fails failure(s)"
[ "$fails" -eq 0 ]
