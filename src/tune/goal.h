/* goal.h - what `rxlab tune` is asked for: goals ("p99<=50us") and an
 * objective ("--minimize cpu"), judged on the figures of one run.
 *
 * A goal is METRIC OP VALUE with OP one of <=, <, >=, >:
 *   p50, p99, p999   latency percentiles, a time: p99<=50us, p999<2ms
 *   cpu              busy CPU, % of the host's CPUs (100 - idle): cpu<=40%
 *   throughput       frames delivered or forwarded per second: throughput>=80kpps
 *   drops            frames dropped in the window: drops<=0, or a share of
 *                    the frames that reached the ports: drops<=0.1%
 *   irqs             device interrupts per second: irqs<=20000 (or 20000/s)
 * An objective is one of those metric names; `cpu`, the latencies, drops
 * and irqs are minimised, throughput maximised.
 */
#ifndef RXLAB_TUNE_GOAL_H
#define RXLAB_TUNE_GOAL_H

#include <stdbool.h>
#include <stddef.h>

enum tune_metric {
	TM_P50,        /* us */
	TM_P99,        /* us */
	TM_P999,       /* us */
	TM_CPU,        /* % busy, mean over CPUs */
	TM_THROUGHPUT, /* frames/s delivered + forwarded */
	TM_DROPS,      /* frames dropped in the window */
	TM_DROP_PCT,   /* drops / frames that reached the ports, % */
	TM_IRQS,       /* device interrupts/s */
	TM_N
};

/* The figures of one run a goal can look at.  NaN = not measured (no
 * latency sample), which meets no goal.  A setting run at several loads
 * (tune/robust.h) is judged by the figures of its worst load, with the
 * two fields after v[] saying which load that was and its highest loss. */
struct tune_metrics {
	double v[TM_N];
	double load_pps;       /* offered rate (frames/s) or trace-speed of the load
				* whose figures v[] holds; 0: the scenario's own */
	double max_drop_pct;   /* highest v[TM_DROP_PCT] over the loads (one load: its own) */
};

enum goal_op { GOAL_LE, GOAL_LT, GOAL_GE, GOAL_GT };

struct goal {
	enum tune_metric m;
	enum goal_op op;
	double limit;          /* in the metric's unit (see enum tune_metric) */
	char text[64];         /* as the user wrote it, blanks removed */
};

/* Parse "p99<=50us" into @g.  0, or -1 with a message in @err naming the
 * goal and what is accepted. */
int goal_parse(struct goal *g, const char *text, char *err, size_t errlen);

/* Does @m meet @g? */
bool goal_met(const struct goal *g, const struct tune_metrics *m);

/* How far @m misses @g, relative to the limit (0 when met; 1 for a
 * latency twice the limit; a large constant for a missing figure), so
 * misses of different goals can be added up. */
double goal_miss(const struct goal *g, const struct tune_metrics *m);

/* Parse an objective ("cpu", "p99", "throughput", ...) into @m and
 * whether it is maximised (throughput) or minimised.  0, or -1 with a
 * message. */
int objective_parse(const char *text, enum tune_metric *m, bool *maximize, char *err,
		    size_t errlen);

/* Name of @m as goals write it ("p99"), and its unit for headers ("us"). */
const char *tune_metric_name(enum tune_metric m);
const char *tune_metric_unit(enum tune_metric m);

#endif
