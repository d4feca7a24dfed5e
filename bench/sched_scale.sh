#!/bin/sh
# sched_scale.sh - instructions (callgrind Ir, reproducible on any machine,
# unlike wall time) of a scheduler-heavy scenario against the number of
# threads pinned on another CPU, and the exponent of the growth.  Figures
# only; nothing is asserted.
#
# Usage: bench/sched_scale.sh RXLAB [SCENARIO [HOGS...]]
#   SCENARIO  default bench/sched/hogs-elsewhere.ini
#   HOGS      apps.cpu-hogs values, default 16 64 256 1024
# Prints one line per point (hogs, total Ir) and the least-squares slope of
# log(Ir - Ir at the first point) against log(hogs): the exponent of the
# part of the cost that the extra threads add (1: linear, 0: none), and
# that added cost per thread: a run always pays a little per thread (its
# creation, its line in the report), a scheduler that scans pays it again
# at every decision.
set -eu
rxlab=$1
dir=$(dirname "$0")
scn=${2:-$dir/sched/hogs-elsewhere.ini}
[ $# -ge 2 ] && shift 2 || shift $#
hogs=${*:-16 64 256 1024}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for k in $hogs; do
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$k" "$rxlab" run "$scn" \
		--set apps.cpu-hogs="$k" >/dev/null 2>"$tmp/err.$k"
	ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/err.$k")
	echo "$k $ir"
done | awk '
	{
		k[NR] = $1; ir[NR] = $2
		printf "hogs %6d  Ir %14d", $1, $2
		if (NR > 1) printf "  added Ir per hog %10.0f", ($2 - ir[1]) / ($1 - k[1])
		printf "\n"
	}
	END {
		n = 0
		for (i = 2; i <= NR; i++)
			if (ir[i] > ir[1]) { x[++n] = log(k[i]); y[n] = log(ir[i] - ir[1]) }
		if (n < 2) { print "exponent: not reliable (no growth over the first point)"; exit }
		for (i = 1; i <= n; i++) { mx += x[i] / n; my += y[i] / n }
		for (i = 1; i <= n; i++) { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ^ 2 }
		printf "exponent of the added cost (Ir - Ir[first] ~ hogs^e): %.2f\n", sxy / sxx
	}'
