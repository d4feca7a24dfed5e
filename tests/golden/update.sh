#!/usr/bin/env bash
# update.sh RXLAB - regenerate every golden output from tests/golden/cases.txt.
set -euo pipefail
rxlab="$1"
dir="$(cd "$(dirname "$0")" && pwd)"
grep -v '^#' "$dir/cases.txt" | while IFS=$'\t' read -r name args; do
  [ -n "$name" ] || continue
  name="${name#@}"
  # exit 1 is a check that failed (validate's figures out of tolerance),
  # which the golden output records; 2 is an error
  # shellcheck disable=SC2086
  rc=0; "$rxlab" $args > "$dir/$name.out" || rc=$?
  [ "$rc" -le 1 ] || { echo "$name: rxlab exited $rc" >&2; exit 1; }
  echo "wrote $name.out"
done
