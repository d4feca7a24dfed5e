#!/usr/bin/env bash
# Objective: `rxlab validate` runs every built-in seed experiment, prints
# each reported figure beside the simulated one with the keys seed, figure,
# reported, simulated, ratio, ok, and exits 0 only when all agree; every
# seed scenario listed by `rxlab seeds` loads and runs.
set -euo pipefail
rxlab="$1"
out="$(mktemp)"; trap 'rm -f "$out"' EXIT
status=0
"$rxlab" validate --format json > "$out" || status=$?
python3 - "$out" "$status" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1])); status = int(sys.argv[2])
assert rows, "no figures"
for r in rows:
    assert set(r) == {"seed", "figure", "reported", "simulated", "ratio", "ok"}, r.keys()
    print(("ok   " if r["ok"] else "FAIL ") + "%s %s: reported %g, simulated %g" % (r["seed"], r["figure"], r["reported"], r["simulated"]))
all_ok = all(r["ok"] for r in rows)
assert (status == 0) == all_ok, "exit status %d does not match the figures" % status
sys.exit(0 if all_ok else 1)
PY
"$rxlab" seeds | while read -r name _; do
  "$rxlab" run "$name" --set run.duration=20ms --set run.warmup=0 --format csv > /dev/null || { echo "FAIL $name does not run"; exit 1; }
  echo "ok   $name runs"
done
# A seed that does not exist is an error, not an empty success.
if "$rxlab" validate 999 > /dev/null 2>&1; then echo "FAIL validate 999 succeeded"; exit 1; fi
echo "ok   validate 999 fails"
