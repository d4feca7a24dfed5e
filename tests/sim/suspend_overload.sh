#!/usr/bin/env bash
# Objective: IRQ suspension under overload does what its design says
# (Documentation/networking/napi.rst, "IRQ suspension"): once the
# application's epoll busy poll has the NAPI, it keeps it as long as
# epoll_wait returns events, so 2x, 5x and 10x the server's peak leave
# the served rate at the peak and softirq idle.  The peak is the per
# request CPU cost of rr-server on piii-933-e1000 with the application in
# control: busy-poll delivery rx-pkt 0.2 + skb-alloc 0.7 + local-deliver
# 1.2, recvmsg 1.0, sink-work 5.0, sendmsg 1.0 + fwd-pkt 1.3, TX clean
# 0.4, napi-poll 0.4 per 8-frame poll (0.05 per request) = 10.85 us, so
# 92166 replies/s.  Tolerance 1%: the window counts whole 16-request
# cycles (one cycle = 100 replies/s in 160 ms, 0.1%) and the poll
# amortisation above is per cycle, not per request (0.5%).
#
# The design also says how control is taken: only an epoll_wait that
# finds no events busy-polls (ep_busy_loop).  From a cold start at a rate
# above what softirq alone can carry, 1 / (rx-pkt + skb-alloc +
# local-deliver) = 1 / 2.1 us = 476 kpps, softirq's first NAPI poll never
# completes (every poll is full and repolled), the socket never drains,
# and the application never busy-polls: issue 16's cliff at 500 kpps.  A
# start at 2x the peak (5 ms, softirq keeps up, the application takes
# the NAPI) followed by 10x stays in control.
set -euo pipefail
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
sus=(--set apps.prefer_busy_poll=on --set nic.eth0.napi_defer_hard_irqs=100
     --set nic.eth0.gro_flush_timeout=20us --set nic.eth0.irq-suspend-timeout=20ms
     --format json)
peak=92166
# A constant-rate trace: 5 ms at 2x the peak, then RATE until 200 ms.
ramp() {
  python3 - "$1" "$2" <<'PY'
import sys
rate, out = float(sys.argv[1]), sys.argv[2]
t, rows = 0.0, []
while t < 5000.0:
    rows.append(t); t += 1e6 / (2 * 92166)
while t < 200000.0:
    rows.append(t); t += 1e6 / rate
open(out, "w").write("time_us,length\n" + "".join("%.3f,60\n" % x for x in rows))
PY
}
for x in 2 5; do
  "$rxlab" run rr-server "${sus[@]}" --set traffic.rate=$((x * peak))pps > "$tmp/cold$x.json"
done
"$rxlab" run rr-server "${sus[@]}" --set traffic.rate=$((10 * peak))pps > "$tmp/cold10.json"
ramp $((10 * peak)) "$tmp/ramp10.csv"
"$rxlab" run rr-server "${sus[@]}" --set traffic.trace="$tmp/ramp10.csv" > "$tmp/warm10.json"
python3 - "$tmp" "$peak" <<'PY'
import json, sys, os
d, peak = sys.argv[1], float(sys.argv[2])
fails = 0
def check(ok, what):
    global fails
    print(("ok   " if ok else "FAIL ") + what)
    fails += not ok
S = lambda f: json.load(open(os.path.join(d, f)))["summary"][0]
for name, what in (("cold2", "2x, cold start"), ("cold5", "5x, cold start"),
                   ("warm10", "10x after 5 ms at 2x")):
    s = S(name + ".json")
    check(abs(s["replied_pps"] - peak) <= 0.01 * peak,
          "%s: %.0f replies/s (peak %.0f +- 1%%)" % (what, s["replied_pps"], peak))
    # In control, the 20 ms suspend timer is restarted every ~174 us
    # cycle and never fires: no NAPI poll runs in softirq.
    check(s["cpu_softirq_pct"] <= 1.0,
          "%s: softirq %.1f%% of the CPU (<= 1%%)" % (what, s["cpu_softirq_pct"]))
    check(s["drop_socket"] == 0, "%s: no socket drops (%d): excess stays on the wire"
          % (what, s["drop_socket"]))
s = S("cold10.json")
check(s["replied_pps"] < 0.2 * peak and s["cpu_softirq_pct"] > 80,
      "10x, cold start above softirq's 476 kpps: softirq keeps the NAPI (%.0f replies/s, "
      "softirq %.1f%%)" % (s["replied_pps"], s["cpu_softirq_pct"]))
sys.exit(1 if fails else 0)
PY
