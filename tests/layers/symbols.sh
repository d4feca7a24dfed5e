#!/bin/sh
# symbols.sh LAYER=LIB.a ... - no library calls a layer above it.
#
# The arguments name each layer's static library, lowest first (the order
# of tests/layers/includes.sh).  For every symbol a library uses but does
# not define, the library that defines it must be its own or a lower one:
# a call up the layers (or a cycle between two folders) prints
# "LIB: SYMBOL -> LAYER" and exits 1.  Symbols no listed library defines
# (libc, libpcap, ...) are not ours and are skipped.  0 when clean, 2 on
# bad usage.
set -eu
[ $# -ge 2 ] || { echo "usage: symbols.sh LAYER=LIB.a ..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
NM=${NM:-nm}

i=0
for arg in "$@"; do
	layer=${arg%%=*} lib=${arg#*=}
	[ -f "$lib" ] || { echo "symbols.sh: $lib: no such library" >&2; exit 2; }
	"$NM" -g --defined-only "$lib" 2>/dev/null | awk -v r=$i -v l="$layer" \
		'NF >= 3 && $2 ~ /^[TDBRVWC]$/ { print $3, r, l }' >>"$tmp/defs"
	"$NM" -u "$lib" 2>/dev/null | awk -v r=$i -v l="$layer" \
		'NF >= 2 && $1 == "U" { print $2, r, l }' >>"$tmp/uses"
	i=$((i + 1))
done
out=$(awk 'NR == FNR { if (!($1 in rank) || $2 < rank[$1]) { rank[$1] = $2; name[$1] = $3 }; next }
	   ($1 in rank) && rank[$1] > $2 { print $3 ": " $1 " -> " name[$1] }' \
	"$tmp/defs" "$tmp/uses" | LC_ALL=C sort -u)
if [ -n "$out" ]; then
	printf '%s\n' "$out"
	exit 1
fi
echo "calls between layers: downwards only ($i libraries)"
