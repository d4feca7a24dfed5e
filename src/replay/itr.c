/* itr.c - e1000's InterruptThrottleRate (src/core/itr.c) on recorded
 * interrupt cycles (see replay/mechanisms.h): itr_on_irq_done() per row,
 * with e1000_watchdog()'s itr_on_watchdog() every 2 s in mode 4.
 */
#include "replay/mechanisms.h"

#include <stdbool.h>

#include "rxlab/itr.h"

/* e1000_watchdog() runs every 2 s (e1000_main.c round_jiffies(jiffies + 2 * HZ)). */
#define ITR_WATCHDOG_NS ((int64_t)(2 * SEC))

const char *const itr_cols[] = { "time_ns", "rx_packets", "rx_bytes", "tx_packets",
				 "tx_bytes", NULL };

static const char *itr_class_name(enum itr_class c)
{
	switch (c) {
	case ITR_LOWEST_LATENCY:
		return "lowest";
	case ITR_LOW_LATENCY:
		return "low";
	case ITR_BULK_LATENCY:
		return "bulk";
	}
	return "?";
}

/* The rate e1000_set_itr() aims at (itr.h ITR_RATE_*); in the other modes
 * the current rate is its own target. */
static uint32_t itr_target(const struct itr *t, enum itr_outcome out)
{
	enum itr_class c = t->rx_class > t->tx_class ? t->rx_class : t->tx_class;

	switch (out) {
	case ITR_NOT_DYNAMIC:
	case ITR_OLD_MAC:
		return t->itr;
	case ITR_LINK_NOT_1000:
		return ITR_RATE_BULK;
	case ITR_CLASSIFIED:
		break;
	}
	return itr_class_rate(c);
}

struct table *itr_table_new(void)
{
	struct table *t = table_new("replay_itr", "e1000 ITR after each interrupt");

	table_add_col(t, "time_ns", "time_ns", -1);
	table_add_col(t, "rx_class", "rx_class", -1);
	table_add_col(t, "tx_class", "tx_class", -1);
	table_add_col(t, "target_ints_per_s", "target/s", -1);
	table_add_col(t, "itr_ints_per_s", "itr/s", -1);
	table_add_col(t, "reg", "ITR", -1);
	table_add_col(t, "gap_ns", "gap_ns", -1);
	table_add_col(t, "changed", "changed", -1);
	return t;
}

static void itr_row(struct table *t, int64_t time_ns, const struct itr *s,
		    const struct itr_decision *d, bool changed)
{
	bool dyn = s->mode == ITR_DYNAMIC || s->mode == ITR_DYNAMIC_CONSERVATIVE;

	table_row(t);
	table_i64(t, time_ns);
	table_str(t, dyn ? itr_class_name(s->rx_class) : NULL);
	table_str(t, dyn ? itr_class_name(s->tx_class) : NULL);
	table_u64(t, itr_target(s, d->outcome));
	table_u64(t, d->itr);
	table_u64(t, d->reg);
	table_i64(t, d->gap_ns);
	table_str(t, changed ? "yes" : "no");
}

/* Mode 4: e1000_watchdog() every 2 s from the first row, with the bytes
 * (GOTCL / GORCL) of the rows before each run. */
struct itr_wd {
	int64_t next_ns;
	uint64_t tx_bytes, rx_bytes;
};

/* The watchdog runs due by @t_ns.  After two runs in a row the bytes are
 * zero and every further run sets the same rate (itr_simplified(0, 0)):
 * only the core's run counter would tell them apart, so a long gap in the
 * recording is skipped in one step instead of one run per 2 s (a gap of
 * years was billions of runs).  Times saturate at INT64_MAX. */
static void itr_watchdogs(struct itr *s, struct itr_wd *w, int64_t t_ns)
{
	int runs = 0;

	if (w->next_ns == NEVER)
		w->next_ns = add_sat(t_ns, ITR_WATCHDOG_NS);
	while (w->next_ns <= t_ns && w->next_ns != NEVER) {
		if (runs++ == 2) {
			w->next_ns += (t_ns - w->next_ns) / ITR_WATCHDOG_NS * ITR_WATCHDOG_NS;
		} else {
			itr_on_watchdog(s, w->tx_bytes, w->rx_bytes);
			w->tx_bytes = w->rx_bytes = 0;
		}
		w->next_ns = add_sat(w->next_ns, ITR_WATCHDOG_NS);
	}
}

int itr_replay(struct csv *c, const struct replay_opts *o, struct table *t)
{
	struct itr s;
	struct itr_wd w = { NEVER, 0, 0 };
	int rc;

	itr_init(&s, &o->itr, (uint32_t)(o->link_bps / 1000000));
	while ((rc = csv_next(c)) == 1) {
		uint64_t v[4];
		uint32_t before = s.itr;
		struct itr_decision d;
		int64_t tn = 0;

		if (csv_time(c, 0, &tn))
			return -1;
		for (size_t i = 0; i < 4; i++)
			if (csv_u64(c, i + 1, UINT32_MAX, &v[i]))
				return -1;
		itr_watchdogs(&s, &w, tn);
		d = itr_on_irq_done(&s, (uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2],
				    (uint32_t)v[3]);
		w.rx_bytes += v[1];
		w.tx_bytes += v[3];
		itr_row(t, tn, &s, &d, s.itr != before);
	}
	return rc;
}
