#!/usr/bin/env bash
# Objective: --vary KEY1+KEY2=SPEC sets both keys to each value: every row
# of the sweep equals `rxlab run` with both --set options (seed 003's
# rx-frames = rx-frames-irq curves), and malformed key lists are refused.
set -euo pipefail
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL $*"; exit 1; }

"$rxlab" sweep seeds/003-tg3-tcp-receive --jobs 1 --format csv \
  --set run.duration=50ms --set run.warmup=10ms \
  --vary nic.eth0.rx-frames+nic.eth0.rx-frames-irq=5,20 --vary traffic.rate=40kpps,80kpps \
  > "$tmp/sweep.csv"
[ "$(wc -l < "$tmp/sweep.csv")" -eq 5 ] || fail "want a header and 4 rows"
i=0
for fr in 5 20; do
  for rate in 40kpps 80kpps; do
    i=$((i + 1))
    want="$("$rxlab" run seeds/003-tg3-tcp-receive --format csv --set run.duration=50ms \
      --set run.warmup=10ms --set nic.eth0.rx-frames=$fr --set nic.eth0.rx-frames-irq=$fr \
      --set traffic.rate=$rate | sed -n 3p | cut -d, -f1-13)"
    got="$(sed -n "$((i + 1))p" "$tmp/sweep.csv" | cut -d, -f6-18)"
    [ "$got" = "$want" ] || fail "point $fr/$rate: sweep '$got' != run '$want'"
    echo "ok   rx-frames = rx-frames-irq = $fr at $rate: $got"
  done
done
for bad in 'a++b=1,2' '+a=1,2' 'a+=1,2' 'a+b+c+d+e=1,2'; do
  if "$rxlab" sweep livelock --vary "$bad" > /dev/null 2> "$tmp/err"; then fail "--vary $bad accepted"; fi
  grep -q "joined by '+'" "$tmp/err" || fail "--vary $bad: $(cat "$tmp/err")"
  echo "ok   --vary $bad refused"
done
