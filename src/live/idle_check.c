/* idle_check.c - how idle the receiver and sender cores were just before
 * a live run (see idle_check.h). */
#define _GNU_SOURCE
#include "live/idle_check.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "live/counters.h"

static double idle_pct(const struct counters *d, int cpu)
{
	double busy = cpu >= 0 ? counters_cpu_busy_pct(d, cpu) : NAN;

	return isfinite(busy) ? 100.0 - busy : NAN;
}

int idle_check_measure(struct idle_check *ic, int rx_cpu, int tx_cpu, int64_t window_ns)
{
	static struct counters a, b, d;	/* large: off the stack; one caller at a time */
	const struct counters_src src = { .rx_ns = -1, .tx_ns = -1, .sock_fd = -1 };
	struct timespec ts = { .tv_sec = window_ns / 1000000000, .tv_nsec = window_ns % 1000000000 };

	*ic = (struct idle_check){ rx_cpu, tx_cpu, NAN, NAN, window_ns };
	if (counters_read(&a, &src) != 0)
		return -1;
	nanosleep(&ts, NULL);
	if (counters_read(&b, &src) != 0)
		return -1;
	counters_diff(&d, &b, &a);
	ic->window_ns = d.t_ns;
	ic->rx_idle_pct = idle_pct(&d, rx_cpu);
	ic->tx_idle_pct = idle_pct(&d, tx_cpu);
	return 0;
}

bool idle_check_busy(const struct idle_check *ic)
{
	return isfinite(ic->rx_idle_pct) && ic->rx_idle_pct < IDLE_CHECK_MIN_PCT;
}

void idle_check_format(const struct idle_check *ic, char *buf, size_t len)
{
	int n = snprintf(buf, len, "CPU %d (receiver) %.1f%% idle", ic->rx_cpu, ic->rx_idle_pct);

	if (ic->tx_cpu >= 0 && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", CPU %d (sender) %.1f%% idle", ic->tx_cpu,
			 ic->tx_idle_pct);
	n = (int)strlen(buf);
	snprintf(buf + n, len - (size_t)n, " over %.0f ms", (double)ic->window_ns / 1e6);
}
