#!/usr/bin/env bash
# Objective: `--queues 2` builds a two-queue veth test bed: every packet
# the sender sends is received (lossless at 20 kpps), both queues receive
# a share, each queue's thread is served by its own NAPI (two different
# ids) and the NAPI its socket last saw (SO_INCOMING_NAPI_ID) is the one
# its probe came through: the reuseport steering gives each thread
# exactly its queue.  Counts only; nothing timed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "two queues need two CPUs"

live q napi --queues 2 --rate 20kpps --duration 500ms
off=$(get q live napi offered_pps)
rx=$(get q live napi rx_pps)
check "$rx == $off" "all $off pps received ($rx)"
rows=$(python3 - "$TMP/q.json" <<'PY'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["live_queues"] if r["mode"] == "napi"]
print(len(rows))
for r in rows:
    print(r["queue"], r["rx_pps"], r["napi_id"], r["incoming_napi_id"])
PY
)
echo "$rows"
set -- $rows
check "$1 == 2" "two queue rows"
check "$3 > 0 and $7 > 0" "both queues received packets ($3, $7 pps)"
check "$3 + $7 == $rx" "the queues add up to the total"
check "$4 != $8 and $4 > 0 and $8 > 0" "two NAPI ids ($4, $8)"
check "$4 == $5 and $8 == $9" "each thread's SO_INCOMING_NAPI_ID is its queue's NAPI"
assert_clean
