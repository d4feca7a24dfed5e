#!/bin/sh
# queues.sh - how the memcached host simulates as it grows (issue 16).
# Figures only; nothing is asserted (the machine is shared and noisy).
#
# Usage: bench/queues.sh RXLAB [QUEUES...]     (default 1 2 4 8 16 32)
#
# 1. speed: the built-in memcached scenario at 1 M queries/s on 8 queues
#    and 16 cores for 1 simulated second: wall seconds (best of 3) and
#    simulated seconds per wall second (goal >= 1).
# 2. scale: callgrind instructions (Ir, reproducible) per simulated second
#    of memcached with Q queues, Q workers and 2Q CPUs (vectors on 0..Q-1,
#    workers on Q..2Q-1), for Q in QUEUES, in two series:
#      fixed load   1 M queries/s whatever Q: the cost of more queues and
#                   CPUs themselves (ideally exponent ~0)
#      per queue    125 k queries/s per queue: load grows with the host
#                   (ideally exponent ~1)
#    and the least-squares exponent of Ir against Q of each.
set -eu
rxlab=$1
shift
qs=${*:-1 2 4 8 16 32}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

best=
for i in 1 2 3; do
	s=$(date +%s.%N)
	"$rxlab" run memcached --set traffic.rate=1Mpps --set run.duration=1s \
		--set run.warmup=100ms >/dev/null
	e=$(date +%s.%N)
	t=$(echo "$e - $s" | bc)
	if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
done
printf 'speed: memcached 1M qps, 8 queues, 16 CPUs, 1 simulated s: %.3f wall s (best of 3), %.2f simulated s per wall s\n' \
	"$best" "$(echo "1 / $best" | bc -l)"

ir() { # ir Q RATE: Ir per simulated second
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$rxlab" run memcached \
		--set host.cpus=$((2 * $1)) --set nic.eth0.combined="$1" \
		--set nic.eth0.irq-affinity=0-$(($1 - 1)) --set apps.server-threads="$1" \
		--set apps.server-cpus="$1"-$((2 * $1 - 1)) --set traffic.rate="$2" \
		--set run.duration=50ms --set run.warmup=10ms >/dev/null 2>"$tmp/err"
	echo "$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/err") * 20" | bc
}
for series in fixed per-queue; do
	for q in $qs; do
		if [ "$series" = fixed ]; then rate=1000000pps; else rate=$((125000 * q))pps; fi
		echo "$q $rate $(ir "$q" "$rate")"
	done | awk -v series="$series" '
		{ printf "scale (%s load): queues %3d, CPUs %3d, %11s: %15.0f Ir per simulated s\n",
		         series, $1, 2 * $1, $2, $3
		  x[NR] = log($1); y[NR] = log($3) }
		END { for (i = 1; i <= NR; i++) { mx += x[i] / NR; my += y[i] / NR }
		      for (i = 1; i <= NR; i++) { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ^ 2 }
		      printf "scale (%s load): exponent of Ir in queues (and CPUs = 2 x queues): %.2f\n",
		             series, sxy / sxx }'
done
