#!/bin/sh
# includes.sh ROOT - the layers of src/ include only downwards.
#
# The folders of src/, lowest first.  A file in one may include the
# headers of its own folder and of the folders before it, never one after
# it; include/rxlab/ (the public headers) includes only include/rxlab/.
# Prints each offending line (file:line: folder -> folder) and exits 1 if
# there is one, 0 if none, 2 on bad usage.
set -eu
[ $# -eq 1 ] || { echo "usage: includes.sh ROOT" >&2; exit 2; }
root=$1
LAYERS="core io model scheme sim live report experiment replay tune cli"

rank() {
	i=0
	for l in $LAYERS; do
		[ "$l" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo -1
}

bad=0
check_dir() { # dir folder-rank label
	for f in "$1"/*.c "$1"/*.h "$1"/*/*.c "$1"/*/*.h; do
		[ -f "$f" ] || continue
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		while IFS= read -r line; do
			n=${line%%:*}
			inc=$(printf '%s\n' "$line" | sed 's/^[^"]*"\([^"]*\)".*/\1/')
			top=${inc%%/*}
			[ "$top" = "$inc" ] && continue          # same-folder "x.h"
			[ "$top" = rxlab ] && continue           # public headers
			r=$(rank "$top")
			if [ "$2" = public ] || [ "$r" -lt 0 ] || [ "$r" -gt "$2" ]; then
				echo "$f:$n: $3 -> $top ($inc)"
			fi
		done
	done
}

out=$(
	for l in $LAYERS; do
		[ -d "$root/src/$l" ] || { echo "$root/src/$l: missing layer"; continue; }
		check_dir "$root/src/$l" "$(rank "$l")" "$l"
	done
	check_dir "$root/include/rxlab" public "include/rxlab"
	for d in "$root"/src/*/; do
		d=${d%/}; d=${d##*/}
		[ "$(rank "$d")" -ge 0 ] || echo "$root/src/$d: a folder that is not a layer (add it to LAYERS)"
	done
)
if [ -n "$out" ]; then
	printf '%s\n' "$out"
	exit 1
fi
echo "include directions: ok"
