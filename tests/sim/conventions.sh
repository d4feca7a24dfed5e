#!/usr/bin/env bash
# Objective: the conventions of the field (issue #19), command by command.
#   - `rxlab CMD --help` and `rxlab CMD --version` exit 0 with text on
#     stdout and nothing on stderr, for every command `rxlab help` lists,
#     help, version, `live calibrate` and each `replay KIND`; --version and
#     `rxlab version` print "rxlab VERSION" with CMakeLists.txt's
#     project(VERSION);
#   - every option that takes a value gives the same result as --opt=VALUE
#     and as --opt VALUE (the same status and message; an unknown option
#     after it stops every command before it runs), and a flag refuses
#     =VALUE;
#   - exit statuses: 2 for usage errors (unknown command, help NOSUCH, an
#     argument where none is taken, a missing scenario);
#   - ethtool's spellings: adaptive-rx = on is dim, every on/off key of the
#     schema takes on and off, kern.polling.idle_poll takes on/off, live
#     --set dev.gro/dev.tso/dev.threaded take on/off;
#   - the generated man pages render with man -l, without warnings; rxlab(1)
#     has EXIT STATUS and every command, rxlab-scenario(5) every schema key
#     with a meaning from docs/scenarios.md.
set -u
rxlab="$1" src="$2"
build="$(cd "$(dirname "$rxlab")" && pwd)"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fails=$((fails + 1)); }
rx() { timeout 60 "$rxlab" "$@" < /dev/null; }

# ---- --help and --version ------------------------------------------------------
version="$(sed -n 's/^project(rxlab VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")"
[ -n "$version" ] || no "no project(rxlab VERSION ...) in CMakeLists.txt"
cmds="$(rx help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z]*\)\b.*/\1/p' | sort -u)"
[ "$(echo "$cmds" | wc -w)" -ge 13 ] || no "rxlab help lists only: $cmds"
words=()
for c in $cmds help version; do words+=("$c"); done
words+=("live calibrate" "replay dim" "replay itr" "replay adaptive" "replay coalesce"
        "replay defer")
