#!/usr/bin/env bash
# Objective: `rxlab validate` runs every built-in seed experiment, prints
# each reported figure beside the simulated one with the keys seed, id,
# class, figure, reported, simulated, ratio, ok, fitted_param, derived_from,
# the model's claims in a table of their own, a score per class that counts
# the rows, and exits 0 only when every scored figure agrees; every
# figure agrees except those listed, with a reason in docs/seeds.md, in
# tests/sim/validate-known.txt; every seed scenario listed by `rxlab seeds`
# loads and runs.  Its JSON is byte-identical to tests/golden/validate.out
# (the golden case @validate is compared here, not in sim/golden), and
# the same with its runs on one thread as on three (seed 002's seven runs).
set -euo pipefail
rxlab="$1"
out="$(mktemp)"; trap 'rm -f "$out"' EXIT
status=0
"$rxlab" validate --format json > "$out" || status=$?
if cmp -s "$out" "$2/tests/golden/validate.out"; then
  echo "ok   validate --format json is byte-identical to tests/golden/validate.out"
else
  echo "FAIL validate --format json differs from tests/golden/validate.out:"
  diff "$2/tests/golden/validate.out" "$out" | head -10
  exit 1
fi
python3 - "$out" "$status" "$2/tests/sim/validate-known.txt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1])); status = int(sys.argv[2])
assert set(doc) == {"validate", "claims", "score", "by_seed"}, doc.keys()
known = set()
for line in open(sys.argv[3]):
    if line.strip() and not line.startswith("#"):
        known.add(line.split("\t")[0].strip())
rows = doc["validate"] + doc["claims"]
assert rows, "no figures"
keys = {"seed", "id", "class", "figure", "reported", "simulated", "ratio", "ok", "fitted_param",
        "derived_from"}
classes = {"fitted", "predicted", "derived", "qualitative", "claim"}
bad = 0
count = {c: [0, 0] for c in classes}
for r in rows:
    assert set(r) == keys, r.keys()
    assert r["class"] in classes, r["class"]
    # the claims table holds exactly the claims
    assert (r["class"] == "claim") == (r in doc["claims"]), r["id"]
    # a fitted figure names its parameter as FILE: KEYS, a derived one its basis
    assert (r["fitted_param"] is not None) == (r["class"] == "fitted"), r["id"]
    assert r["fitted_param"] is None or ": " in r["fitted_param"], r["id"]
    assert (r["derived_from"] is not None) == (r["class"] == "derived"), r["id"]
    count[r["class"]][0] += 1
    count[r["class"]][1] += r["ok"]
    if r["id"] in known:
        tag = "known" if not r["ok"] else "AGREES NOW (remove from validate-known.txt)"
        bad += r["ok"]
        known.discard(r["id"])
    else:
        tag = "ok" if r["ok"] else "FAIL"
        bad += not r["ok"]
    print("%-5s %s %s [%s]: reported %g, simulated %g" % (tag, r["id"], r["figure"], r["class"],
                                                         r["reported"], r["simulated"]))
for k in known:
    print("FAIL listed in validate-known.txt but not printed: %s" % k); bad += 1
# the score table counts what the rows say, and the exit status follows the
# scored classes only
score = {s["class"]: s for s in doc["score"]}
for c in classes:
    assert score[c]["figures"] == count[c][0] and score[c]["within"] == count[c][1], c
    assert score[c]["scored"] == (c in ("fitted", "predicted", "qualitative")), c
# the per-seed table adds up to the rows of each seed
for b in doc["by_seed"]:
    mine = [r for r in rows if r["seed"] == b["seed"]]
    for c, k in (("fitted", "fitted"), ("predicted", "predicted"), ("qualitative", "qualitative"),
                 ("derived", "derived"), ("claim", "claims")):
        assert b[k] == sum(r["class"] == c for r in mine), (b["seed"], c)
    assert b["predicted_ok"] == sum(r["class"] == "predicted" and r["ok"] for r in mine), b["seed"]
    keys = set()
    for r in mine:
        if r["class"] == "fitted":
            f, ks = r["fitted_param"].split(": ", 1)
            keys |= {f + ": " + k.strip() for k in ks.split(",")}
    assert b["fitted_params"] == len(keys), (b["seed"], keys)
assert sorted(b["seed"] for b in doc["by_seed"]) == sorted({r["seed"] for r in rows})
all_ok = all(r["ok"] for r in rows if r["class"] in ("fitted", "predicted", "qualitative"))
assert (status == 0) == all_ok, "exit status %d does not match the figures" % status
sys.exit(1 if bad else 0)
PY
"$rxlab" seeds | while read -r name _; do
  "$rxlab" run "$name" --set run.duration=20ms --set run.warmup=0 --format csv > /dev/null || { echo "FAIL $name does not run"; exit 1; }
  echo "ok   $name runs"
done
# --jobs: the runs on one thread or on three, the same bytes
"$rxlab" validate 002 --jobs 1 --format json > "$out.1" || true
"$rxlab" validate 002 --jobs 3 --format json > "$out.3" || true
if [ -s "$out.1" ] && cmp -s "$out.1" "$out.3"; then
  echo "ok   validate 002 --jobs 1 and --jobs 3: the same bytes"
else
  echo "FAIL validate 002 --jobs 1 and --jobs 3 differ (or are empty)"; exit 1
fi
rm -f "$out.1" "$out.3"
# A seed that does not exist is an error, not an empty success.
if "$rxlab" validate 999 > /dev/null 2>&1; then echo "FAIL validate 999 succeeded"; exit 1; fi
echo "ok   validate 999 fails"
