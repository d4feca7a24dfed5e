# csv_tables.sh - sourced by tests/sim scripts that read the tables of an
# rxlab `--format csv` output (tune_placement.sh, tune_perqueue.sh).

# rows FILE NAME: the rows of table NAME of FILE as "col=val|col=val"
# lines, for grep (python3's csv: values such as CPU lists hold commas).
rows() {
  python3 - "$1" "$2" <<'PY'
import csv, sys
text = open(sys.argv[1]).read().split("\n# ")
for block in text:
    name, _, body = block.lstrip("# ").partition("\n")
    if name.strip() != sys.argv[2]:
        continue
    for r in csv.DictReader(body.splitlines()):
        print("|".join(k + "=" + v for k, v in r.items()))
PY
}

# field COL: the value of column COL of the row on stdin.
field() { tr '|' '\n' | sed -n "s/^$1=//p"; }
