/* cpuidle.h - the idle governors that pick a CPU's idle state (pure).
 *
 * When a CPU has nothing to run, cpuidle asks its governor for a state of
 * the driver's table (intel_idle, acpi_idle, haltpoll: shallowest first,
 * each with an exit latency and a target residency), the CPU sleeps in it,
 * and on wake-up the governor is told how long the CPU was idle.  Three
 * governors, as [host] idle names them:
 *
 *   menu  drivers/cpuidle/governors/menu.c: the predicted idle time is the
 *         sleep length (time to the next timer) times a correction factor
 *         learnt per sleep-length bucket (6 buckets, RESOLUTION 1024,
 *         DECAY 8), or the typical interval of the last 8 idle periods
 *         when they are consistent (get_typical_interval: stddev <= 20 us,
 *         or average > 6 stddev, dropping the largest as outliers while at
 *         least 3/4 remain), whichever is less; the deepest state whose
 *         target residency fits the prediction wins.
 *   teo   drivers/cpuidle/governors/teo.c: per state a "hits" metric (the
 *         wake-up came with the timer the sleep length predicted) and an
 *         "intercepts" metric (something else woke the CPU first), both
 *         decayed by 1/8 (DECAY_SHIFT 3) and bumped by PULSE 1024; it
 *         starts from the deepest state the sleep length allows and goes
 *         shallower when the intercepts of the shallower states are more
 *         than half of all recent events, to the deepest state that
 *         still covers half of those intercepts.
 *   poll  idle=poll: no cpuidle, the idle loop spins; always state 0 of
 *         the table as the model counts it, with no exit latency (the
 *         caller reports it as POLL).
 *
 * What the model leaves out: menu's polling-state special cases and its
 * tick-stop decision, teo's recent-intercepts refinements of later
 * versions (the 5.x NR_RECENT logic and the 6.x latency threshold), PM QoS
 * latency limits (only max-cstate limits the depth).  Times are ns.
 */
#ifndef RXLAB_RXLAB_CPUIDLE_H
#define RXLAB_RXLAB_CPUIDLE_H

#include <stdint.h>

#define CPUIDLE_MAX_STATES 10    /* CPUIDLE_STATE_MAX */
#define CPUIDLE_INTERVALS 8      /* menu.c INTERVALS */
#define CPUIDLE_BUCKETS 6        /* menu.c BUCKETS (6 since Linux 6.13) */

enum cpuidle_gov { CPUIDLE_MENU, CPUIDLE_TEO, CPUIDLE_POLL };

/* One state of the driver's table. */
struct cpuidle_state {
	int64_t exit_ns;       /* exit latency */
	int64_t residency_ns;  /* target residency */
};

/* One CPU's governor state.  Zero it with cpuidle_init(). */
struct cpuidle {
	enum cpuidle_gov gov;
	uint8_t n;                         /* usable states (the first n of the table) */
	/* menu */
	uint32_t intervals[CPUIDLE_INTERVALS]; /* last idle periods, us */
	uint8_t interval_ptr;
	uint32_t correction[CPUIDLE_BUCKETS];  /* RESOLUTION * DECAY = no correction */
	uint8_t bucket;                    /* bucket of the last selection */
	/* teo */
	uint32_t hits[CPUIDLE_MAX_STATES];
	uint32_t intercepts[CPUIDLE_MAX_STATES];
	/* the last selection, for cpuidle_reflect() */
	int64_t sleep_len_ns;
};

/* Set up @g for governor @gov over the first @n (1..CPUIDLE_MAX_STATES)
 * states of a table. */
void cpuidle_init(struct cpuidle *g, enum cpuidle_gov gov, uint8_t n);

/* The state (0..n-1) the CPU enters now, for a sleep length (time to the
 * next timer event on the CPU with its tick stopped, > 0) of
 * @sleep_len_ns.  @tick_ns is the tick period (1 s / HZ) and
 * @delta_tick_ns (> 0) the time to the next tick: when the prediction is
 * shorter than a tick, menu and teo keep the tick running, and a state
 * whose target residency exceeds the time to the tick is not worth it: the
 * deepest one within @delta_tick_ns is taken instead (menu_select() and
 * teo_select() with stop_tick false). */
uint8_t cpuidle_select(struct cpuidle *g, const struct cpuidle_state *st, int64_t sleep_len_ns,
		       int64_t tick_ns, int64_t delta_tick_ns);

/* The CPU was idle @measured_ns (>= 0) in the state selected last:
 * update what the governor learns. */
void cpuidle_reflect(struct cpuidle *g, const struct cpuidle_state *st, int64_t measured_ns);

/* menu's get_typical_interval() over g->intervals: the typical idle period
 * in us, or UINT32_MAX when the history is not consistent enough. */
uint32_t cpuidle_typical_interval(const struct cpuidle *g);

#endif