for w in "${words[@]}"; do
  read -ra argv <<< "$w"
  for o in --help --version; do
    rx "${argv[@]}" "$o" > "$tmp/out" 2> "$tmp/err"; rc=$?
    if [ "$rc" -eq 0 ] && [ -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; then
      ok "rxlab $w $o"
    else
      no "rxlab $w $o: status $rc, stdout $(wc -c < "$tmp/out") bytes, stderr: $(head -2 "$tmp/err")"
    fi
  done
  [ "$(head -1 "$tmp/out")" = "rxlab $version" ] || no "rxlab $w --version: $(head -1 "$tmp/out")"
done
rx --version > "$tmp/v1"; rx version > "$tmp/v2"
[ "$(head -1 "$tmp/v1")" = "rxlab $version" ] && cmp -s "$tmp/v1" "$tmp/v2" &&
  ok "rxlab --version = rxlab version = rxlab $version" || no "--version: $(cat "$tmp/v1")"
rx replay --version | head -1 | grep -qx "rxlab $version" && ok "rxlab replay --version" ||
  no "rxlab replay --version"

# ---- --opt=VALUE as --opt VALUE --------------------------------------------------
# The flags (no value); every other --word of a command's --help takes one.
flags=" --help --version --progress --no-progress --no-plot --show-coalesce --keys "
flags+="--allow-host-iface --no-threaded --compare-sim --pcap --verify "
# same CMD... OPT: `CMD OPT=@@ --no-such-option` and `CMD OPT @@ --no-such-option`
same() {
  local opt="${*: -1}" n=$(($# - 1)) a b ra rb
  local cmd=("${@:1:$n}")
  a="$(rx "${cmd[@]}" "$opt=@@x" --no-such-option 2>&1 >/dev/null)"; ra=$?
  b="$(rx "${cmd[@]}" "$opt" @@x --no-such-option 2>&1 >/dev/null)"; rb=$?
  # a help text also names other commands' options (rxlab --help names
  # tune's --goal): those are unknown to CMD in both forms, not checked
  if [[ $b == *"option $opt"$'\n'* || $b == *"option $opt "* || $b == *"option '$opt'"* ||
        $b == *"argument '$opt'"* ]]; then
    return
  fi
  if [[ $flags == *" $opt "* ]]; then
    [ "$ra" -eq 2 ] && [[ $a == *"$opt=@@x"* ]] && nf=$((nf + 1)) ||
      no "${cmd[*]} $opt=@@x: a flag given a value: status $ra, $a"
  elif [ "$ra" -eq "$rb" ] && [ "$ra" -eq 2 ] && [ "$a" = "$b" ]; then
    nv=$((nv + 1))
  else
    no "${cmd[*]} $opt=@@x (status $ra: $a) differs from $opt @@x (status $rb: $b)"
  fi
}
nv=0 nf=0
for c in $cmds; do
  [ "$c" = replay ] && continue
  for o in $(rx "$c" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do same "$c" "$o"; done
done
for o in --out --duration; do same live calibrate "$o"; done
for o in $(rx --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
  case "$o" in --keys|--shard|--resume|--out|--checkpoint|--progress|--no-progress|--show-coalesce)
    continue;; esac   # not the default job's
  same "$o"
done
# replay: each kind with its own options (the lines of replay --help)
rx replay --help | awk '/^  all/{k="all"} /^  [a-z]+ +--/{k=$1} /^ +--|^  [a-z]+ +--/{print k, $0}' |
  while read -r kind rest; do
    for o in $(echo "$rest" | grep -oE -- '--[a-z][a-z0-9-]*'); do echo "$kind $o"; done
  done > "$tmp/replay-opts"
while read -r kind o; do
  if [ "$kind" = all ]; then
    for k in dim itr adaptive coalesce defer; do same replay "$k" "$o"; done
  else
    same replay "$kind" "$o"
  fi
done < "$tmp/replay-opts"
[ "$nv" -ge 60 ] && [ "$nf" -ge 8 ] &&
  ok "$nv value options: --opt=VALUE as --opt VALUE; $nf flags refuse =VALUE" ||
  no "only $nv value options and $nf flags checked"

# ---- exit statuses -------------------------------------------------------------------
status() {
  local want="$1" name="$2"; shift 2
  rx "$@" > /dev/null 2>&1; local rc=$?
  [ "$rc" -eq "$want" ] && ok "exit $want: $name" || no "$name: exit $rc, want $want"
}
status 2 "unknown command" no-such-command
status 2 "help NOSUCH" help no-such-command
status 2 "scenarios ARG" scenarios extra
status 2 "version ARG" version extra
status 2 "run without a scenario" run
status 2 "a scenario that does not exist" run no-such-scenario
status 2 "--keys outside scenarios" run livelock --keys
status 0 "help CMD" help run
status 0 "scenarios --keys" scenarios --keys

# ---- ethtool's spellings ----------------------------------------------------------------
short=(--set run.duration=20ms --set run.warmup=2ms --format csv)
rx run livelock "${short[@]}" --set nic.eth0.adaptive-rx=on > "$tmp/on" 2>&1
rx run livelock "${short[@]}" --set nic.eth0.adaptive-rx=dim > "$tmp/dim" 2>&1
rx run livelock "${short[@]}" --set nic.eth0.adaptive-rx=off > "$tmp/off" 2>&1
cmp -s "$tmp/on" "$tmp/dim" && ! cmp -s "$tmp/on" "$tmp/off" &&
  ok "adaptive-rx = on runs as dim (and not as off)" || no "adaptive-rx = on is not dim"
err="$(rx run livelock --set nic.eth0.adaptive-rx=yes 2>&1)"
[ "$err" = "rxlab: --set nic.eth0.adaptive-rx=yes: adaptive-rx = yes: accepted off, dim, pkt-rate" ] &&
  ok "adaptive-rx = yes: refused, the message as it was" || no "adaptive-rx = yes: $err"
bsd=(run livelock "${short[@]}" --set host.rxpath=bsd-poll --set host.kern.polling.idle_poll)
rx "${bsd[@]}"=on > "$tmp/a" 2>&1; rx "${bsd[@]}"=1 > "$tmp/b" 2>&1
rx "${bsd[@]}"=off > "$tmp/c" 2>&1; rx "${bsd[@]}"=0 > "$tmp/d" 2>&1
cmp -s "$tmp/a" "$tmp/b" && cmp -s "$tmp/c" "$tmp/d" && ! cmp -s "$tmp/a" "$tmp/c" &&
  ok "kern.polling.idle_poll: on = 1, off = 0" || no "kern.polling.idle_poll on/off"
n=0
while IFS=, read -r key _ _ acc; do
  [[ $acc == '"on/off'* ]] || continue
  key="${key/nic.NAME./nic.eth0.}" n=$((n + 1))
  for v in on off; do
    err="$(rx run livelock --set run.duration=1ms --set "$key=$v" 2>&1 >/dev/null)"
    [[ $err != *" = $v"* ]] || no "$key=$v refused: $err"
  done
  err="$(rx run livelock --set run.duration=1ms --set "$key=maybe" 2>&1 >/dev/null)"
  [[ $err == *"= maybe: accepted on/off, yes/no, true/false, 1/0" ]] || no "$key=maybe: $err"
done < <(rx scenarios --keys --format csv)
[ "$n" -ge 9 ] && ok "$n on/off keys of the schema take on and off" || no "only $n on/off keys"
for k in gro tso threaded; do
  err="$(rx live --set "dev.$k=on" --set dev.$k=off --batch 0 2>&1)"
  [ "$(head -1 <<< "$err")" = "rxlab live: --batch = 0 is out of range: accepted 1..256" ] &&
    ok "live --set dev.$k=on/off" || no "live --set dev.$k=on: $err"
done
err="$(rx live --set dev.gro=maybe 2>&1)"
[ "$err" = "rxlab live: --set gro=maybe: out of range (accepted: 0..1)" ] &&
  ok "live --set dev.gro=maybe refused" || no "dev.gro=maybe: $err"

# ---- man pages ----------------------------------------------------------------------------
if [ ! -e "$build/man/rxlab.1" ]; then
  command -v help2man > /dev/null && no "help2man is here but the build has no man pages" ||
    echo "skip man pages: no help2man at build time (scripts/deps installs it)"
elif ! command -v man > /dev/null; then
  echo "skip man -l: no man (scripts/deps installs man-db)"
else
  for p in rxlab.1 rxlab-scenario.5; do
    MANWIDTH=80 man -l "$build/man/$p" > "$tmp/$p.txt" 2> "$tmp/$p.err"; rc=$?
    [ "$rc" -eq 0 ] && [ -s "$tmp/$p.txt" ] && [ ! -s "$tmp/$p.err" ] && ok "man -l $p" ||
      no "man -l $p: status $rc: $(head -3 "$tmp/$p.err")"
  done
  for s in SYNOPSIS "EXIT STATUS" COMMANDS "SEE ALSO"; do
    grep -q "^$s" "$tmp/rxlab.1.txt" || no "rxlab(1) has no $s"
  done
  for c in $cmds version; do
    [ "$c" = help ] && continue   # rxlab --help itself: the DESCRIPTION
    grep -q "^   rxlab $c\$" "$tmp/rxlab.1.txt" || no "rxlab(1) has no section for rxlab $c"
  done
  grep -q "^       2 .*bad usage or input" "$tmp/rxlab.1.txt" && ok "rxlab(1): EXIT STATUS, COMMANDS" ||
    no "rxlab(1): no exit status 2"
  missing=0
  while IFS=, read -r key _; do
    k="${key#*.}"; k="${k#NAME.}"
    grep -q "^       $k\b\|^       .*, $k\b\|^       $k," "$tmp/rxlab-scenario.5.txt" ||
      missing=$((missing + 1))
  done < <(rx scenarios --keys --format csv | sed '1d;/^route/d')
  ! grep -q "not described in docs/scenarios.md" "$tmp/rxlab-scenario.5.txt" && [ "$missing" -eq 0 ] &&
    ok "rxlab-scenario(5): every schema key, each described" ||
    no "rxlab-scenario(5): $missing keys missing; undescribed: $(grep -c 'not described' "$tmp/rxlab-scenario.5.txt")"
fi

[ "$fails" -eq 0 ] && echo "0 failure(s)" || { echo "$fails failure(s)"; exit 1; }
