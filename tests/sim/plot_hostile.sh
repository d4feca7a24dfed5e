#!/usr/bin/env bash
# Objective: a results file is untrusted (it may come from another host), and
# drawing it runs nothing and writes nowhere else.  Results whose text cells
# and column keys, whose file name and whose --title hold backquotes,
# $(...), quotes, backslashes, newlines, control bytes, NUL (JSON \u0000)
# and bytes that are not UTF-8 are drawn by the real gnuplot: no command
# runs (no marker file appears anywhere), every figure is drawn (a PNG and
# a well-formed SVG per script) and every script holds its texts only as
# single-quoted literals (outside them, the one parenthesis is a list of
# numbers that closes a "set xtics (...)" line).  A symbolic link, a hard link or a FIFO planted at
# a figure's name in the folder is replaced, the file it points at is left
# as it was; a link at DIR/data is refused.
set -u
rxlab="$1"
src="${2:-$(cd "$(dirname "$0")/../.." && pwd)}"
tmp="${KEEP_TMP:-$(mktemp -d)}"; [ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fails=$((fails+1)); }
images=1
if ! command -v gnuplot >/dev/null; then
  echo "skip gnuplot is not installed (scripts/deps installs gnuplot-nox): scripts checked, images not"
  images=0
fi
mkdir -p "$tmp/cwd"
cd "$tmp/cwd" || exit 1
markers() { find "$tmp" \( -name 'PWN*' -o -name X \) 2>/dev/null | head; }

sweep=(sweep livelock --set run.duration=20ms --set run.warmup=2ms
       --vary host.rxpath=classic,napi --vary traffic.rate=50kpps,200kpps)
"$rxlab" "${sweep[@]}" --format csv > "$tmp/plain.csv"
"$rxlab" "${sweep[@]}" --format json > "$tmp/plain.json"

# The hostile texts: every trick at once, per cell; absolute markers in $tmp
# and relative ones (gnuplot's working directory).  The file names hold a
# newline and a byte that is not UTF-8.
python3 - "$tmp" <<'PY'
import csv, json, os, sys
tmp = sys.argv[1]
def evil(tag):
    return ("%s`touch %s/PWN_%s_bq`$(touch %s/PWN_%s_dollar)`touch PWN_%s_rel` '\"'\"\\ \\\\"
            "\\'x\\\" ;!touch X;@x $x \udcff\udcfe\udcc3( \xff\u2028 end\\" % (tag, tmp, tag, tmp, tag, tag))
def names(tag):
    return [(tag + "-" + v).encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
            for v in ("classic", "napi")]
key = "k`touch %s/PWN_key`'\"\\\udcff" % tmp
out = os.path.join(tmp, "res-r`touch PWN_name`$(touch PWN_name2)'\"\\\n\udcff.csv")
rows = list(csv.DictReader(open(os.path.join(tmp, "plain.csv"))))
with open(out.encode("utf-8", "surrogateescape"), "w", newline="", encoding="utf-8", errors="surrogateescape") as f:
    keys = list(rows[0].keys()) + [key]
    w = csv.DictWriter(f, keys, lineterminator="\n")
    w.writeheader()
    for r in rows:
        c = r["host.rxpath"]
        r["host.rxpath"] = evil("csv_" + c)
        r["rxpath"] = evil("csvout_" + c)
        r["scenario"] = evil("scen")
        r[key] = evil("kv_" + c)
        w.writerow(r)
# JSON: line breaks, tabs, ESC, NUL (\u0000 ends the C string) in cells.
doc = json.load(open(os.path.join(tmp, "plain.json")))
for r in doc:
    c = r["host.rxpath"]
    r["host.rxpath"] = evil("json_" + c) + "\nline`touch %s/PWN_nl`\r\n\t\x1b[31m" % tmp + "\x00`touch %s/PWN_nul`" % tmp
    r["rxpath"] = "\n" + evil("jsonout_" + c)
