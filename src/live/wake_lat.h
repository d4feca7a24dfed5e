/* wake_lat.h - the latency of waking a sleeping thread from another CPU,
 * measured by ping-pong (`rxlab live calibrate`).
 *
 * A sleeper thread pinned to one CPU (SCHED_FIFO 10, as the test bed's
 * receive thread and NAPI kthread) blocks in read() on an eventfd; a
 * waker on another CPU, spinning so its own CPU never idles, reads
 * CLOCK_MONOTONIC and writes the eventfd; the sleeper reads the clock as
 * read() returns.  The difference is what a packet pays on the veth test
 * bed when veth_xmit on the sender's CPU wakes the NAPI kthread on the
 * receiver's: the wake-up IPI, the idle CPU leaving its idle state, the
 * scheduler's switch to the woken thread and its return to user space.
 * Between wake-ups the waker waits a gap plus up to as much again (pseudo-random, so wake-ups do not lock to the tick), long enough
 * for the sleeper's CPU to go idle.
 *
 * With @poll_idle the run holds /dev/cpu_dma_latency at 0 (PM QoS: no
 * idle state with a non-zero exit latency), so the idle CPU polls
 * (cpuidle state POLL) instead of halting: the wake-up then costs
 * everything but the exit from the idle state, and the difference of the
 * two medians is that exit latency.
 */
#ifndef RXLAB_LIVE_WAKE_LAT_H
#define RXLAB_LIVE_WAKE_LAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WAKE_LAT_SAMPLES 1500
#define WAKE_LAT_GAP_NS 200000	/* 200 us (to 400 us) between wake-ups */
#define WAKE_LAT_SPREAD_MIN_NS 10000	/* gap 0: log-uniform from 10 us ... */
#define WAKE_LAT_SPREAD_MAX_NS 1000000	/* ... to 1 ms */

struct wake_lat {
	double p10_ns, p50_ns, p90_ns;	/* of the run's samples */
	size_t n;			/* samples */
};

/* One run of @n wake-ups, @gap_ns to 2 x @gap_ns apart, or with @gap_ns 0
 * log-uniformly 10 us to 1 ms apart (calibrate: the idle periods a
 * receiver has from the sender's maximum down to 1 kpps), of a thread on @sleeper_cpu by the calling thread
 * moved to @waker_cpu (its affinity is restored afterwards), into @out.
 * 0, or -1 with a message in @err (no eventfd, thread, or
 * /dev/cpu_dma_latency when @poll_idle). */
int wake_lat_measure(int waker_cpu, int sleeper_cpu, bool poll_idle, size_t n, int64_t gap_ns,
		     struct wake_lat *out, char *err, size_t errlen);

/* The @q quantile (0..1) of @v[0..@n) (sorted in place); NaN when @n is 0. */
double wake_lat_quantile(double *v, size_t n, double q);

#endif
