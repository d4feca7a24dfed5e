/* counters.h - the kernel's own counters around a live run, read before
 * and after and subtracted (wrap-safe for the 32-bit ones).
 *
 *   /proc/net/softnet_stat  per CPU: processed, dropped (backlog), time_squeeze
 *   /proc/softirqs          NET_RX softirqs per CPU
 *   /proc/interrupts        hard interrupts per CPU (all lines summed)
 *   /proc/stat              per-CPU time (USER_HZ ticks): user, system, irq,
 *                           softirq, idle ...
 *   /sys/devices/system/cpu/cpuN/cpuidle/stateK/time
 *                           us each CPU spent in an idle state (exact, where
 *                           a cpuidle driver runs)
 *   /proc/PID/schedstat,    the threaded-NAPI kthread: ns on CPU and
 *   /proc/PID/status        voluntary context switches (= its wake-ups);
 *                           the receive thread's ns on CPU, by its tid
 *   rtnetlink IFLA_STATS64  packets and drops of the two veth devices (a full
 *                           veth ring shows as tx_dropped of the sender's)
 *   SO_MEMINFO              socket receive-buffer drops (SK_MEMINFO_DROPS)
 * Sender ENOBUFS come from the sender (sender.h), CPU time of the receive
 * thread from the loop (rxl_stats).
 */
#ifndef RXLAB_LIVE_COUNTERS_H
#define RXLAB_LIVE_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define COUNTERS_MAX_CPUS 64
#define COUNTERS_MAX_QUEUES 4	/* receive queues (NAPI kthreads, receive threads) */

struct cpu_counters {
	uint64_t processed, dropped, time_squeeze;	/* softnet_stat */
	uint64_t net_rx;				/* /proc/softirqs NET_RX */
	uint64_t irqs;					/* /proc/interrupts */
	uint64_t ticks_busy, ticks_idle;		/* /proc/stat: busy = all but idle+iowait */
	uint64_t ticks_softirq, ticks_irq;
	bool idle_valid;				/* cpuidle times were read */
	uint64_t idle_us;				/* cpuidle: sum over states */
};

struct dev_counters {
	bool valid;
	uint64_t rx_packets, tx_packets, rx_dropped, tx_dropped;
};

/* What to read besides the global files: each field optional. */
struct counters_src {
	int rx_ns, tx_ns;		/* namespaces of the devices (-1 = the caller's) */
	int rx_ifindex, tx_ifindex;	/* 0 = none */
	int sock_fd;			/* receiving socket, -1 = none */
	pid_t napi_pid[COUNTERS_MAX_QUEUES];	/* threaded NAPI kthreads, one per queue,
						 * 0 = none (the first 0 ends the list) */
	pid_t rx_tid[COUNTERS_MAX_QUEUES];	/* the receive threads (tasks of this
						 * process), one per queue, 0 = none */
};

struct counters {
	int64_t t_ns;			/* CLOCK_MONOTONIC when read */
	int ncpu;			/* CPUs seen in /proc/stat */
	struct cpu_counters cpu[COUNTERS_MAX_CPUS];
	struct dev_counters rx_dev, tx_dev;
	uint64_t sock_drops;
	uint64_t napi_ns;		/* CPU time of the NAPI kthreads (schedstat), summed */
	uint64_t napi_wakeups;		/* their voluntary context switches */
	uint64_t rx_thread_ns;		/* CPU time of the receive threads (schedstat), summed;
					 * 0 when rx_tid[0] is 0 or the threads have exited */
};

/* Read everything @src names.  Files that cannot be read leave zeros (a
 * kernel without one of them still gives the others).  0, or -1 when not
 * even /proc/stat can be read. */
int counters_read(struct counters *c, const struct counters_src *src);

/* @after - @before, field by field, into @d (t_ns too); 32-bit softnet
 * columns wrap-safe. */
void counters_diff(struct counters *d, const struct counters *after,
		   const struct counters *before);

/* Percent of @cpu busy (non-idle) in the difference @d: from the cpuidle
 * residency when both reads had it (time not idle over d->t_ns: exact,
 * interrupts taken while idle included), else from /proc/stat ticks; NaN
 * when neither.  The /proc/stat busy columns are sampled at the scheduler
 * tick, which a tickless idle CPU stops: a core that wakes thousands of
 * times a second for a few us each (a sleeping receive loop) shows far
 * less busy time there than it had, while its idle column is exact. */
double counters_cpu_busy_pct(const struct counters *d, int cpu);

/* USER_HZ ticks to ns. */
double counters_ticks_ns(uint64_t ticks);

#endif
