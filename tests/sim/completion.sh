#!/usr/bin/env bash
# Objective: the bash completion (completion/rxlab) completes what the
# binary accepts: commands, a command's options, option values, built-in
# scenario and seed names, scheme names (tune --policies), live modes and
# --set keys from the loader's schema (rxlab scenarios --keys) with their
# values, including the splits bash makes at '=' (COMP_WORDBREAKS).  Each
# case sets COMP_WORDS/COMP_CWORD as bash would and calls _rxlab.
set -u
rxlab="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
src="$2"
fails=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fails=$((fails + 1)); }
if ! type -t complete > /dev/null; then
  echo "skip: this bash has no programmable completion"; exit 0
fi
# shellcheck source=/dev/null
source "$src/completion/rxlab" || { echo "FAIL cannot source completion/rxlab"; exit 1; }
type -t _rxlab > /dev/null || { echo "FAIL no _rxlab function"; exit 1; }
[ "$(complete -p rxlab 2>/dev/null)" = "complete -o filenames -F _rxlab rxlab" ] &&
  ok "complete -F _rxlab rxlab" || no "rxlab has no completion: $(complete -p rxlab 2>&1)"

# expect 'WANT' WORD...: the completions of the line (its last word is the
# one completed), sorted and joined by spaces, are WANT.
expect() {
  local want="$1" got; shift
  COMP_WORDS=("$rxlab" "$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
  _rxlab
  got="$(printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//')"
  [ "$got" = "$want" ] && ok "[$*] -> $got" || no "[$*]: want '$want', got '$got'"
}

cd "$(mktemp -d)" || exit 1   # no file of the source tree matches a prefix
expect "scenarios schemes seeds sweep" s
expect "validate version" v
expect "--format" run --fo
expect "csv json table" run --format ""
expect "json" run --format = j
expect "--seed --set" run --se
expect "--keys" scenarios --k
expect "--trace --trace-limit" run --tra
expect "--duration" live calibrate --du
expect "host.cpus" run --set host.cp
expect "host.cpus" run --set = host.cp           # --set=host.cp
expect "nic.eth1.adaptive-rx" run --set nic.eth1.adaptive-
expect "dim off on pkt-rate" run --set nic.eth1.adaptive-rx = ""
expect "off on" run --set host.skb-recycle = ""
expect "napi" run --set host.rxpath = na
expect "xeon-6338-mlx5" run --set host.profile = xe
expect "traffic.rate" sweep livelock --vary traffic.ra
expect "live-veth livelock" run liv
expect "seeds/001-napi-router" run seeds/001
expect "001-napi-router" validate 001
expect "coalesce" tune udp-sink --policies coa
expect "coalesce,defer coalesce,dim" tune udp-sink --policies coalesce,d
expect "p50 p99 p999" tune udp-sink --minimize p
expect "adaptive" replay ad
expect "--mode" replay itr --mo
expect "napi" live nap
expect "napi,busy" live napi,bus
expect "napi,so-busy-poll" live napi,so
expect "run" help ru

# every key --keys lists is among the completions of an empty --set word
# (the schema, not a copy)
COMP_WORDS=("$rxlab" run --set ""); COMP_CWORD=3; COMPREPLY=(); _rxlab
printf '%s\n' "${COMPREPLY[@]}" | sort > got.txt
"$rxlab" scenarios --keys --format csv | sed '1d;s/,.*//;s/^nic\.NAME\./nic.eth0./' | sort > want.txt
n="$(wc -l < want.txt)"
[ "$n" -gt 100 ] && cmp -s got.txt want.txt && ok "all $n schema keys complete" ||
  no "the completions of --set '' are not the $n schema keys: $(diff want.txt got.txt | head -5)"

[ "$fails" -eq 0 ] && echo "0 failure(s)" || { echo "$fails failure(s)"; exit 1; }
