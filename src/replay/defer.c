/* defer.c - NAPI completion with IRQ deferral (src/core/napi.c) on
 * recorded polls (see replay/mechanisms.h): napi_complete_done() and
 * napi_poll_finish() per row, the IRQ and the NAPI hrtimer kept on the
 * driver's side.
 */
#include "replay/mechanisms.h"

#include <stdbool.h>

#include "rxlab/napi.h"

const char *const defer_cols[] = { "time_ns", "work", NULL };

struct table *defer_table_new(void)
{
	struct table *t = table_new("replay_defer", "napi_complete_done() after each poll");

	table_add_col(t, "time_ns", "time_ns", -1);
	table_add_col(t, "work", "work", -1);
	table_add_col(t, "trigger", "trigger", -1);
	table_add_col(t, "action", "action", -1);
	table_add_col(t, "timer_at_ns", "timer_at_ns", -1);
	table_add_col(t, "defer_left", "defer_left", -1);
	return t;
}

/* The driver side: is the IRQ enabled, when does the NAPI hrtimer expire. */
struct defer_host {
	struct napi n;
	bool irq_armed;
	int64_t timer_ns;          /* absolute expiry, NEVER = not armed */
};

/* Who scheduled this poll, as far as the decisions so far tell: still
 * scheduled after a full poll, the hrtimer (napi_watchdog()), the IRQ
 * (napi_schedule_prep()), or something else while the IRQ was masked and
 * the timer not yet due (a busy poller, or a gap in the recording). */
static const char *defer_trigger(struct defer_host *h, int64_t t_ns)
{
	if (h->n.state & NAPI_SCHED)
		return "repoll";
	if (h->timer_ns <= t_ns) {
		h->timer_ns = NEVER;
		napi_watchdog(&h->n);
		return "timer";
	}
	napi_schedule_prep(&h->n);
	if (h->irq_armed) {
		h->irq_armed = false;
		return "irq";
	}
	return "other";
}

/* The poll returned @work: the driver completes if it did less than its
 * weight (napi_complete_done()), then __napi_poll() (napi_poll_finish()). */
static const char *defer_finish(struct defer_host *h, int64_t t_ns, uint32_t work)
{
	struct napi_done d = { false, false, 0 };

	if (work < h->n.weight)
		d = napi_complete_done(&h->n, work, false);
	if (napi_poll_finish(&h->n, work).next == NAPI_NEXT_REPOLL)
		return "repoll";
	h->timer_ns = d.timer_ns > 0 ? add_sat(t_ns, d.timer_ns) : NEVER;
	h->irq_armed = d.rearm_irq;
	if (d.reschedule)
		return "reschedule";
	if (d.rearm_irq)
		return d.timer_ns > 0 ? "irq-rearmed+timer" : "irq-rearmed";
	return d.timer_ns > 0 ? "timer-armed" : "none";
}

int defer_replay(struct csv *c, const struct replay_opts *o, struct table *t)
{
	struct defer_host h = { .irq_armed = true, .timer_ns = NEVER };
	int64_t tn = 0;
	uint64_t work;
	int rc;

	napi_init(&h.n, (uint32_t)o->weight);
	napi_set_defer(&h.n, (uint32_t)o->defer_hard_irqs, (int64_t)o->gro_flush_timeout_ns);
	while ((rc = csv_next(c)) == 1) {
		const char *trigger, *action;

		if (csv_time(c, 0, &tn) || csv_u64(c, 1, o->weight, &work))
			return -1;
		trigger = defer_trigger(&h, tn);
		action = defer_finish(&h, tn, (uint32_t)work);
		table_row(t);
		table_i64(t, tn);
		table_u64(t, work);
		table_str(t, trigger);
		table_str(t, action);
		if (h.timer_ns != NEVER)
			table_i64(t, h.timer_ns);
		else
			table_str(t, NULL);
		table_u64(t, h.n.defer_count);
	}
	return rc;
}
