#!/usr/bin/env bash
# Objective: `rxlab schemes` lists the registry: every row `rxlab compare`
# prints is a preset of a listed scheme, every policy `rxlab tune` searches
# (its --policies error names them) is a listed scheme flagged tune, the
# CSV parses into the two tables with the same rows as the text form, and
# JSON is an object of the two.
set -u
rxlab="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

"$rxlab" schemes --format csv > "$tmp/s.csv" || fail "schemes --format csv: exit $?"
"$rxlab" schemes > "$tmp/s.txt" || fail "schemes: exit $?"
"$rxlab" schemes --format json > "$tmp/s.json" || fail "schemes --format json: exit $?"

# The CSV: "# schemes" and "# presets" sections; each row as many fields as
# its header; "scheme,applies" rows for every scheme.
python3 - "$tmp/s.csv" "$tmp/s.json" > "$tmp/parsed" <<'PY' || fail "csv/json do not parse"
import csv, json, sys
sections, cur = {}, None
for line in open(sys.argv[1]).read().split("\n"):
    if line.startswith("# "):
        cur = sections.setdefault(line[2:], [])
    elif line and cur is not None:
        cur.append(line)
assert list(sections) == ["schemes", "presets"], list(sections)
tables = {}
for name, lines in sections.items():
    rows = list(csv.reader(lines))
    head, body = rows[0], rows[1:]
    assert all(len(r) == len(head) for r in body), name
    tables[name] = [dict(zip(head, r)) for r in body]
j = json.load(open(sys.argv[2]))
assert [r["scheme"] for r in j["schemes"]] == [r["scheme"] for r in tables["schemes"]]
for r in tables["schemes"]:
    print("scheme", r["scheme"], r["applies"], r["needs_sink"])
for r in tables["presets"]:
    print("preset", r["preset"], r["scheme"])
PY
n_csv=$(grep -c '^scheme ' "$tmp/parsed")
[ "$n_csv" -ge 10 ] && ok "csv: $n_csv schemes, rows as wide as their headers; json has the same" \
  || fail "csv: $n_csv schemes"

# compare's rows, in compare's order, are the presets, each of a listed
# scheme that says it applies to compare.
rows="$("$rxlab" compare --vary traffic.rate=10kpps --set run.warmup=5ms --set run.duration=20ms --format csv \
        | awk -F, 'NR > 1 {print $1}')"
presets="$(awk '$1 == "preset" {print $2}' "$tmp/parsed")"
[ -n "$rows" ] && [ "$rows" = "$presets" ] && ok "compare's rows are the presets, in order" \
  || fail "compare rows '$(echo $rows)' vs presets '$(echo $presets)'"
while read -r _ p sc; do
  grep -q "^scheme $sc [^ ]*compare" "$tmp/parsed" || fail "preset $p: scheme $sc not listed for compare"
done < <(grep '^preset ' "$tmp/parsed")

# tune's policies (as its --policies error lists them) are the schemes
# flagged tune, in the same order.
msg="$("$rxlab" tune udp-sink --goal 'p99<=50us' --policies nope 2>&1)"
pols="$(echo "$msg" | sed -n 's/.*the policies are //p' | sed 's/ and /, /; s/, /\n/g')"
tuned="$(awk '$1 == "scheme" && $3 ~ /tune/ {print $2}' "$tmp/parsed")"
[ -n "$pols" ] && [ "$pols" = "$tuned" ] && ok "tune's policies are the schemes flagged tune: $(echo $tuned)" \
  || fail "tune policies '$(echo $pols)' vs schemes flagged tune '$(echo $tuned)'"
grep -q '^scheme suspend .* true$' "$tmp/parsed" && grep -q '^scheme busy-poll .* true$' "$tmp/parsed" \
  && ok "suspend and busy-poll need a receiving socket" || fail "needs_sink of suspend / busy-poll"

# The text form lists the same schemes and says what suspend sets.
for s in $(awk '$1 == "scheme" {print $2}' "$tmp/parsed"); do
  grep -q "^$s " "$tmp/s.txt" || fail "text form lacks $s"
done
grep '^suspend ' "$tmp/s.txt" | grep -q 'apps.busy_poll=0' \
  && ok "text: every scheme; suspend sets apps.busy_poll=0" || fail "text: suspend's sets"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
