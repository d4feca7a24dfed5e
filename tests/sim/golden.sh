#!/usr/bin/env bash
# Objective: the outputs of a fixed set of scenarios are byte-identical to the
# recorded ones (tests/golden/), so speed work and refactoring cannot change
# a result unnoticed.  An intended change regenerates them with
# tests/golden/update.sh and says why in its commit.
set -u
rxlab="$1"; src="$2"
dir="$src/tests/golden"
fails=0
while IFS=$'\t' read -r name args; do
  case "$name" in ''|'#'*|'@'*) continue ;; esac   # @: compared by another test
  # shellcheck disable=SC2086
  if "$rxlab" $args | cmp -s - "$dir/$name.out"; then
    echo "ok   $name"
  else
    echo "FAIL $name differs from tests/golden/$name.out:"
    # shellcheck disable=SC2086
    "$rxlab" $args | diff "$dir/$name.out" - | head -10
    fails=$((fails+1))
  fi
done < "$dir/cases.txt"
[ "$fails" -eq 0 ]
