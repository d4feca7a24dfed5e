/* idle_check.h - is the machine quiet enough for a live measurement?
 *
 * Before every live run the receiver core (and the sender core) is watched
 * for IDLE_CHECK_WINDOW_NS with nothing of rxlab running; the fraction of
 * that window it spent idle is printed, and a run whose receiver core was
 * less than IDLE_CHECK_MIN_PCT idle gets a warning with the figure: its
 * latencies then include waiting behind other people's work and its core%
 * counts that work, so neither describes rxlab's receive path.
 *
 * The threshold, 90%: rxlab's receive path at 10% of the sender's maximum
 * keeps this machine's receiver core about 40-60% busy (docs/live.md), so
 * 10% of someone else's load on that core is already a fifth of what is
 * measured; at 90% idle a wake-up still finds the core busy one time in ten.
 * Idle time comes from the cpuidle residency where a cpuidle driver runs
 * (exact, counters_cpu_busy_pct()), else from /proc/stat's idle column.
 */
#ifndef RXLAB_LIVE_IDLE_CHECK_H
#define RXLAB_LIVE_IDLE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IDLE_CHECK_WINDOW_NS 250000000	/* 250 ms */
#define IDLE_CHECK_MIN_PCT 90.0
#define IDLE_CHECK_TRIES 4	/* windows watched before a busy core is reported (live_run.c):
				 * the previous run's test bed is torn down after it ends */

struct idle_check {
	int rx_cpu, tx_cpu;		/* the CPUs watched (-1: not watched) */
	double rx_idle_pct, tx_idle_pct;	/* % of the window idle; NaN when unknown */
	int64_t window_ns;		/* how long they were watched */
};

/* Watch @rx_cpu and @tx_cpu (either may be -1) for @window_ns (sleeping)
 * into @ic.  0, or -1 when /proc/stat cannot be read (figures NaN then). */
int idle_check_measure(struct idle_check *ic, int rx_cpu, int tx_cpu, int64_t window_ns);

/* The receiver core was less than IDLE_CHECK_MIN_PCT idle (false when unknown). */
bool idle_check_busy(const struct idle_check *ic);

/* One line "CPU 1 (receiver) 97.3% idle, CPU 0 (sender) 99.0% idle over 250 ms"
 * into @buf. */
void idle_check_format(const struct idle_check *ic, char *buf, size_t len);

#endif
