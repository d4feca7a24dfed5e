#!/usr/bin/env bash
# Objective: every reader of a user-named file is bounded in time and
# memory and reads what editors write (issue #14):
#   - a FIFO without a writer given as a scenario, profile, trace or live
#     timeline is refused at once (never waited for);
#   - /dev/zero and /dev/urandom on standard input or through a pipe fail
#     within their first line, with a message naming the input and line;
#   - a UTF-8 BOM and CRLF line ends read as the plain file (traces,
#     scenarios, replay inputs, results files); a y2038 pcap (ts_sec past
#     2^31) reads in time order;
#   - a replay stops at 10 million rows instead of growing without bound.
# Every command runs under `timeout`: a regression fails, never hangs.
set -u
rxlab="$1"; src="$2"
tr="$src/tests/traces"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
# expect_msg WHAT WANT CMD...: exit 2 within 20 s and stderr is WANT
expect_msg() {
  local what="$1" want="$2" got rc; shift 2
  got="$(timeout -s KILL 20 "$@" 2>&1 >/dev/null)"; rc=$?
  if [ "$rc" -eq 2 ] && [ "$got" = "$want" ]; then ok "$what: $got"
  else fail "$what: exit $rc, got '$got', want '$want'"; fi
}

mkfifo "$tmp/fifo.ini" "$tmp/fifo.csv" "$tmp/fifo.pcap"
expect_msg "FIFO scenario" \
  "rxlab: $tmp/fifo.ini: is a FIFO, not a regular file; scenarios and profiles must be regular files" \
  "$rxlab" run "$tmp/fifo.ini"
printf '[host]\nprofile = %s\n[nic eth0]\n[traffic]\nrate = 1kpps\n' "$tmp/fifo.ini" > "$tmp/prof.ini"
got="$(timeout -s KILL 20 "$rxlab" run "$tmp/prof.ini" 2>&1 >/dev/null)"; rc=$?
[ "$rc" -eq 2 ] && [[ "$got" == *"$tmp/fifo.ini: is a FIFO, not a regular file"* ]] \
  && ok "FIFO profile: $got" || fail "FIFO profile: exit $rc: $got"
expect_msg "FIFO trace" \
  "rxlab: $tmp/fifo.csv: is a FIFO, not a regular file; a trace is a pcap, pcapng or CSV file" \
  "$rxlab" run udp-sink --set traffic.trace="$tmp/fifo.csv"
expect_msg "FIFO live timeline" \
  "rxlab live: $tmp/fifo.csv: is a FIFO, not a regular file; a timeline is a CSV or pcap file" \
  "$rxlab" live --pattern "csv:$tmp/fifo.csv"

# Streams: standard input and pipes are read, bounded.
expect_msg "replay - < /dev/zero" "rxlab: <stdin>:1: contains a NUL byte; expected a text line" \
  "$rxlab" replay dim - < /dev/zero
got="$(timeout -s KILL 20 "$rxlab" replay itr - < /dev/urandom 2>&1 >/dev/null)"; rc=$?
[ "$rc" -eq 2 ] && [[ "$got" == "rxlab: <stdin>:"* ]] && ok "replay - < /dev/urandom: $got" \
  || fail "replay - < /dev/urandom: exit $rc: $got"
expect_msg "replay --pcap - < /dev/zero" \
  "rxlab: <stdin>: not a pcap or pcapng capture (libpcap: unknown file format)" \
  "$rxlab" replay coalesce --pcap - < /dev/zero
expect_msg "merge <(cat /dev/zero)" \
  "rxlab: /dev/fd/63: binary data (a NUL byte); expected CSV or JSON text" \
  bash -c "exec \"$rxlab\" merge <(cat /dev/zero)"
got="$(timeout -s KILL 20 bash -c "exec \"$rxlab\" merge <(tr '\\0' a < /dev/zero)" 2>&1 >/dev/null)"; rc=$?
[ "$rc" -eq 2 ] && [ "$got" = "rxlab: /dev/fd/63:1: line longer than 1 MiB (the limit of a results file)" ] \
  && ok "merge of an endless line: $got" || fail "merge of an endless line: exit $rc: $got"
got="$( (echo time_ns; yes 0) | timeout -s KILL 300 "$rxlab" replay coalesce --rx-frames 65535 \
        --rx-usecs 10s - 2>&1 >/dev/null)"; rc=$?
[ "$rc" -eq 2 ] && [ "$got" = "rxlab: <stdin>:10000002: more than 10000000 rows; a replay keeps its decisions in memory: split the input" ] \
  && ok "endless replay input stops at 10 million rows" || fail "endless replay: exit $rc: $got"

# Text as editors write it.
run() { timeout -s KILL 60 "$rxlab" run udp-sink --set run.warmup=0 --set run.duration=3ms --format csv "$@"; }
run --set traffic.trace="$tr/tiny.csv" > "$tmp/tiny.out"
for f in bom.csv crlf.csv; do
  run --set traffic.trace="$tr/$f" > "$tmp/$f.out" 2>"$tmp/err"
  cmp -s "$tmp/$f.out" "$tmp/tiny.out" && ok "trace $f reads as tiny.csv" \
    || fail "trace $f: $(cat "$tmp/err")"
done
run --set traffic.trace="$tr/y2038.pcap" > /dev/null 2>"$tmp/err" && ok "y2038.pcap (ts_sec past 2^31) in time order" \
  || fail "y2038.pcap: $(cat "$tmp/err")"
printf '[nic eth0]\n[traffic]\nrate = 1kpps\n[run]\nduration = 10ms\n' > "$tmp/plain.ini"
{ printf '\xef\xbb\xbf'; sed 's/$/\r/' "$tmp/plain.ini"; } > "$tmp/bom.ini"
timeout -s KILL 60 "$rxlab" run "$tmp/plain.ini" --format csv > "$tmp/plain.out"
timeout -s KILL 60 "$rxlab" run "$tmp/bom.ini" --format csv > "$tmp/bom.out" 2>"$tmp/err"
cmp -s "$tmp/plain.out" "$tmp/bom.out" && ok "scenario with a BOM and CRLF reads as the plain one" \
  || fail "scenario with a BOM and CRLF: $(cat "$tmp/err")"
printf 'time_ns\n5\n9\n' > "$tmp/arr.csv"
{ printf '\xef\xbb\xbf'; sed 's/$/\r/' "$tmp/arr.csv"; } > "$tmp/arr_bom.csv"
a="$(timeout 20 "$rxlab" replay coalesce --format csv "$tmp/arr.csv")"
b="$(timeout 20 "$rxlab" replay coalesce --format csv "$tmp/arr_bom.csv" 2>&1)"
[ -n "$a" ] && [ "$a" = "$b" ] && ok "replay input with a BOM and CRLF" || fail "replay BOM/CRLF: $b"
printf '# shard\nsweep_id,shard,shards,points\nabc,1,1,1\n\n# sweep\na,b\n1,2\n' > "$tmp/res.csv"
{ printf '\xef\xbb\xbf'; sed 's/$/\r/' "$tmp/res.csv"; } > "$tmp/res_bom.csv"
a="$(timeout 20 "$rxlab" merge "$tmp/res.csv" 2>&1)"
b="$(timeout 20 "$rxlab" merge "$tmp/res_bom.csv" 2>&1)"
[ "$a" = "a,b"$'\n'"1,2" ] && [ "$b" = "a,b"$'\n'"1,2" ] && ok "results file with a BOM and CRLF" \
  || fail "results BOM/CRLF: '$a' / '$b'"

echo "$fails failed"
[ "$fails" -eq 0 ]
