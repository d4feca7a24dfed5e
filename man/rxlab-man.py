#!/usr/bin/env python3
"""rxlab-man.py - the man pages, generated from the built binary (CMakeLists.txt,
target man).

  rxlab-man.py rxlab1 RXLAB HELP2MAN OUT.1
      rxlab(1): help2man reads `rxlab --help` and `rxlab --version` (the
      synopsis, the commands, the shared options and EXIT STATUS are that
      text); the include file written here adds a COMMANDS section with
      every command's own `rxlab CMD --help`, ENVIRONMENT and SEE ALSO.

  rxlab-man.py scenario5 RXLAB DOCS.md OUT.5
      rxlab-scenario(5): docs/scenarios.md turned into roff, with every key
      table replaced by the loader's schema as `rxlab scenarios --keys`
      prints it (key, default, accepted: the table scenario_load() checks
      with, so the page cannot drift from what rxlab accepts); the docs give
      each key's meaning.  A schema key with no row in the docs is printed
      as "(not described in docs/scenarios.md)", which tests/sim/man.sh
      refuses, so a new key must be documented before the page is right.

Dates: $SOURCE_DATE_EPOCH if set (reproducible builds), else today.
"""
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

UNDOC = "(not described in docs/scenarios.md)"


def run(*argv):
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout


def date():
    t = int(os.environ.get("SOURCE_DATE_EPOCH", time.time()))
    return time.strftime("%Y-%m-%d", time.gmtime(t))


def version(rxlab):
    return run(rxlab, "--version").splitlines()[0].split()[1]


# ---- roff ------------------------------------------------------------------

def esc(text):
    """Plain text as roff: backslashes and hyphens; no line may start with
    '.' or "'" (a request)."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text, flags=re.M)


def inline(md):
    """Markdown inline (code, bold, links) as roff."""
    out, pos = [], 0
    for m in re.finditer(r"`([^`]*)`|\*\*([^*]*)\*\*|\[([^\]]*)\]\([^)]*\)", md):
        out.append(esc(md[pos:m.start()]))
        if m.group(1) is not None:
            out.append("\\fB" + esc(m.group(1)) + "\\fR")
        elif m.group(2) is not None:
            out.append("\\fB" + esc(m.group(2)) + "\\fR")
        else:
            out.append(esc(m.group(3)))
        pos = m.end()
    out.append(esc(md[pos:]))
    return "".join(out)


# ---- rxlab(1) ----------------------------------------------------------------

def commands(rxlab):
    """The commands `rxlab help` lists, in its order, then version."""
    names, on = [], False
    for line in run(rxlab, "help").splitlines():
        if line == "Commands:":
            on = True
        elif on and not line:
            break
        elif on:
            m = re.match(r"^  ([a-z]+)\b", line)
            if m and m.group(1) not in names:
                names.append(m.group(1))
    return [n for n in names if n != "help"] + ["version"]


def rxlab1(rxlab, help2man, out):
    inc = ["[COMMANDS]",
           "Each command prints this text with \\fBrxlab\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR."]
    for cmd in commands(rxlab):
        inc += [".SS \"rxlab %s\"" % cmd, ".nf", esc(run(rxlab, cmd, "--help").rstrip("\n")),
                ".fi"]
    inc += ["[ENVIRONMENT]", ".TP", ".B RXLAB_GNUPLOT",
            "the gnuplot that draws the figures (default: gnuplot on \\fBPATH\\fR).",
            "[FILES]", ".TP", ".I share/bash\\-completion/completions/rxlab",
            "bash completion of commands, options, scenario, scheme and profile names and"
            " \\fB\\-\\-set\\fR keys.",
            "[SEE ALSO]",
            ".BR rxlab\\-scenario (5),",
            ".BR ethtool (8),",
            ".BR sysctl (8).",
            "The documentation of the source tree: docs/cli.md, docs/scenarios.md,"
            " docs/model.md, docs/live.md, docs/tune.md, docs/replay.md."]
    tmp = tempfile.mkdtemp()
    h2m, wrap = os.path.join(tmp, "rxlab.h2m"), os.path.join(tmp, "rxlab")
    with open(h2m, "w") as f:
        f.write("\n".join(inc) + "\n")
    # help2man runs this instead of rxlab: the same text, with "usage:" as
    # help2man finds a synopsis ("Usage:") and the paragraph "Exit status:"
    # marked as a section of its own (help2man's *Name*)
    with open(wrap, "w") as f:
        f.write("#!/bin/sh\n'%s' \"$@\" | sed 's/^usage:/Usage:/;s/^Exit status:$/*Exit status*/'\n"
                % os.path.abspath(rxlab).replace("'", "'\\''"))
    os.chmod(wrap, 0o755)
    # --version-string: the first line's version only (the git describe of
    # the second line would land at the end of the last section)
    subprocess.run([help2man, "--no-info", "--section=1", "--include=" + h2m,
                    "--version-string=" + version(rxlab),
                    "--name=simulator and live engine of a network host's receive path",
                    "--output=" + out, wrap], check=True)
    shutil.rmtree(tmp)


# ---- rxlab-scenario(5) -------------------------------------------------------

def schema(rxlab):
    """{section: [(key, default, accepted), ...]} in the schema's order."""
    keys = {}
    for r in csv.DictReader(io.StringIO(run(rxlab, "scenarios", "--keys", "--format", "csv"))):
        if r["section"] == "route":
            continue
        key = r["key"].split(".", 1)[1]
        if key.startswith("NAME."):
            key = key[5:]
        keys.setdefault(r["section"], []).append((key, r["default"], r["accepted"]))
    return keys


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def key_rows(table):
    """{key: (row index, meaning)} of a docs table (a row may name several keys)."""
    rows = {}
    for i, line in enumerate(table[2:]):
        c = cells(line)
        for k in c[0].split(","):
            rows[k.strip()] = (i, c[-1])
    return rows


