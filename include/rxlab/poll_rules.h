/* poll_rules.h - the poll-or-sleep rules of three receive loops that users
 * pick today, from their documented behaviour (pure; no OS, no clock).
 *
 *   DPDK l3fwd-power (examples/l3fwd-power/main.c): count consecutive empty
 *     polls of a queue; up to MIN_ZERO_POLL_COUNT (10) keep polling; then
 *     rte_delay_us(1) (MINIMUM_SLEEP_TIME) per empty poll while the count is
 *     below SUSPEND_THRESHOLD (300); from 300 on, enable the RX interrupt and
 *     sleep until it fires.  Any packet resets the count.
 *   ixy (src/interrupts.c check_interrupt(), ixgbe.c rx_batch): every
 *     `interval` (INTERRUPT_INITIAL_INTERVAL, 1 s) the packets received since
 *     the last check become a rate in packets per ms; the mean of the last
 *     MOVING_AVERAGE_RANGE (5) rates decides: above INTERRUPT_THRESHOLD
 *     (1200 ppms = 1.2 Mpps) poll, else if the batch that triggered the check
 *     was full poll, else sleep on the interrupt before each batch.
 *   Seastar reactor (--idle-poll-time-us, default 200): after the last poll
 *     that found work keep polling for idle_poll_ns, then sleep.
 *
 * Each takes the result of every poll and returns enum rule_action; the
 * caller sleeps on readiness, pauses or polls again.  Times are int64_t
 * nanoseconds of one clock chosen by the caller.
 *
 * Kernel drivers have such a rule too: when a NAPI ->poll() completes
 * (re-enables its interrupt, RULE_SLEEP) or keeps the device on the poll
 * list (RULE_POLL); see enum napi_exit_rule below ([nic] poll-exit).
 */
#ifndef RXLAB_RXLAB_POLL_RULES_H
#define RXLAB_RXLAB_POLL_RULES_H

#include <stdbool.h>
#include <stdint.h>

enum rule_action {
	RULE_POLL = 0,     /* poll again now */
	RULE_PAUSE,        /* busy-wait pause_ns (no sleep), then poll */
	RULE_SLEEP,        /* wait for readiness, then poll */
};

/* ---- DPDK l3fwd-power ---- */
#define DPDK_MIN_ZERO_POLL_COUNT 10u   /* l3fwd-power MIN_ZERO_POLL_COUNT */
#define DPDK_SUSPEND_THRESHOLD 300u    /* l3fwd-power SUSPEND_THRESHOLD */
#define DPDK_MIN_SLEEP_NS 1000         /* l3fwd-power MINIMUM_SLEEP_TIME, 1 us */

struct dpdk_power {
	uint32_t pause_polls;    /* empty polls before pausing (10) */
	uint32_t sleep_polls;    /* empty polls before sleeping (300), > pause_polls */
	uint32_t zero_polls;     /* consecutive empty polls (zero_rx_packet_count) */
	uint64_t pauses, sleeps; /* decisions taken */
};

void dpdk_power_init(struct dpdk_power *d, uint32_t pause_polls, uint32_t sleep_polls);
/* A poll returned @n packets: RULE_POLL while n > 0 or zero_polls <=
 * pause_polls, RULE_PAUSE below sleep_polls, then RULE_SLEEP (the count
 * restarts at 0 after a sleep decision, as the interrupt wake-up does). */
enum rule_action dpdk_power_after_poll(struct dpdk_power *d, uint32_t n);

/* ---- ixy ---- */
#define IXY_MOVING_AVERAGE_RANGE 5u     /* ixy MOVING_AVERAGE_RANGE */
#define IXY_MAX_SAMPLES 64u
#define IXY_THRESHOLD_PPMS 1200u        /* ixy INTERRUPT_THRESHOLD, packets per ms */
#define IXY_INTERVAL_NS 1000000000      /* ixy INTERRUPT_INITIAL_INTERVAL */

/* Invariants: length <= samples <= IXY_MAX_SAMPLES; index < samples;
 * sum is the sum of the first `length` rates. */
struct ixy_rule {
	uint32_t samples;        /* moving average length, 1..IXY_MAX_SAMPLES */
	uint64_t threshold_ppms; /* poll above this mean rate, packets per ms */
	int64_t interval_ns;     /* time between rate samples, > 0 */
	bool interrupt_enabled;  /* the decision: sleep before each batch */
	int64_t t_checked_ns;    /* last_time_checked */
	uint64_t rx_pkts;        /* packets since the last check */
	uint32_t index, length;
	uint64_t sum;
	uint64_t rates[IXY_MAX_SAMPLES];
	uint64_t checks;         /* rate samples taken */
};

/* Interrupts enabled, nothing measured, clock started at @t0_ns. */
void ixy_rule_init(struct ixy_rule *x, uint32_t samples, uint64_t threshold_ppms,
		   int64_t interval_ns, int64_t t0_ns);
/* A poll that asked for @budget packets returned @n at @now_ns.  When
 * interval_ns has passed since the last check a rate sample is taken and
 * interrupt_enabled is decided.  Returns RULE_SLEEP when interrupts are
 * enabled (sleep before the next batch), RULE_POLL otherwise.  A sample
 * over less than 1 ms counts as rate 0 (ixy divides by whole ms). */
enum rule_action ixy_rule_after_poll(struct ixy_rule *x, int64_t now_ns, uint32_t n,
				     uint32_t budget);

/* ---- Seastar ---- */
#define SEASTAR_IDLE_POLL_NS 200000     /* --idle-poll-time-us 200 */

struct seastar_rule {
	int64_t idle_poll_ns;    /* poll this long after the last work */
	int64_t t_last_work_ns;  /* last poll that found packets (or the wake-up) */
	uint64_t sleeps;
};

void seastar_rule_init(struct seastar_rule *s, int64_t idle_poll_ns, int64_t t0_ns);
/* The loop woke from a sleep at @now_ns: the idle clock restarts. */
void seastar_rule_woken(struct seastar_rule *s, int64_t now_ns);
/* A poll returned @n at @now_ns: RULE_POLL while packets come or less than
 * idle_poll_ns passed since the last ones, else RULE_SLEEP. */
enum rule_action seastar_rule_after_poll(struct seastar_rule *s, int64_t now_ns, uint32_t n);

/* ---- a NAPI driver's ->poll() ---- */

/* When the driver completes ([nic] poll-exit). */
enum napi_exit_rule {
	/* budget: complete when the poll took fewer frames than it could
	 * (work < weight): NAPI_HOWTO's contract and every driver since the
	 * napi_struct of 2.6.24 (napi_complete_done(), e100.c of today). */
	NAPI_EXIT_BUDGET = 0,
	/* idle: complete only when the poll cleaned no RX frame and no TX
	 * descriptor; any work keeps the device listed ("return 1").  2.6.12's
	 * e100.c 3.3.6-k2 e100_poll(): "If no Rx and Tx cleanup work was done,
	 * exit polling mode", and e1000 6.0.54-k2 (2.6.12.1) e1000_clean(). */
	NAPI_EXIT_IDLE = 1,
};

/* A poll that could take @limit frames took @rx and cleaned @tx TX
 * descriptors: RULE_SLEEP when the driver completes, RULE_POLL when it
 * stays on the poll list.  A full poll (rx >= limit) always stays. */
enum rule_action napi_exit_after_poll(enum napi_exit_rule r, uint32_t rx, uint32_t tx,
				      uint32_t limit);

#endif
