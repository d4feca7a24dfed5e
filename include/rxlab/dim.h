/* dim.h - Linux DIM (generic Dynamic Interrupt Moderation), net_dim flavour
 * (pure; no OS, no clock).
 *
 * A re-implementation of lib/dim/net_dim.c, lib/dim/dim.c and
 * include/linux/dim.h (Linux v6.18; Documentation/networking/net_dim.rst).
 * The driver feeds cumulative counters; DIM measures one window of
 * DIM_NEVENTS (64) events, turns it into per-millisecond rates and walks a
 * 5-entry profile table (index 0 = least moderation, 4 = most) toward the
 * index that gives the most bytes per ms, then the most packets per ms, then
 * the fewest events per ms.
 *
 * Calling convention (mlx5 en_txrx.c: net_dim() after napi_complete_done()):
 *
 *   res = net_dim(&d, &sample);          every interrupt / poll completion
 *   if (res.changed) {                   DIM is now in DIM_APPLY_NEW_PROFILE
 *       p = dim_profile(table, res.profile_ix);
 *       ...after the work-queue delay, write p to the moderation engine...
 *       dim_applied(&d);                 what the driver's work function does
 *   }
 *
 * Two state machines:
 *   measurement (enum dim_state): START_MEASURE -> MEASURE_IN_PROGRESS ->
 *     (64 events) decision -> restart, or APPLY_NEW_PROFILE when the index
 *     moved; samples are ignored there until dim_applied().
 *   tuning (enum dim_tune_state): PARKING_ON_TOP, PARKING_TIRED,
 *     GOING_RIGHT (toward a larger index), GOING_LEFT.
 *
 * Times are int64_t nanoseconds of one clock chosen by the caller; the rates
 * use whole microseconds as the kernel's ktime_us_delta() does.
 */
#ifndef RXLAB_RXLAB_DIM_H
#define RXLAB_RXLAB_DIM_H

#include <stdbool.h>
#include <stdint.h>

/* include/linux/dim.h: events per measurement window. */
#define DIM_NEVENTS 64
/* lib/dim/net_dim.c NET_DIM_PARAMS_NUM_PROFILES. */
#define DIM_NUM_PROFILES 5
/* lib/dim/net_dim.c net_dim_step(): TOO_TIRED after this many steps. */
#define DIM_TIRED_MAX (2 * DIM_NUM_PROFILES)
/* lib/dim/net_dim.c NET_DIM_DEF_PROFILE_CQE / _EQE: the static default. */
#define DIM_DEF_PROFILE_IX 1

/* include/linux/dim.h struct dim_sample.  The counters are cumulative and
 * wrap: differences are taken modulo 2^16 (events) and 2^32 (packets, bytes),
 * the kernel's BIT_GAP().  comp_ctr (RDMA only) is left out. */
struct dim_sample {
	int64_t t_ns;          /* time of the sample (kernel: ktime_get()) */
	uint32_t pkt_ctr;      /* packets, cumulative, wraps at 2^32 */
	uint32_t byte_ctr;     /* bytes, cumulative, wraps at 2^32 */
	uint16_t event_ctr;    /* interrupts / completion events, wraps at 2^16 */
};

/* include/linux/dim.h struct dim_stats: rates of one window, rounded up
 * (DIV_ROUND_UP).  cpms and cpe_ratio (RDMA only) are left out. */
struct dim_stats {
	uint32_t ppms;         /* packets per millisecond */
	uint32_t bpms;         /* bytes per millisecond */
	uint32_t epms;         /* events per millisecond, from exactly DIM_NEVENTS */
};

/* include/linux/dim.h enum dim_state: the measurement state machine. */
enum dim_state {
	DIM_START_MEASURE = 0,     /* next sample starts a window */
	DIM_MEASURE_IN_PROGRESS,   /* waiting for DIM_NEVENTS events */
	DIM_APPLY_NEW_PROFILE,     /* index moved; samples ignored until dim_applied() */
};

/* include/linux/dim.h enum dim_tune_state: the tuning state machine. */
enum dim_tune_state {
	DIM_PARKING_ON_TOP = 0,    /* found the best index; moves only on a significant change */
	DIM_PARKING_TIRED,         /* stepped DIM_TIRED_MAX times; waits that many windows */
	DIM_GOING_RIGHT,           /* toward a larger index (more moderation) */
	DIM_GOING_LEFT,            /* toward a smaller index (less moderation) */
};