def key_list(section, table, keys):
    """The schema's keys of @section as .TP entries; consecutive keys that
    share a docs row share an entry."""
    rows, out, i = key_rows(table), [], 0
    ks = keys.get(section, [])
    while i < len(ks):
        row = rows.get(ks[i][0], (None, UNDOC))
        group = [ks[i]]
        while row[0] is not None and i + len(group) < len(ks) and \
                rows.get(ks[i + len(group)][0], (None,))[0] == row[0]:
            group.append(ks[i + len(group)])
        i += len(group)
        out += [".TP", ", ".join("\\fB%s\\fR" % esc(k) for k, _, _ in group)]
        for k, d, a in group:
            what = "default \\fB%s\\fR" % esc(d) if d else "no default"
            lead = "\\fI%s\\fR: " % esc(k) if len(group) > 1 else ""
            out += [lead + what + "; accepted " + esc(a) + ".", ".br"]
        out.append(inline(row[1]))
    return out


def scenario5(rxlab, docs, out):
    keys = schema(rxlab)
    lines = open(docs).read().splitlines()
    page = ['.TH RXLAB\\-SCENARIO 5 "%s" "rxlab %s" "File Formats"' % (date(), version(rxlab)),
            ".SH NAME", "rxlab\\-scenario \\- the scenario file format of rxlab",
            ".SH SYNOPSIS", ".nf", "[host]", "\\fIkey\\fR = \\fIvalue\\fR", "[nic \\fINAME\\fR]",
            "[traffic] or [traffic \\fINAME\\fR]", "[route]", "[apps]", "[run]", ".fi",
            ".PP", "\\fBrxlab run\\fR \\fIFILE.ini\\fR \\fB\\-\\-set\\fR "
            "\\fISECTION\\fR.\\fIKEY\\fR=\\fIVALUE\\fR",
            ".SH DESCRIPTION"]
    section, para, i = None, [], 0

    def flush():
        if para:
            page.extend([".PP", inline(" ".join(para))])
            para.clear()

    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(#+) (.*)$", line)
        if m:
            flush()
            if len(m.group(1)) == 2:
                title = esc(m.group(2))
                page.append('.SH "%s"' % (title if title.startswith("[") else title.upper()))
                s = re.match(r"^\[(\w+)", m.group(2))
                section = s.group(1) if s else None
            elif len(m.group(1)) > 2:
                page.append('.SS "%s"' % esc(m.group(2)))
            i += 1
        elif line.startswith("|"):
            flush()
            table = []
            while i < len(lines) and lines[i].startswith("|"):
                table.append(lines[i])
                i += 1
            if cells(table[0])[0] == "key" and section:
                page += key_list(section, table, keys)
            else:       # another table (units): one .TP per row
                for row in table[2:]:
                    c = cells(row)
                    page += [".TP", "\\fB%s\\fR" % inline(c[0]),
                             " \\(em ".join(inline(x) for x in c[1:] if x)]
        elif line.startswith("```"):
            flush()
            i += 1
            page.append(".nf")
            while i < len(lines) and not lines[i].startswith("```"):
                page.append(esc(lines[i]))
                i += 1
            page.append(".fi")
            i += 1
        elif line.startswith("- "):
            flush()
            item = [line[2:]]
            i += 1
            while i < len(lines) and lines[i].startswith("  "):
                item.append(lines[i].strip())
                i += 1
            page += [".IP \\(bu 2", inline(" ".join(item))]
        elif not line.strip():
            flush()
            i += 1
        else:
            para.append(line.strip())
            i += 1
    flush()
    page += [".SH SEE ALSO", ".BR rxlab (1);",
             "\\fBrxlab scenarios \\-\\-keys\\fR lists the same keys, one per line."]
    with open(out, "w") as f:
        f.write("\n".join(page) + "\n")


def main(argv):
    if len(argv) == 5 and argv[1] == "rxlab1":
        rxlab1(argv[2], argv[3], argv[4])
    elif len(argv) == 5 and argv[1] == "scenario5":
        scenario5(argv[2], argv[3], argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
