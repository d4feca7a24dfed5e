#!/usr/bin/env bash
# run.sh RXLAB [CASE...] - the catalogue of wrong inputs (issue #8).
#
# Objective: every wrong input exits with status 2 and prints exactly the
# message in NAME.expected on stderr, nothing else; the message names the
# file:line (or the --set), the key and what is accepted.
#
# Cases, one per NAME in tests/bad/:
#   NAME.ini       run as `rxlab run PATH`; @FILE@ in NAME.expected is PATH
#   NAME.args      the arguments of rxlab, one per line; @BAD@ is this
#                  directory, @TMP@ a scratch directory holding
#                  unreadable.ini (mode 000), loop.ini (a symlink to itself)
#                  and huge.ini (a sparse 10 GiB file)
#   NAME.expected  the exact stderr
# Case "unreadable": root reads a mode-000 file anyway (CAP_DAC_OVERRIDE),
# so as root it runs with CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH dropped
# from the bounding set (setpriv); it is skipped, and says so, where that
# is not possible.
set -u
rxlab="$1"; shift
bad="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
printf '[nic eth0]\n[traffic]\nrate = 1kpps\n' > "$tmp/unreadable.ini"
chmod 000 "$tmp/unreadable.ini"
ln -s loop.ini "$tmp/loop.ini"
truncate -s 10G "$tmp/huge.ini"

drop=()
if [ "$(id -u)" -eq 0 ]; then
  drop=(setpriv --bounding-set=-dac_override,-dac_read_search)
  "${drop[@]}" true 2>/dev/null || drop=(skip)
fi

fails=0 n=0
cases=("$@")
if [ "${#cases[@]}" -eq 0 ]; then
  for f in "$bad"/*.expected; do cases+=("$(basename "$f" .expected)"); done
fi
for name in "${cases[@]}"; do
  pre=()
  if [ -f "$bad/$name.ini" ]; then
    args=(run "$bad/$name.ini")
  elif [ -f "$bad/$name.args" ]; then
    mapfile -t args < <(sed -e "s|@BAD@|$bad|g" -e "s|@TMP@|$tmp|g" "$bad/$name.args")
  else
    echo "FAIL $name: no $name.ini or $name.args"; fails=$((fails + 1)); continue
  fi
  if [ "$name" = unreadable ] && [ "${#drop[@]}" -gt 0 ]; then
    if [ "${drop[0]}" = skip ]; then
      echo "skip $name: running as root and cannot drop CAP_DAC_OVERRIDE (setpriv)"
      continue
    fi
    pre=("${drop[@]}")
  fi
  want="$(sed -e "s|@FILE@|$bad/$name.ini|g" -e "s|@BAD@|$bad|g" -e "s|@TMP@|$tmp|g" \
          "$bad/$name.expected")"
  got="$("${pre[@]}" "$rxlab" "${args[@]}" 2>&1 >/dev/null </dev/null)"; rc=$?
  n=$((n + 1))
  if [ "$rc" -eq 2 ] && [ "$got" = "$want" ]; then
    echo "ok   $name: $got"
  else
    echo "FAIL $name: exit $rc (want 2)"
    echo "     got:  $got"
    echo "     want: $want"
    fails=$((fails + 1))
  fi
done
echo "$n case(s) run, $fails failed"
[ "$fails" -eq 0 ]
