#!/usr/bin/env bash
# Objective: a scenario and a seed give byte-identical output; a different
# seed gives different Poisson arrivals (and so different output).
set -euo pipefail
rxlab="$1"
a="$(mktemp)"; b="$(mktemp)"; c="$(mktemp)"; trap 'rm -f "$a" "$b" "$c"' EXIT
args=(run livelock --set traffic.pattern=poisson --set traffic.rate=250kpps --set run.duration=50ms --set run.warmup=5ms --format csv)
"$rxlab" "${args[@]}" --seed 7 > "$a"
"$rxlab" "${args[@]}" --seed 7 > "$b"
"$rxlab" "${args[@]}" --seed 8 > "$c"
cmp "$a" "$b" || { echo "FAIL: same seed, different output"; diff "$a" "$b" | head; exit 1; }
echo "ok   seed 7 twice: identical ($(wc -c < "$a") bytes)"
if cmp -s "$a" "$c"; then echo "FAIL: seeds 7 and 8 gave identical output"; exit 1; fi
echo "ok   seed 8 differs from seed 7"