s = json.dumps(doc, ensure_ascii=False).replace("\\udcff", "\udcff")
open(os.path.join(tmp, "res-j`touch PWN_jname`\n\udcfe.json").encode("utf-8", "surrogateescape"), "wb").write(
    s.encode("utf-8", "surrogateescape"))
PY
title=$'T`touch '"$tmp"$'/PWN_title`$(touch PWN_title2)\'"\\\n\xff;!touch X @x\\'

# Every script of DIR: strings only single-quoted, closed on their line, no
# backquote or double quote outside them; every figure a PNG and an SVG
# that is well-formed XML; the texts were drawn (the SVG shows them).
check_dir() {
  python3 - "$1" "$2" "$images" <<'PY'
import glob, os, re, sys, xml.dom.minidom
d, want, images = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
gps = sorted(glob.glob(os.path.join(glob.escape(d), "*.gp")))
assert len(gps) >= 8, gps
shown = False
for gp in gps:
    b = open(gp, "rb").read()
    i, n = 0, len(b)
    while i < n:
        c = b[i:i+1]
        if c == b"'":
            j = i + 1
            while True:
                assert j < n and b[j:j+1] != b"\n", (gp, i)
                if b[j:j+2] == b"''": j += 2; continue
                if b[j:j+1] == b"'": break
                j += 1
            lit = b[i+1:j].decode("utf-8")       # UTF-8, or this raises
            assert all(ord(ch) >= 0x20 and not 0x7f <= ord(ch) < 0xa0 for ch in lit), (gp, lit)
            i = j + 1
        elif c == b"#":
            while i < n and b[i:i+1] != b"\n": i += 1
        elif c == b"(":
            # the one parenthesis a script may hold: "set xtics (2, 5, 10)",
            # a list of numbers closing its line
            line = b[b.rfind(b"\n", 0, i) + 1:b.find(b"\n", i)]
            assert re.fullmatch(rb"set [xy]tics \([0-9.e+, -]*\)", line), (gp, line)
            i += len(line) - (i - b.rfind(b"\n", 0, i) - 1)
        else:
            assert c not in b'`"@$!;(', (gp, i, b[max(0, i-40):i+40])
            i += 1
    base = gp[:-3]
    if not images:
        shown = True
        continue
    assert open(base + ".png", "rb").read(8) == b"\x89PNG\r\n\x1a\n", base + ".png"
    svg = open(base + ".svg", "rb").read()
    xml.dom.minidom.parseString(svg)
    shown |= want.encode() in svg
assert shown, "no SVG shows " + want
print(len(gps))
PY
}

# CSV: hostile cells, keys, file name (the default title and folder), --title.
csv=("$tmp"/res-r*.csv); csv="${csv[0]}"
"$rxlab" plot "$csv" > "$tmp/o1" 2> "$tmp/e1"; rc=$?
n="$(check_dir "${csv%.csv}-figures" "touch PWN_name" 2>&1)"; crc=$?
[ "$rc" -eq 0 ] && [ "$crc" -eq 0 ] && [ -z "$(markers)" ] \
  && ok "hostile CSV cells, keys and file name: $n figures drawn, nothing ran" \
  || no "hostile CSV: exit $rc; markers: $(markers); check: $n; $(cat "$tmp/e1")"
"$rxlab" plot "$csv" --out "$tmp/t1" --title "$title" 2> "$tmp/e2"; rc=$?
n="$(check_dir "$tmp/t1" "touch $tmp/PWN_title" 2>&1)"; crc=$?
[ "$rc" -eq 0 ] && [ "$crc" -eq 0 ] && [ -z "$(markers)" ] \
  && ok "hostile --title: $n figures drawn, nothing ran" \
  || no "hostile --title: exit $rc; markers: $(markers); check: $n; $(cat "$tmp/e2")"

