#!/usr/bin/env bash
# Objective: a port's driver (model/quirks.c, docs/quirks.md) changes what
# the simulator runs and what the commands say, and a multi-queue port gets
# its commands per queue.
# - driver = ena with rx-usecs 4 runs byte-identical to a generic port with
#   the 8 us ENA honours (and differs from 4 us); rx-usecs 64 shows as 50 in
#   the ethtool -c table; stderr says "driver ena honours rx-usecs 4 as 8".
# - driver = virtio-net refuses rx-usecs 8: exit 2, the key and the range.
# - tune on memcached (8 queues, IRQs placed 15..8 by irq-affinity): apply.sh
#   parses (sh -n), holds one napi-set, one queue-get and one
#   smp_affinity_list write per queue, the CPUs in queue order, and no line
#   outside the commands it is made of.  apply.sh is never run.
# - tune on a driver = ena port keeps the driver: it searches only the
#   rx-usecs levels ENA programs as asked (8, 16, 32 us) and rx-frames 1,
#   leaves out the e1000 itr policies (a note on stderr says so), and its
#   commands carry no rx-frames (ENA has none).
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

run() { "$rxlab" run udp-sink --set run.duration=50ms --set run.warmup=10ms "$@"; }

run --set nic.eth0.driver=ena --set nic.eth0.rx-usecs=4 >"$tmp/ena" 2>"$tmp/ena.err" \
	|| fail "ena run exit $?: $(cat "$tmp/ena.err")"
run --set nic.eth0.rx-usecs=8 --set nic.eth0.rx-frames=0 >"$tmp/g8" 2>/dev/null
run --set nic.eth0.rx-usecs=4 --set nic.eth0.rx-frames=0 >"$tmp/g4" 2>/dev/null
cmp -s "$tmp/ena" "$tmp/g8" && ok "ena rx-usecs 4 runs as generic rx-usecs 8" \
	|| fail "ena rx-usecs 4 differs from generic 8 us: $(diff "$tmp/ena" "$tmp/g8" | head -3)"
cmp -s "$tmp/ena" "$tmp/g4" && fail "ena rx-usecs 4 runs as 4 us" || ok "and not as 4 us"
grep -q '^rxlab: note: nic eth0: driver ena honours rx-usecs 4 as 8 us (ENA moderation' \
	"$tmp/ena.err" && ok "stderr: $(head -c 60 "$tmp/ena.err")..." \
	|| fail "no note on stderr: $(cat "$tmp/ena.err")"
run --set nic.eth0.driver=ena --set nic.eth0.rx-usecs=64 --show-coalesce 2>/dev/null \
	| awk '$1 == "eth0" && $3 == "50.000" { found = 1 } END { exit !found }' \
	&& ok "ethtool -c table: ena rx-usecs 64 is 50" || fail "ena rx-usecs 64 is not 50 in -c"

run --set nic.eth0.driver=virtio-net --set nic.eth0.rx-usecs=8 >/dev/null 2>"$tmp/v.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q 'rx-usecs = 8 us with driver = virtio-net: .*accepted 0 only' \
	"$tmp/v.err" && ok "virtio-net refuses rx-usecs 8 (exit 2)" \
	|| fail "virtio-net rx-usecs 8: exit $rc, $(cat "$tmp/v.err")"

"$rxlab" tune memcached --goal 'p99<=1ms' --policies dim --jobs 1 --out "$tmp/mc" \
	--set 'nic.eth0.irq-affinity=15,14,13,12,11,10,9,8' --placement off >/dev/null 2>"$tmp/err" \
	|| fail "tune memcached exit $?: $(cat "$tmp/err")"
apply="$tmp/mc/apply.sh"
sh -n "$apply" && ok "apply.sh parses" || fail "apply.sh does not parse"
for what in 'ynl --do napi-set ' 'ynl --do queue-get ' '/smp_affinity_list"$'; do
	n="$(grep -c -- "$what" "$apply")"
	[ "$n" -eq 8 ] && ok "8 lines of $what" || fail "$n lines of $what, want 8"
done
cpus="$(sed -n 's|^echo \([0-9]*\) > "/proc/irq/.*|\1|p' "$apply" | tr '\n' ' ')"
[ "$cpus" = "15 14 13 12 11 10 9 8 " ] && ok "IRQ CPUs in queue order: $cpus" \
	|| fail "IRQ CPUs: '$cpus'"
ids="$(sed -n 's|^napi=.* "$ifindex" \([0-9]*\))" .*|\1|p' "$apply" | tr '\n' ' ')"
[ "$ids" = "0 1 2 3 4 5 6 7 " ] && ok "queue-get for queues $ids" || fail "queue-get ids: '$ids'"
other="$(grep -v -E '^(#|set -e$|ethtool -C eth0 |echo [0-9]+ > /sys/class/net/eth0/[a-z_]+$|ynl\(\) |field\(\) |ifindex=\$\(cat /sys/class/net/eth0/ifindex\)$|napi=\$\(ynl --do queue-get |ynl --do napi-set |irq=\$\(ynl --do napi-get |echo [0-9]+ > "/proc/irq/)' "$apply")"
[ -z "$other" ] && ok "apply.sh holds only the commands it is made of" \
	|| fail "unexpected lines in apply.sh: $other"
"$rxlab" tune udp-sink --set nic.eth0.driver=ena --set run.duration=50ms --set run.warmup=10ms \
	--policies coalesce,itr,dim --goal 'p99<=200us' --jobs 1 --format csv --out "$tmp/ena-tune" \
	>"$tmp/et" 2>"$tmp/et.err" || fail "tune on ena: exit $?: $(cat "$tmp/et.err")"
usecs="$(awk -F, 'NR > 1 && $1 == "coalesce" { print $2 }' "$tmp/ena-tune/tune-points.csv" \
	| sort -u | tr '\n' ' ')"
[ "$usecs" = "rx-usecs=16 rx-frames=1 rx-usecs=32 rx-frames=1 rx-usecs=8 rx-frames=1 " ] \
	&& ok "tune on ena searches rx-usecs 8, 16, 32 with rx-frames 1" \
	|| fail "tune on ena searched: '$usecs'"
grep -q '^itr' "$tmp/ena-tune/tune-points.csv" && fail "tune on ena searched itr" \
	|| ok "no itr point on ena"
grep -q 'note: driver ena: itr left out' "$tmp/et.err" && ok "stderr names itr left out" \
	|| fail "no note for itr: $(cat "$tmp/et.err")"
grep -q '^ethtool -C eth0 .*rx-frames' "$tmp/ena-tune/apply.sh" \
	&& fail "ena commands set rx-frames: $(grep '^ethtool' "$tmp/ena-tune/apply.sh")" \
	|| ok "ena commands: $(grep '^ethtool' "$tmp/ena-tune/apply.sh")"
[ "$fails" -eq 0 ]
