#!/usr/bin/env bash
# Objective: `rxlab run --trace FILE` writes the simulated tracepoints in
# the form `perf script --ns` prints real ones, so that the recipes of
# docs/replay.md work on the simulator as on the real host:
#   - replay: a run with deferral (napi_defer_hard_irqs + gro_flush_timeout;
#     udp-sink, and memcached's eight queues one NAPI at a time) is traced,
#     docs/replay.md's own awk recipe (taken from the file) turns the trace
#     into polls.csv, and `rxlab replay defer` takes the simulator's
#     decisions: its polls are the trace's, it says "irq" exactly for the
#     polls that follow an irq_handler_entry of that queue in the trace and
#     re-arms exactly before the interrupts, its "irq" polls are the
#     queue's count in the run's own /proc/interrupts, and it both re-arms
#     and defers;
#   - format: every line matches the regex made from the kernel's TP_printk
#     string of its event (copied below from include/trace/events/irq.h,
#     napi.h, net.h, and compared with this machine's tracefs when it is
#     readable: a difference is a note), and the real lines of tests/traces/perf-script-real.txt
#     (perf 6.1 on this kind of host) match the same regexes with their
#     columns at the same byte offsets; lines are in time order;
#   - the report is the same bytes with and without --trace;
#     --trace-limit N writes N lines and says so on stderr.
set -u
rxlab="$1" src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fails=$((fails + 1)); }

# ---- the recipe of docs/replay.md, as the docs give it ----------------------------
recipe="$(sed -n "/^perf script --ns | awk -v napi=eth0 '\$/,/^}' >> polls.csv\$/p" \
  "$src/docs/replay.md" | sed '1d;$d')"
[ -n "$recipe" ] || no "no defer recipe in docs/replay.md"
recipe+=$'\n}'
polls() { echo time_ns,work; awk -v napi="$1" "$recipe" "$2"; }

defer=(--set nic.eth0.napi_defer_hard_irqs=2 --set nic.eth0.gro_flush_timeout=20us)
replay_defer() { "$rxlab" replay defer "$1" --napi-defer-hard-irqs 2 --gro-flush-timeout 20us \
  --format csv; }

# check NAME TRACE NAPI IRQ REPORT: replay NAPI's polls of TRACE and compare
# with the interrupts of vector IRQ in TRACE and in REPORT (--format csv)
check() {
  local name="$1" trace="$2" napi="$3" irq="$4" report="$5" want got
  polls "$napi" "$trace" > "$tmp/polls.csv"
  if ! replay_defer "$tmp/polls.csv" > "$tmp/replay.csv" 2> "$tmp/err"; then
    no "$name: replay defer failed: $(head -2 "$tmp/err")"; return
  fi
  # the trace: for each poll of the NAPI, was there an IRQ of its vector
  # since the previous poll (1/0)
  awk -v napi="$napi" -v irq="irq=$irq" '
    / irq:irq_handler_entry: / && index($0, " " irq " name=") { pending = 1 }
    / napi:napi_poll: / && (index($0, " struct " napi " ") || index($0, " device " napi " ")) {
      print pending; pending = 0 }' "$trace" > "$tmp/sim"
  # the replay: trigger irq (1/0), and irq-rearmed (1/0) of the row before
  awk -F, 'NR > 1 { print ($3 == "irq") ? 1 : 0, prev; prev = ($4 ~ /^irq-rearmed/) ? 1 : 0 }
    END { print "end", prev }' "$tmp/replay.csv" > "$tmp/rep"
  got="$(paste -d' ' "$tmp/sim" <(sed '$d' "$tmp/rep") |
    awk 'NR == 1 { $3 = $1 } $1 != $2 || $1 != $3 { bad++; if (!first) first = NR }
         END { print NR, bad + 0, first + 0 }')"
  read -r n bad first <<< "$got"
  if [ "$n" -gt 0 ] && [ "$n" -eq "$(wc -l < "$tmp/sim")" ] && [ "$bad" -eq 0 ]; then
    ok "$name: replay defer takes the simulator's decisions on all $n polls"
  else
    no "$name: $bad of $n polls differ (first: poll $first)"
  fi
  # the run's /proc/interrupts, less an interrupt whose poll the run did not reach
  late="$(awk -v irq="irq=$irq" -v napi="$napi" '
    / irq:irq_handler_entry: / && index($0, " " irq " name=") { n++ }
    / napi:napi_poll: / && (index($0, " struct " napi " ") || index($0, " device " napi " ")) {
      n = 0 }
    END { print n + 0 }' "$trace")"
  want="$(awk -F, -v dev="$6" -v late="$late" '/^# interrupts/ {t = 1; next} /^$/ {t = 0}
    t && $NF == dev { s = 0; for (i = 2; i < NF; i++) s += $i; print s - late }' "$report")"
  got="$(awk -F, 'NR > 1 && $3 == "irq"' "$tmp/replay.csv" | wc -l)"
  [ -n "$want" ] && [ "$got" = "$want" ] &&
    ok "$name: replay's irq polls = /proc/interrupts of $6 ($want)" ||
    no "$name: replay's irq polls $got, /proc/interrupts of $6 '$want'"
  got="$(awk -F, 'NR > 1 { a[$4 ~ /^irq-rearmed/ ? "r" : $4 == "timer-armed" ? "d" : "o"]++ }
    END { print a["r"] + 0, a["d"] + 0 }' "$tmp/replay.csv")"
  read -r re de <<< "$got"
  [ "$re" -gt 0 ] && [ "$de" -gt 0 ] && ok "$name: $re re-armed, $de deferred" ||
    no "$name: re-armed $re, deferred $de: the scenario does not exercise deferral"
}

