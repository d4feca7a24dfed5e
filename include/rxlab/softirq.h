/* softirq.h - softirq and net_rx_action budget accounting (pure).
 *
 * Two small pieces of kernel/softirq.c and net/core/dev.c that decide when
 * receive processing stops:
 *
 *  - net_rx_action() gets netdev_budget packets (300) and netdev_budget_usecs
 *    (2 jiffies) per run; after every ->poll() it subtracts the work and stops
 *    with a time_squeeze when the budget is <= 0 or jiffies >= time_limit.
 *    The time check has jiffy granularity and happens only between polls.
 *  - handle_softirqs() runs at most MAX_SOFTIRQ_RESTART (10) passes and for
 *    at most MAX_SOFTIRQ_TIME (2 ms, in jiffies); if softirqs are still
 *    pending after that, or need_resched() is true, it wakes ksoftirqd.
 *
 * Linux 2.6 (2.6.12's net/core/dev.c and kernel/softirq.c, host.rxcore =
 * 2.6) had simpler rules, each with its own function below:
 *
 *  - net_rx_action() gets netdev_max_backlog packets ("int budget =
 *    netdev_max_backlog") and stops when "jiffies - start_time > 1", i.e.
 *    at the second jiffy boundary whatever HZ is; both are tested at the
 *    top of its loop, only while the poll list is not empty.
 *  - __do_softirq() restarts while a softirq is pending and
 *    "--max_restart" (10) is non-zero: no time limit, no need_resched().
 *
 * Jiffies are derived from simulated time: jiffies(t) = t / (1e9 / HZ).
 */
#ifndef RXLAB_RXLAB_SOFTIRQ_H
#define RXLAB_RXLAB_SOFTIRQ_H

#include <stdbool.h>
#include <stdint.h>

#define NETDEV_BUDGET_DEFAULT 300       /* net/core/hotdata.c */
#define MAX_SOFTIRQ_RESTART 10          /* kernel/softirq.c */
#define MAX_SOFTIRQ_TIME_NS 2000000     /* msecs_to_jiffies(2) */

/* Jiffies at time @t_ns (>= 0) for CONFIG_HZ @hz. */
uint64_t jiffies_at(int64_t t_ns, uint32_t hz);

/* usecs_to_jiffies(): rounds up, as the kernel does. */
uint64_t usecs_to_jiffies(uint64_t usecs, uint32_t hz);

/* msecs_to_jiffies(): rounds up. */
uint64_t msecs_to_jiffies(uint64_t msecs, uint32_t hz);

/* One net_rx_action() run. */
struct netrx_budget {
	int32_t budget;          /* packets left; may go below zero */
	uint64_t time_limit;     /* jiffies at which the run must stop */
};

enum netrx_verdict {
	NETRX_CONTINUE,          /* poll the next NAPI */
	NETRX_SQUEEZE,           /* stop: count a time_squeeze and re-raise */
};

/* Start a run at @now_ns with the sysctls netdev_budget and
 * netdev_budget_usecs (given in ns, used as whole microseconds). */
void netrx_begin(struct netrx_budget *b, int64_t now_ns, uint32_t netdev_budget,
		 int64_t budget_usecs_ns, uint32_t hz);

/* Linux 2.6.12 net_rx_action(): a run at @now_ns gets @netdev_max_backlog
 * packets and ends at the second jiffy boundary ("jiffies - start_time >
 * 1"); netrx_account() then applies both, to be asked only while a device
 * is still listed (2.6 tests them at the top of its loop). */
void netrx_begin_26(struct netrx_budget *b, int64_t now_ns, uint32_t netdev_max_backlog,
		    uint32_t hz);

/* Account a poll that did @work packets and returned at @now_ns. */
enum netrx_verdict netrx_account(struct netrx_budget *b, uint32_t work, int64_t now_ns,
				 uint32_t hz);

/* One handle_softirqs() invocation (inline at irq_exit or in ksoftirqd). */
struct softirq_run {
	uint64_t end;            /* jiffies: start + msecs_to_jiffies(2) */
	uint32_t max_restart;    /* starts at MAX_SOFTIRQ_RESTART */
};

enum softirq_verdict {
	SOFTIRQ_DONE,            /* nothing pending: return */
	SOFTIRQ_RESTART,         /* run another pass */
	SOFTIRQ_WAKE_KSOFTIRQD,  /* still pending: leave it to ksoftirqd */
};

void softirq_begin(struct softirq_run *r, int64_t now_ns, uint32_t hz);

/* After a pass at @now_ns: @pending says whether a softirq was raised
 * again.  RESTART iff pending && time_before(jiffies, end) && !need_resched
 * && --max_restart != 0; WAKE_KSOFTIRQD if pending otherwise. */
enum softirq_verdict softirq_after_pass(struct softirq_run *r, bool pending, bool need_resched,
					int64_t now_ns, uint32_t hz);

/* Linux 2.6.12 __do_softirq(): "if (pending && --max_restart) goto
 * restart; if (pending) wakeup_softirqd();" - RESTART iff pending &&
 * --max_restart != 0, WAKE_KSOFTIRQD if pending otherwise; time and
 * need_resched() play no part (r->end is not used). */
enum softirq_verdict softirq_after_pass_26(struct softirq_run *r, bool pending);

#endif
