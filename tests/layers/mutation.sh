#!/bin/sh
# mutation.sh INCLUDES_SH ROOT - the include-direction check must fail on a
# copy of the tree where src/sim includes src/experiment, or where a public
# header includes src/, and pass on the unchanged copy.
set -eu
check=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copy() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t"
	cp -R "$root/src" "$root/include" "$tmp/t/"
}
copy
sh "$check" "$tmp/t" >/dev/null || { echo "FAIL: the unchanged tree fails"; exit 1; }
f=$(ls "$tmp"/t/src/sim/*.c | head -n 1)
printf '#include "experiment/sweep.h"\n' >>"$f"
if out=$(sh "$check" "$tmp/t"); then
	echo "FAIL: src/sim including experiment/sweep.h passed"; exit 1
fi
case $out in *"sim -> experiment"*) ;; *) echo "FAIL: not named: $out"; exit 1 ;; esac
copy
printf '#include "sim/results.h"\n' >>"$tmp/t/include/rxlab/napi.h"
if sh "$check" "$tmp/t" >/dev/null; then
	echo "FAIL: a public header including sim/results.h passed"; exit 1
fi
copy
mkdir "$tmp/t/src/misc"
if sh "$check" "$tmp/t" >/dev/null; then
	echo "FAIL: a folder that is not a layer passed"; exit 1
fi
echo "include-direction check: fails on each planted edge"
