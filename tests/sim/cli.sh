#!/usr/bin/env bash
# Objective: one option parser for every command (src/cli/opts.h, issue #15).
#   - `--opt=value` gives the same output as `--opt value` (run, sweep,
#     replay, merge);
#   - `rxlab CMD --help` and `rxlab CMD -h` print CMD's usage on stdout and
#     exit 0, for every command of the table (the list is taken from the
#     "unknown command" message, which main.c derives from the table), and
#     `rxlab help CMD` names it;
#   - a wrong word keeps its message and status 2: an unknown option, an
#     abbreviation (getopt_long would take --sho for --show-coalesce), a
#     flag given a value, a missing value; getopt_long's own messages never
#     appear;
#   - `--` ends the options: what follows is an argument even if it starts
#     with '-'.
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fails=$((fails + 1)); }
rx() { timeout 60 "$rxlab" "$@"; }

# same_out NAME ARGS1... -- ARGS2...: both print the same bytes, exit 0
same_out() {
  local name="$1" a=() b=(); shift
  while [ "$1" != -- ]; do a+=("$1"); shift; done; shift
  b=("$@")
  if rx "${a[@]}" > "$tmp/a" 2>&1 && rx "${b[@]}" > "$tmp/b" 2>&1 && [ -s "$tmp/a" ] &&
     cmp -s "$tmp/a" "$tmp/b"; then
    ok "$name: --opt=value as --opt value"
  else
    no "$name: '${a[*]}' and '${b[*]}' differ or fail"
  fi
}

short=(run.duration=20ms run.warmup=2ms)
same_out run run livelock --set "${short[0]}" --set "${short[1]}" --format csv --seed 3 -- \
  run livelock --set="${short[0]}" --set="${short[1]}" --format=csv --seed=3
same_out sweep sweep livelock --set "${short[0]}" --set "${short[1]}" \
    --vary traffic.rate=50kpps,100kpps --format csv --jobs 2 -- \
  sweep livelock --set="${short[0]}" --set="${short[1]}" \
    --vary=traffic.rate=50kpps,100kpps --format=csv --jobs=2
printf 'time_ns,work\n0,64\n1000,10\n5000,64\n9000,3\n' > "$tmp/polls.csv"
same_out replay replay defer --napi-defer-hard-irqs 2 --gro-flush-timeout 20us \
    --format csv "$tmp/polls.csv" -- \
  replay defer --napi-defer-hard-irqs=2 --gro-flush-timeout=20us --format=csv "$tmp/polls.csv"
sw=(sweep livelock --set "${short[0]}" --set "${short[1]}" --vary traffic.rate=50kpps,100kpps
    --format csv)
rx "${sw[@]}" --shard 1/2 > "$tmp/s1.csv" 2>/dev/null
rx "${sw[@]}" --shard 2/2 > "$tmp/s2.csv" 2>/dev/null
rx merge "$tmp/s1.csv" "$tmp/s2.csv" --out "$tmp/m1.csv" &&
  rx merge --out="$tmp/m2.csv" "$tmp/s1.csv" "$tmp/s2.csv" && cmp -s "$tmp/m1.csv" "$tmp/m2.csv" &&
  [ -s "$tmp/m1.csv" ] && ok "merge: --out=FILE as --out FILE" || no "merge: --out=FILE"

# Every command of the table: --help and -h exit 0 with its usage.
list="$("$rxlab" no-such-command 2>&1 | sed -n "s/.*the commands are //p")"
cmds="$(echo "$list" | sed 's/,//g; s/ and / /')"
[ "$(echo "$cmds" | wc -w)" -ge 12 ] && ok "the table has $(echo "$cmds" | wc -w) commands" ||
  no "commands from the table: '$list'"
for c in $cmds; do
  for h in --help -h; do
    out="$(rx "$c" "$h" 2>"$tmp/err")"; rc=$?
    if [ "$rc" -eq 0 ] && [[ "$out" == *"usage: rxlab"* ]] && [ ! -s "$tmp/err" ]; then
      ok "$c $h: usage, exit 0"
    else
      no "$c $h: exit $rc, stdout '${out:0:60}', stderr '$(head -c 120 "$tmp/err")'"
    fi
  done
  rx help "$c" | head -n 1 | grep -q "^rxlab $c: " && ok "help $c" || no "help $c: no summary line"
done
# --help after other options (and in the middle of a command line) too
rx sweep livelock --vary traffic.rate=1kpps --help | grep -q "usage: rxlab sweep" &&
  ok "sweep ... --help" || no "sweep ... --help"

# err_is NAME WANT ARGS...: exit 2 and stderr exactly WANT
err_is() {
  local name="$1" want="$2"; shift 2
  got="$(rx "$@" 2>&1 >/dev/null)"; rc=$?
  if [ "$rc" -eq 2 ] && [ "$got" = "$want" ]; then
    ok "$name"
  else
    no "$name: exit $rc, got '$got', want '$want'"
  fi
}
hint="try 'rxlab help'"
err_is "unknown option" "rxlab: unknown option --bogus"$'\n'"$hint" run livelock --bogus
err_is "abbreviation refused" "rxlab: unknown option --sho"$'\n'"$hint" run livelock --sho
err_is "abbreviation with a value refused" "rxlab: unknown option --se"$'\n'"$hint" run --se x
err_is "flag given a value" "rxlab: unknown option --no-plot=1"$'\n'"$hint" --no-plot=1
err_is "missing value" "rxlab: missing value after --set"$'\n'"$hint" run livelock --set
err_is "single dash" "rxlab: unknown option -xh"$'\n'"$hint" run -xh
err_is "tune: unknown last word" "rxlab: tune: missing value after --zz"$'\n'"$hint" tune x --zz
err_is "replay: unknown option" \
  "rxlab: unknown option --rx-usecs for 'replay dim' (see docs/replay.md)
usage: rxlab replay dim|itr|adaptive|coalesce|defer [OPTIONS] FILE.csv|-
       rxlab replay coalesce [OPTIONS] CAPTURE.pcap (or --pcap FILE|-)
see docs/replay.md" replay dim --rx-usecs 5 -
err_is "merge: unknown option" "rxlab merge: unknown option '--x'
usage: rxlab merge SHARD... [--out FILE]
  SHARD  the outputs of rxlab sweep ... --shard K/N --format csv|json, one per K
  --out  write FILE (atomically) instead of stdout" merge --x
err_is "live calibrate" "rxlab live calibrate: unknown or incomplete option '--out' (accepted: --out FILE, --duration D, --repeat N, --iface IFACE, --sender-ns NAME, --allow-host-iface)" \
  live calibrate --out

# getopt_long's own words never reach stderr
for args in "run --bogus" "run --set" "run --sh x" "tune x --goal" "replay dim --weight" \
            "plot --out" "live --rate" "merge --out=x --no" "run --no-plot=1"; do
  # shellcheck disable=SC2086
  if rx $args 2>&1 >/dev/null | grep -qE "unrecognized option|requires an argument|is ambiguous|doesn't allow"; then
    no "getopt_long's message leaked for '$args'"
  fi
done
ok "no getopt_long message on stderr"

# -- : the rest are arguments ("-weird" is a scenario name, not an option)
got="$(rx run -- -weird 2>&1 >/dev/null)"; rc=$?
[ "$rc" -eq 2 ] && [[ "$got" != *"unknown option"* ]] && [[ "$got" == *"-weird"* ]] &&
  ok "-- ends the options" || no "-- ends the options: exit $rc, '$got'"

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