# ---- replay: udp-sink ------------------------------------------------------------------
run=(run udp-sink --set run.duration=20ms --set run.warmup=0 --set traffic.rate=50kpps
     "${defer[@]}" --format csv)
"$rxlab" "${run[@]}" --trace "$tmp/udp.txt" > "$tmp/udp.csv" || no "udp-sink --trace: exit $?"
"$rxlab" "${run[@]}" > "$tmp/udp-plain.csv"
cmp -s "$tmp/udp.csv" "$tmp/udp-plain.csv" && ok "the report is the same with --trace" ||
  no "--trace changed the report"
check udp-sink "$tmp/udp.txt" eth0 24 "$tmp/udp.csv" eth0

# ---- replay: memcached, one NAPI at a time -----------------------------------------------
"$rxlab" run memcached --set run.duration=20ms --set run.warmup=0 "${defer[@]}" --format csv \
  --trace "$tmp/mc.txt" > "$tmp/mc.csv" || no "memcached --trace: exit $?"
for q in 0 3 7; do
  napi="$(printf '0xffff888100a%02x000' "$q")"
  grep -q "napi struct $napi " "$tmp/mc.txt" || no "memcached: no poll of $napi"
  check "memcached queue $q" "$tmp/mc.txt" "$napi" $((24 + q)) "$tmp/mc.csv" "eth0-TxRx-$q"
done

