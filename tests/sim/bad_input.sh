#!/usr/bin/env bash
# Objective: bad scenario input exits with status 2 and one message that names
# file:line, the key and what is accepted.  Each case writes a small scenario
# and checks the message text (a fixed fragment) and the exit status.
set -u
rxlab="$1"
dir="$(mktemp -d)"; trap 'rm -rf "$dir"' EXIT
fails=0
base='[host]
rxpath = napi
[nic eth0]
speed = 1Gbit
[nic eth1]
[traffic]
port = eth0
rate = 100kpps
[route]
eth0 = eth1
[run]
duration = 10ms'

# case NAME EXPECTED-FRAGMENT SCENARIO-TEXT
case_() {
  local name="$1" want="$2" text="$3" out rc
  printf '%s\n' "$text" > "$dir/$name.ini"
  out="$("$rxlab" run "$dir/$name.ini" 2>&1 >/dev/null)"; rc=$?
  if [ "$rc" -eq 2 ] && [[ "$out" == *"$want"* ]]; then
    echo "ok   $name: $out"
  else
    echo "FAIL $name: exit $rc, message: $out"; echo "     expected to contain: $want"
    fails=$((fails+1))
  fi
}

case_ unknown_key "unknown_key.ini:5: unknown key 'rx-usec' in [nic eth0]; did you mean 'rx-usecs'?" \
  "$(printf '%s\n' "$base" | sed '4a rx-usec = 8')"
case_ out_of_range "out_of_range.ini:5: rx-ring = 0 is out of range: accepted 1..65536" \
  "$(printf '%s\n' "$base" | sed '4a rx-ring = 0')"
case_ missing_unit "missing_unit.ini:12: duration = 5: missing unit" \
  "$(printf '%s\n' "$base" | sed 's/duration = 10ms/duration = 5/')"
case_ malformed "malformed.ini:3: " \
  "$(printf '%s\n' "$base" | sed '2a this line has no equals sign')"
case_ bad_enum "bad_enum.ini:2: rxpath = polling" \
  "$(printf '%s\n' "$base" | sed 's/rxpath = napi/rxpath = polling/')"
case_ wrong_unit "wrong_unit.ini:8: rate = 100Mbit" \
  "$(printf '%s\n' "$base" | sed 's/rate = 100kpps/rate = 100Mbit/')"
case_ unknown_section "unknown_section.ini:13: unknown section" \
  "$(printf '%s\n' "$base"; printf '[hots]\ncpus = 1\n')"
case_ missing_nic "no [nic eth9] section" \
  "$(printf '%s\n' "$base" | sed 's/eth0 = eth1/eth0 = eth9/')"
case_ coal_zero "rx-usecs and rx-frames are both 0" \
  "$(printf '%s\n' "$base" | sed '4a rx-usecs = 0\nrx-frames = 0')"

out="$("$rxlab" run "$dir/does-not-exist.ini" 2>&1)"; rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"no such file"* ]]; then echo "ok   missing file: $out"; else echo "FAIL missing file: $rc $out"; fails=$((fails+1)); fi
out="$("$rxlab" run livelock --set host.cpus=0 2>&1)"; rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"cpus = 0 is out of range"* ]]; then echo "ok   --set range: $out"; else echo "FAIL --set range: $rc $out"; fails=$((fails+1)); fi
out="$("$rxlab" --format xml 2>&1)"; rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"table, csv or json"* ]]; then echo "ok   --format: $out"; else echo "FAIL --format: $rc $out"; fails=$((fails+1)); fi
out="$("$rxlab" sweep livelock --vary traffic.rate=10kpps..2Mbit:5 2>&1)"; rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"same kind of unit"* ]]; then echo "ok   --vary units: $out"; else echo "FAIL --vary units: $rc $out"; fails=$((fails+1)); fi
[ "$fails" -eq 0 ] || { echo "$fails case(s) failed"; exit 1; }
