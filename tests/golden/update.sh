#!/usr/bin/env bash
# update.sh RXLAB - regenerate every golden output from tests/golden/cases.txt.
set -euo pipefail
rxlab="$1"
dir="$(cd "$(dirname "$0")" && pwd)"
grep -v '^#' "$dir/cases.txt" | while IFS=$'\t' read -r name args; do
  [ -n "$name" ] || continue
  name="${name#@}"
  # shellcheck disable=SC2086
  "$rxlab" $args > "$dir/$name.out"
  echo "wrote $name.out"
done
