#!/usr/bin/env bash
# Objective: a sweep cut into shards (--shard K/N) and joined with rxlab
# merge is byte-identical (cmp) to the same sweep run whole, in CSV and JSON,
# whatever the order of the shards and the number of workers; merge refuses
# shards that are missing, given twice, of another sweep, in another format,
# incomplete or partial, with exit status 2 and a message naming the file.
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fails=$((fails+1)); }
sweep=(sweep livelock --set run.duration=20ms --set run.warmup=2ms
       --vary host.rxpath=classic,napi --vary traffic.rate=50kpps..1Mpps:5:log)

for fmt in csv json; do
  "$rxlab" "${sweep[@]}" --format "$fmt" --jobs 2 > "$tmp/whole.$fmt"
  for n in 3 4 10; do
    files=()
    for k in $(seq "$n" -1 1); do   # shards listed last to first
      "$rxlab" "${sweep[@]}" --format "$fmt" --jobs $(( k % 2 + 1 )) --shard "$k/$n" \
        --out "$tmp/s$k-$n.$fmt" || no "$fmt shard $k/$n exit $?"
      files+=("$tmp/s$k-$n.$fmt")
    done
    if "$rxlab" merge "${files[@]}" > "$tmp/merged.$fmt" && cmp "$tmp/merged.$fmt" "$tmp/whole.$fmt"; then
      ok "$fmt: $n shards merged == unsharded ($(wc -c < "$tmp/whole.$fmt") bytes)"
    else
      no "$fmt: $n shards merged differ from the unsharded run"
    fi
  done
done
[ "$(grep -c . "$tmp/whole.csv")" -eq 11 ] && ok "whole sweep: header + 10 rows" || no "whole sweep rows"

# expect_refusal NAME MESSAGE-PART merge-args...
expect_refusal() {
  local name="$1" want="$2" out rc
  shift 2
  out="$("$rxlab" merge "$@" 2>&1 >/dev/null)"; rc=$?
  if [ "$rc" -eq 2 ] && grep -qF -- "$want" <<<"$out"; then ok "merge refuses $name: $out"
  else no "merge $name: exit $rc, message '$out' lacks '$want'"; fi
}
s="$tmp/s"
expect_refusal "a missing shard" "shard 2/3 is missing" "$s"1-3.csv "$s"3-3.csv
expect_refusal "a shard given twice" "are both shard 3/3" "$s"1-3.csv "$s"3-3.csv "$s"3-3.csv "$s"2-3.csv
"$rxlab" sweep livelock --set run.duration=30ms --set run.warmup=2ms --vary host.rxpath=classic,napi \
  --vary traffic.rate=50kpps..1Mpps:5:log --format csv --shard 2/3 > "$tmp/other2.csv"
expect_refusal "another sweep's shard" "shards of different sweeps" "$s"1-3.csv "$tmp/other2.csv" "$s"3-3.csv
expect_refusal "shards of another size" "is shard 2/4 of 10 points" "$s"1-3.csv "$s"2-4.csv "$s"3-3.csv
expect_refusal "mixed formats" "in different formats" "$s"1-3.csv "$s"2-3.json "$s"3-3.csv
head -n 7 "$s"1-3.csv > "$tmp/short.csv"
expect_refusal "an incomplete shard" "has 1 finished of its 4 points" "$tmp/short.csv" "$s"2-3.csv "$s"3-3.csv
sed '7s/,false,/,true,/' "$s"1-3.csv > "$tmp/partial.csv"
expect_refusal "a partial point" "(4 rows, 1 partial)" "$tmp/partial.csv" "$s"2-3.csv "$s"3-3.csv
expect_refusal "a whole sweep" "is not a shard" "$tmp/whole.csv"

out="$("$rxlab" "${sweep[@]}" --format csv --shard 11/10 2>&1)"; rc=$?
[ "$rc" -eq 2 ] && grep -q "K/N with 1 <= K <= N" <<<"$out" && ok "--shard 11/10 refused" || no "--shard 11/10: $rc $out"
out="$("$rxlab" "${sweep[@]}" --shard 1/2 2>&1)"; rc=$?
[ "$rc" -eq 2 ] && grep -q "add --format csv" <<<"$out" && ok "--shard without --format refused" || no "--shard text: $rc $out"

# Progress: quiet when stderr is not a terminal; --progress draws the bar
# (points done / total, ETA) and ends with a summary line.
"$rxlab" "${sweep[@]}" --format csv > /dev/null 2> "$tmp/quiet.err"
[ ! -s "$tmp/quiet.err" ] && ok "no progress output when stderr is a file" || no "stderr: $(cat "$tmp/quiet.err")"
"$rxlab" "${sweep[@]}" --format csv --progress --shard 1/2 > /dev/null 2> "$tmp/bar.err"
bar="$(tr '\r' '\n' < "$tmp/bar.err")"
if grep -q "\] 5/5 points 100%.*ETA" <<<"$bar" && grep -q "^5 of 5 points in " <<<"$bar"; then
  ok "--progress: $(grep "^5 of 5" <<<"$bar" | sed 's/\x1b\[K//')"
else
  no "--progress output: $bar"
fi
[ "$fails" -eq 0 ]