/* include/linux/dim.h enum dim_stats_state: curr compared with prev. */
enum dim_cmp {
	DIM_WORSE = 0,
	DIM_SAME,
	DIM_BETTER,
};

/* include/linux/dim.h enum dim_step_result. */
enum dim_step_result {
	DIM_STEPPED = 0,           /* moved (or parked: counted, no move) */
	DIM_TOO_TIRED,             /* tired == DIM_TIRED_MAX, no move */
	DIM_ON_EDGE,               /* already at index 0 or 4 in the walking direction */
};

/* Invariants: profile_ix < DIM_NUM_PROFILES; tired <= DIM_TIRED_MAX;
 * tune_state is PARKING_TIRED exactly when a decision found tired ==
 * DIM_TIRED_MAX, and tired counts down to 0 there; steps_right and
 * steps_left are 0 in both parking states.  A zeroed struct (dim_init())
 * is START_MEASURE / PARKING_ON_TOP with prev_stats all 0, so the first
 * decision compares BETTER (prev.bpms == 0) and leaves parking. */
struct dim {
	enum dim_state state;          /* measurement state */
	enum dim_tune_state tune_state;
	uint8_t profile_ix;            /* current profile, 0..DIM_NUM_PROFILES-1 */
	uint8_t steps_right;           /* steps right in the current run */
	uint8_t steps_left;            /* steps left in the current run */
	uint8_t tired;                 /* steps since the last park on top */
	struct dim_sample start_sample; /* start of the current window */
	struct dim_stats prev_stats;   /* stats of the window compared against */
	/* counters */
	uint64_t decisions;            /* windows that reached a decision */
	uint64_t profile_changes;      /* decisions that moved profile_ix */
};

/* What one net_dim() call did. */
struct dim_result {
	bool decided;              /* a window closed and a decision ran */
	bool compared;             /* that decision compared stats (false while PARKING_TIRED) */
	enum dim_cmp cmp;          /* the comparison; DIM_SAME when !compared */
	bool changed;              /* profile_ix moved: apply it, then dim_applied() */
	uint8_t profile_ix;        /* profile_ix after the call */
};

/* lib/dim/net_dim.c net_cq_moder: one profile entry. */
struct dim_profile {
	uint32_t usec;             /* CQ moderation timer, microseconds */
	uint32_t pkts;             /* CQ packet-count threshold, completions */
};

/* lib/dim/net_dim.c rx/tx_profile[]: which table.  EQE = timer starts at
 * the first event (coalesce.h COAL_TIMER_ABSOLUTE), CQE = timer restarts on
 * every completion (COAL_TIMER_RESTART). */
enum dim_table {
	DIM_RX_EQE = 0,
	DIM_RX_CQE,
	DIM_TX_EQE,
	DIM_TX_CQE,
};

/* Zeroed state (see struct dim) with profile_ix = @start_ix; a @start_ix
 * out of range is clamped to DIM_NUM_PROFILES-1.  Drivers choose the start
 * (DIM_DEF_PROFILE_IX in the kernel tables, axienet 1). */
void dim_init(struct dim *d, uint8_t start_ix);

/* lib/dim/dim.c dim_calc_stats(): rates of the window @start..@end with
 * wrap-safe counter differences, rounded up; epms counts exactly
 * DIM_NEVENTS events.  Returns false, leaving @out untouched, when the window
 * is shorter than 1 us or time went backwards (no reliable rate).  As in the
 * kernel, the window is counted in whole microseconds held in a u32 (a window
 * longer than 2^32 us, 71 minutes, wraps) and each rate is truncated to u32. */
bool dim_calc_stats(const struct dim_sample *start, const struct dim_sample *end,
		    struct dim_stats *out);

/* lib/dim/net_dim.c net_dim_stats_compare(): bytes, then packets, then
 * events; a change counts only when it is more than 10% of @prev. */
enum dim_cmp dim_stats_compare(const struct dim_stats *curr, const struct dim_stats *prev);

/* lib/dim/net_dim.c net_dim(): feed one sample (counters cumulative, time
 * non-decreasing).  See struct dim_result. */
struct dim_result net_dim(struct dim *d, const struct dim_sample *s);

/* The caller has applied the new profile (the driver's work function sets
 * dim->state = DIM_START_MEASURE): the next sample starts a window. */
void dim_applied(struct dim *d);

/* Entry @ix of table @t, or NULL when @t or @ix is out of range. */
const struct dim_profile *dim_profile(enum dim_table t, uint8_t ix);

#endif