# ---- format: the kernel's TP_printk strings -------------------------------------------------
# (irq_handler_exit's ret: "REC->ret ? \"handled\" : \"unhandled\"")
declare -A fmt=(
  [napi/napi_poll]='napi poll on napi struct %p for device %s work %d budget %d'
  [irq/irq_handler_entry]='irq=%d name=%s'
  [irq/irq_handler_exit]='irq=%d ret=%s'
  [net/netif_receive_skb]='dev=%s skbaddr=%p len=%u'
)
for ev in "${!fmt[@]}"; do
  f="/sys/kernel/tracing/events/$ev/format"
  [ -r "$f" ] || continue
  got="$(sed -n 's/^print fmt: "\([^"]*\)".*/\1/p' "$f")"
  # a note, not a failure: the test stays hermetic on another kernel
  [ "$got" = "${fmt[$ev]}" ] && ok "TP_printk of $ev is this kernel's" ||
    echo "note: TP_printk of $ev: this kernel says '$got', the test '${fmt[$ev]}'"
done
# the values of a %s the kernel's format chooses itself
declare -A sval=([irq/irq_handler_exit]='(handled|unhandled)')
# perf's line: "%16s %5d [%03d] %5lu.%09lu: %*s: " then the fields
head_re='^ *[^ ].{0,15} +[0-9]+ \[[0-9]{3}\] +[0-9]+\.[0-9]{9}: +'
regex() {
  local f="${fmt[$1]}"
  f="${f//%p/0x[0-9a-f]+}"; f="${f//%d/-?[0-9]+}"; f="${f//%u/[0-9]+}"; f="${f//%s/${sval[$1]:-[^ ]+}}"
  echo "$head_re${1/\//:}: $f\$"
}
formats() {
  local file="$1" bad
  bad="$(grep -v '^#' "$file" | grep -vE "$(regex napi/napi_poll)" |
    grep -vE "$(regex irq/irq_handler_entry)" | grep -vE "$(regex irq/irq_handler_exit)" |
    grep -vE "$(regex net/netif_receive_skb)" | head -2)"
  [ -z "$bad" ] && ok "$2: every line matches its event's TP_printk" || no "$2: $bad"
}
formats "$src/tests/traces/perf-script-real.txt" "real perf script"
formats "$tmp/udp.txt" "udp-sink --trace"
formats "$tmp/mc.txt" "memcached --trace"
for ev in napi:napi_poll irq:irq_handler_entry irq:irq_handler_exit net:netif_receive_skb; do
  grep -q " $ev: " "$tmp/mc.txt" || no "memcached --trace has no $ev"
done
# the columns at the bytes of the real lines: the [CPU], the time's point, the event's ':'
cols() { grep -v '^#' "$1" | awk '{ c = index($0, "["); p = index($0, ".");
  e = index(substr($0, p), ": ") + p; print c, e + index(substr($0, e + 1), ": ") }' | sort -u; }
real_cols="$(cols "$src/tests/traces/perf-script-real.txt")"
sim_cols="$(cols "$tmp/mc.txt")"
[ "$(echo "$real_cols" | wc -l)" -eq 1 ] && [ "$real_cols" = "$sim_cols" ] &&
  ok "columns at the real lines' offsets ($real_cols)" ||
  no "columns: real '$real_cols', simulated '$(echo "$sim_cols" | head -3 | tr '\n' ' ')'"
bad="$(awk '{ t = $4 + 0; if (NR > 1 && t < prev) { print NR ": " $0; exit } prev = t }' \
  "$tmp/mc.txt")"
[ -z "$bad" ] && ok "memcached --trace: lines in time order" || no "out of time order: $bad"
"$rxlab" run udp-sink --set run.duration=10ms --set run.warmup=0 --set traffic.rate=500kpps \
  --trace "$tmp/busy.txt" > /dev/null || no "udp-sink at 500kpps --trace: exit $?"
got="$(awk '/ napi:napi_poll: / { print $1, $2 }' "$tmp/busy.txt" | sort -u | tr '\n' ' ')"
[ "$got" = "ksoftirqd/0 1000 swapper 0 udp-sink 1001 " ] &&
  ok "comm/pid of the polls: the thread on the CPU ($got)" || no "comm/pid of the polls: $got"

# ---- --trace-limit ---------------------------------------------------------------------
"$rxlab" "${run[@]}" --trace "$tmp/lim.txt" --trace-limit 100 > "$tmp/lim.csv" 2> "$tmp/lim.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(wc -l < "$tmp/lim.txt")" -eq 100 ] && cmp -s "$tmp/lim.txt" <(head -100 "$tmp/udp.txt") &&
  grep -q "^rxlab: --trace $tmp/lim.txt: stopped after 100 events, at " "$tmp/lim.err" &&
  cmp -s "$tmp/lim.csv" "$tmp/udp.csv" &&
  ok "--trace-limit 100: the first 100 lines, said on stderr, the same report" ||
  no "--trace-limit 100: status $rc, $(wc -l < "$tmp/lim.txt") lines, $(cat "$tmp/lim.err")"

[ "$fails" -eq 0 ] && echo "all tracepoint checks passed" || echo "$fails failed"
exit $((fails > 0))
