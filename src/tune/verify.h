/* verify.h - `rxlab tune --verify`: the best setting of a search and the
 * runner-up applied on the live engine's veth test bed, measured at the
 * goal's load points, and printed beside what the simulator predicted.
 *
 * For each of the two settings and each load point (the request's loads,
 * tune_request.h, offered rates in frames/s; none: the scenario's own
 * rate) it
 *   - simulates the setting at that load (the search's overrides: the
 *     user's --set, every scheme's knobs off, the policy's sets and levels,
 *     traffic.rate = the load), the "predicted" row;
 *   - runs the live mode that does the policy (verify_plan()) on a fresh
 *     test bed at that offered rate for the verify duration, the
 *     "measured" row;
 * and prints p99, CPU, throughput and drops of both with the ratio
 * measured / predicted, whether the measurement meets the goals (and the
 * loss bound), and whether p99 and CPU agree within the tolerance the
 * table's header prints (VERIFY_P99_TOL, VERIFY_CPU_TOL).
 *
 * The live figures: p99 the one-way latency of the received packets
 * (live_lat_us()), CPU the receiver core's busy share while sending
 * (counters_cpu_busy_pct(): the simulated live-veth host has that one
 * CPU), throughput the received rate, drops the packets the sender had
 * accepted that the loop did not receive, in % of them.
 */
#ifndef RXLAB_TUNE_VERIFY_H
#define RXLAB_TUNE_VERIFY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "live/live_run.h"
#include "rxlab/scheme.h"
#include "tune/tune.h"

/* The agreement verify calls good: measured / predicted within
 * [1/TOL, TOL].  docs/live.md "Prediction against reality": on this test
 * bed p50 agreed within 30% but the live p99 was 2.2-2.8 times the
 * simulated one (the tail the simulator does not model: vCPU preemption,
 * timer slack); CPU is the receiver core's busy share, which the
 * calibrated costs reproduce to within a factor of 2 across rates. */
#define VERIFY_P99_TOL 3.0
#define VERIFY_CPU_TOL 2.0
#define VERIFY_MAX_SETS 8

/* A policy's setting as the live engine takes it. */
struct verify_setting {
	enum rxl_mode mode;
	char sets[VERIFY_MAX_SETS][64];	/* loop keys, "rx-usecs=8" (rxl_config_set()) */
	const char *set_ptr[VERIFY_MAX_SETS];
	size_t n_sets;
	struct live_knob knobs[KNOBS_MAX];	/* device settings (napi_defer_hard_irqs, ...) */
	size_t n_knobs;
};

/* The live setting of scheme @pol at levels @ix (one per axis) into @vs:
 * the scheme's first live mode (defer, which has none: napi with the
 * device's napi_defer_hard_irqs and gro_flush_timeout), each axis as a
 * loop key or a device setting.  0, or -1 with the reason in @why ("no
 * live mode does per-packet-irq", "axis X has no live counterpart"). */
int verify_plan(const struct rxl_scheme *pol, const uint8_t *ix, struct verify_setting *vs,
		char *why, size_t whylen);

/* The runner-up of @st: the best point other than @best in tune_search.h's
 * order (meets before misses; then the objective, p99, CPU; for misses the
 * summed miss), NULL when there is none. */
const struct tune_point *verify_runner_up(const struct tune_state *st,
					  const struct tune_point *best);

/* Measured against predicted for the best point of @res and the runner-up,
 * @dur_ns of sending per load point, the table on @f.  0 (also when a
 * setting misses: the table says so), 1 when a run or a simulation failed,
 * 2 for bad input, with a message in @err.  Ends early when *@stop. */
int tune_verify(FILE *f, const struct tune_result *res, const struct tune_request *req,
		int64_t dur_ns, const volatile sig_atomic_t *stop, char *err, size_t errlen);

#endif
