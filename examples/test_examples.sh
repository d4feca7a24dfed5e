#!/usr/bin/env bash
# test_examples.sh COUNTER ECHO - run the two live example programs over UDP on
# 127.0.0.1 (no privileges).  Objective: a program built only on
# include/rxlab/live.h receives every packet, counts loss and latency from
# the rxlab payload header, echoes, stops on SIGINT, and refuses bad
# arguments with status 2.
set -euo pipefail
counter=$1 echo_bin=$2
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*.out; do echo "--- $f"; cat "$f"; done; exit 1; }

# Start PROG ARGS... in the background; sets $port from its first line.
start() {
  local name=$1; shift
  "$@" >"$tmp/$name.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do
    # the background shell may not have created the file yet
    port=$(sed -n 's/^listening on 127.0.0.1:\([0-9]*\)$/\1/p' "$tmp/$name.out" 2>/dev/null || true)
    [ -n "$port" ] && return 0
    sleep 0.05
  done
  fail "$name did not start"
}

# 1. udp_counter in napi mode: 2000 packets with sequence numbers 0..1999
#    except 1000 (a gap of one); it stops by itself after 1999 (-n).
start counter timeout 30 "$counter" -p 0 -m napi -s budget=16 -s rcvbuf=4194304 -n 1999
python3 - "$port" <<'PY'
import socket, struct, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for seq in range(2000):
    if seq == 1000:
        continue
    hdr = struct.pack('<IIQQ', 0x314c5852, 0, seq, time.monotonic_ns())
    s.sendto(hdr + bytes(40), ('127.0.0.1', int(sys.argv[1])))
    if seq % 50 == 0:
        time.sleep(0.001)
PY
wait "${pids[0]}" || fail "udp_counter exit status $?"
out="$tmp/counter.out"
grep -qx 'mode napi' "$out" || fail "mode line"
grep -qx 'packets 1999' "$out" || fail "packets"
grep -qx 'lost 1' "$out" || fail "lost"
grep -qx 'seq_next 2000' "$out" || fail "seq_next"
grep -q '^latency_us p50 [0-9.]* p99 [0-9.]* p99.9 [0-9.]* max [0-9.]*$' "$out" || fail "latency line"

# 1b. SIGINT ends an idle counter cleanly, with its report.
start idle "$counter" -p 0 -m hybrid
kill -INT "${pids[1]}"
wait "${pids[1]}" || fail "udp_counter after SIGINT: exit status $?"
grep -qx 'packets 0' "$tmp/idle.out" || fail "idle report"

# 2. udp_echo in hybrid mode: 200 requests, every reply identical.
start echo "$echo_bin" -p 0 -m hybrid
python3 - "$port" <<'PY' || fail "echo replies"
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(5)
for i in range(200):
    msg = b'rxlab echo %d' % i
    s.sendto(msg, ('127.0.0.1', int(sys.argv[1])))
    data, _ = s.recvfrom(2048)
    assert data == msg, (data, msg)
PY
kill -TERM "${pids[2]}"
wait "${pids[2]}" || fail "udp_echo exit status"
grep -qx 'echoed 200' "$tmp/echo.out" || fail "echoed count"

# 3. bad arguments: status 2 and the library's message.
set +e
"$counter" -p 0 -s budget=0 >/dev/null 2>"$tmp/bad.out"; st=$?
set -e
[ "$st" -eq 2 ] || fail "bad budget: status $st"
grep -q "budget: '0' out of range (accepted: 1..1024)" "$tmp/bad.out" || fail "bad budget message"
echo "examples: counter and echo OK"
