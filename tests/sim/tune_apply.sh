#!/usr/bin/env bash
# Objective: nothing a user names reaches the commands of `rxlab tune` as
# shell code.  A trace whose file name holds a newline and a command
# leaves apply.sh's comment as '?' and adds no line to it; apply.sh parses
# (sh -n) and holds only its fixed commands (set -e, ethtool, echo > sysfs)
# besides comments.  apply.sh is never run: it would change this host.
# tune.gp is run by gnuplot (when installed): a trace name and a goal
# that try to leave a gnuplot string ('.system(...).') run nothing.
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

name=$'a\ntouch PWNED\n.csv'
printf 'time_us,length\n0,60\n500,60\n' > "$tmp/$name"
"$rxlab" tune "$tmp/$name" --goal 'p99<=10us' --policies dim,defer --jobs 1 --out "$tmp/out" \
	>/dev/null 2>"$tmp/err" || fail "tune exit $?: $(cat "$tmp/err")"
apply="$tmp/out/apply.sh"
sh -n "$apply" && ok "apply.sh parses" || fail "apply.sh does not parse"
grep -q '^touch' "$apply" && fail "a line of the file name became a command: $(grep -n '^touch' "$apply")" \
	|| ok "the file name stays in its comment ($(sed -n 2p "$apply"))"
other="$(grep -v -E '^(#|set -e$|ethtool -C eth0 |echo [0-9]+ > /sys/class/net/eth0/[a-z_]+$)' "$apply")"
[ -z "$other" ] && ok "apply.sh holds only set -e, ethtool -C and echo > sysfs lines besides comments" \
	|| fail "unexpected lines in apply.sh: $other"

gp="x'.system('touch GP1').'\`touch GP2\`.csv"
printf 'time_us,length\n0,60\n500,60\n' > "$tmp/$gp"
mkdir "$tmp/run"
if (cd "$tmp/run" && "$rxlab" tune "../$gp" --goal 'p99<=10us' --policies dim --jobs 1 \
	--out "$tmp/gp" >/dev/null 2>"$tmp/err"); then
	if command -v gnuplot >/dev/null; then
		(cd "$tmp/gp" && gnuplot tune.gp) 2>"$tmp/gperr" || fail "gnuplot tune.gp: $(cat "$tmp/gperr")"
		[ -s "$tmp/gp/tune.png" ] && ok "tune.gp draws tune.png" || fail "no tune.png"
	fi
	grep -q '"' "$tmp/gp/tune.gp" && fail "tune.gp holds a double-quoted string" \
		|| ok "tune.gp holds no double-quoted string"
	found="$(find "$tmp" -name 'GP[12]')"
	[ -z "$found" ] && ok "a trace name that leaves its gnuplot string runs nothing" \
		|| fail "gnuplot ran a command from the trace name: $found"
else
	fail "tune exit: $(cat "$tmp/err")"
fi
[ "$fails" -eq 0 ]
