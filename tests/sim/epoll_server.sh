#!/usr/bin/env bash
# Objective: the epoll server with one worker is the rr-server's reader -
# the same code path - so server = epoll with server-threads = 1 gives
# byte-identical output to sink = on (only the thread's name differs:
# epoll-worker/0 for udp-sink), under plain NAPI, busy polling and IRQ
# suspension.  An epoll run's report adds what a server run reports (five
# summary columns after the sink's, the workers table); those are cut
# before the comparison, and the workers table must count requests.
set -euo pipefail
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
check() {
  local what="$1"; shift
  "$rxlab" run rr-server "$@" --format csv > "$tmp/sink.csv"
  "$rxlab" run rr-server --set apps.server=epoll "$@" --format csv > "$tmp/full.csv"
  # the summary's last five columns and the workers table are the server's
  awk -F, -v OFS=, '
    /^# / { sect = $0 }
    sect == "# workers" { next }
    sect == "# summary" && NF > 5 { NF -= 5 }
    { print }' "$tmp/full.csv" | sed -e 's|^epoll-worker/0,|udp-sink,|' -e '${/^$/d}' \
    > "$tmp/epoll.csv"
  served=$(awk -F, '/^# workers/ { w = 1; getline; next } w && NF > 3 { print $3; exit }' \
    "$tmp/full.csv")
  [ -n "$served" ] && [ "$served" -gt 0 ] \
    || { echo "FAIL $what: the workers table has no served count"; fails=$((fails + 1)); }
  if cmp -s "$tmp/sink.csv" "$tmp/epoll.csv"; then
    echo "ok   one-worker epoll = sink: $what"
  else
    echo "FAIL one-worker epoll = sink: $what"; diff "$tmp/sink.csv" "$tmp/epoll.csv" | head
    fails=$((fails + 1))
  fi
}
check "plain NAPI at 80 kpps" --set traffic.rate=80kpps
check "busy_poll 50us at 80 kpps" --set apps.busy_poll=50us --set traffic.rate=80kpps
check "IRQ suspension at 200 kpps" --set apps.prefer_busy_poll=on --set apps.busy_poll=50us \
  --set nic.eth0.napi_defer_hard_irqs=100 --set nic.eth0.gro_flush_timeout=20us \
  --set nic.eth0.irq-suspend-timeout=20ms --set traffic.rate=200kpps
check "IRQ suspension, busy_poll 0, at 100 kpps" --set apps.prefer_busy_poll=on \
  --set nic.eth0.napi_defer_hard_irqs=100 --set nic.eth0.gro_flush_timeout=20us \
  --set nic.eth0.irq-suspend-timeout=20ms --set traffic.rate=100kpps
# The rename must be the only difference: the name is there to replace.
"$rxlab" run rr-server --set apps.server=epoll --format csv | grep -q '^epoll-worker/0,' \
  && echo "ok   the worker is named epoll-worker/0" \
  || { echo "FAIL no epoll-worker/0 row"; fails=$((fails + 1)); }
exit $((fails > 0))