# JSON: line breaks, control bytes and NUL in cells.
json=("$tmp"/res-j*.json); json="${json[0]}"
"$rxlab" plot "$json" --out "$tmp/j1" 2> "$tmp/e3"; rc=$?
n="$(check_dir "$tmp/j1" "touch $tmp/PWN_json_napi_bq" 2>&1)"; crc=$?
bad_dat="$(grep -lP '[\x00-\x08\x0b-\x1f\x7f]' "$tmp/j1"/data/*.dat)"
[ "$rc" -eq 0 ] && [ "$crc" -eq 0 ] && [ -z "$(markers)" ] && [ -z "$bad_dat" ] \
  && ok "hostile JSON cells (newlines, ESC, NUL): $n figures drawn, nothing ran" \
  || no "hostile JSON: exit $rc; markers: $(markers); check: $n; control bytes in: $bad_dat; $(cat "$tmp/e3")"

# The hint to draw without gnuplot quotes the folder for the shell.
env PATH=/nonexistent RXLAB_GNUPLOT= "$rxlab" plot "$csv" --out "$tmp/a'\`touch X\`" 2> "$tmp/e4"
hint="$(grep -o "draw them with: .*" "$tmp/e4")"
(cd "$tmp" && eval "${hint#draw them with: }" >/dev/null 2>&1)
[ -z "$(markers)" ] && { [ "$images" -eq 0 ] || [ -s "$tmp/a'\`touch X\`/throughput.png" ]; } \
  && ok "no gnuplot: the hint is one shell-quoted command ($hint)" \
  || no "no gnuplot hint: $hint; markers: $(markers)"

# Links and FIFOs planted in the folder: replaced, never written through.
mkdir -p "$tmp/out" "$tmp/links/data"
for v in 1 2 3 4 5; do echo "precious $v" > "$tmp/out/victim$v"; done
ln -s "$tmp/out/victim1" "$tmp/links/throughput.gp"
ln -s "$tmp/out/victim2" "$tmp/links/throughput.png"
ln -s "$tmp/out/victim3" "$tmp/links/data/napi.dat"
ln "$tmp/out/victim4" "$tmp/links/interrupts.gp"
ln -s "$tmp/out/absent" "$tmp/links/latency.svg"
mkfifo "$tmp/links/latency.gp"
timeout 120 "$rxlab" plot "$tmp/plain.csv" --out "$tmp/links" 2> "$tmp/e5"; rc=$?
same=1
for v in 1 2 3 4 5; do [ "$(cat "$tmp/out/victim$v")" = "precious $v" ] || same=0; done
kinds="$(cd "$tmp/links" && stat -c '%F' throughput.gp throughput.png data/napi.dat interrupts.gp \
         latency.gp latency.svg | sort -u | tr '\n' ' ')"
[ "$rc" -eq 0 ] && [ "$same" -eq 1 ] && [ ! -e "$tmp/out/absent" ] && [ "$kinds" = "regular file " ] \
  && grep -q "title 'napi'" "$tmp/links/throughput.gp" && [ -z "$(ls -A "$tmp/links" | grep rxlab-plot)" ] \
  && ok "links and a FIFO in the folder replaced by the figures, their targets untouched" \
  || no "planted links: exit $rc, targets same: $same, now: $kinds; $(cat "$tmp/e5")"

mkdir -p "$tmp/dlink" "$tmp/out/d"
ln -s "$tmp/out/d" "$tmp/dlink/data"
out="$("$rxlab" plot "$tmp/plain.csv" --out "$tmp/dlink" 2>&1)"; rc=$?
[ "$rc" -eq 2 ] && [ -z "$(ls -A "$tmp/out/d")" ] && grep -q "a symbolic link there is never followed" <<<"$out" \
  && ok "DIR/data a link: refused: $out" || no "DIR/data a link: exit $rc, $out; $(ls "$tmp/out/d")"

[ "$fails" -eq 0 ]
