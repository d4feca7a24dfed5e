#!/usr/bin/env bash
# Objective: at a low rate (2 kpps) every receive mode, userspace and
# kernel-driven, receives every packet the sender numbered: lost = 0 and
# the received rate equals the offered one.  Each mode runs on its own test
# bed for 300 ms.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns

live all all --rate 2kpps --duration 300ms
python3 - "$TMP/all.json" <<'PY' || fail "a mode lost packets at 2 kpps"
import json, sys
rows = json.load(open(sys.argv[1]))["live"]
bad = 0
if len(rows) != 18:
    print("FAIL: expected 18 modes, got", [r["mode"] for r in rows]); bad = 1
for r in rows:
    ok = r["lost"] == 0 and r["rx_pps"] == r["offered_pps"] and r["rx_pps"] > 0
    print("%s: %s: lost %s, received %s of %s pps" % ("ok" if ok else "FAIL", r["mode"],
          r["lost"], r["rx_pps"], r["offered_pps"]))
    bad |= not ok
sys.exit(bad)
PY
assert_clean
