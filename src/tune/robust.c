/* robust.c - one setting over several loads, the loss goal, the traps
 * (see robust.h).
 */
#include "tune/robust.h"

#include <stdio.h>
#include <string.h>

double tune_loss_miss(double max_loss_pct, double drop_pct)
{
	struct goal g = { .m = TM_DROP_PCT, .op = GOAL_LE, .limit = max_loss_pct };
	struct tune_metrics m = { { 0 }, 0, 0 };

	m.v[TM_DROP_PCT] = drop_pct;
	return goal_miss(&g, &m);
}

double tune_total_miss(const struct goal *goals, size_t n_goals, double max_loss_pct,
		       const struct tune_metrics *m)
{
	double miss = tune_loss_miss(max_loss_pct, m->max_drop_pct);

	for (size_t i = 0; i < n_goals; i++)
		miss += goal_miss(&goals[i], m);
	return miss;
}

size_t tune_fold_loads(const struct goal *goals, size_t n_goals, double max_loss_pct,
		       const struct tune_metrics *at, const double *load, size_t n,
		       struct tune_metrics *out)
{
	size_t worst = 0;
	double worst_miss = -1.0, max_drop = 0.0;

	for (size_t i = 0; i < n; i++) {
		struct tune_metrics m = at[i];
		double miss;

		m.max_drop_pct = m.v[TM_DROP_PCT];
		miss = tune_total_miss(goals, n_goals, max_loss_pct, &m);
		if (miss >= worst_miss) {	/* >=: among equals, the highest load */
			worst_miss = miss;
			worst = i;
		}
		if (at[i].v[TM_DROP_PCT] > max_drop)
			max_drop = at[i].v[TM_DROP_PCT];
	}
	*out = at[worst];
	out->load_pps = load[worst];
	out->max_drop_pct = max_drop;
	return worst;
}

/* Append one reason to @buf ("; " between reasons). */
static void add_reason(char *buf, size_t len, const char *text)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "%s%s", n ? "; " : "", text);
}

static unsigned no_timer(const struct scn_nic *n, char *buf, size_t len)
{
	char why[200];

	if (n->adaptive_rx != ADAPTIVE_OFF)
		return 0;
	for (uint32_t q = 0; q < n->combined && q < SCN_MAX_QUEUES; q++) {
		const struct scn_qcoal *c = &n->coal[q];

		if (c->rx_frames > 1 && c->rx_usecs_ns == 0) {
			snprintf(why, sizeof(why), "rx-frames %u without a timer (rx-usecs 0): a "
				 "lone frame waits for %u more; with no timer a quiet period never "
				 "flushes it", c->rx_frames, c->rx_frames - 1);
			add_reason(buf, len, why);
			return TUNE_TRAP_NO_TIMER;
		}
	}
	return 0;
}

/* Flows offered to port @name (0 when no source sends to it). */
static uint64_t port_flows(const struct scenario *scn, const char *name)
{
	uint64_t flows = 0;

	for (uint32_t i = 0; i < scn->n_traffic; i++)
		if (!strcmp(scn->traffic[i].port, name))
			flows += scn->traffic[i].flows ? scn->traffic[i].flows : 1;
	return flows;
}

/* The longest the device interrupt of a queue of @n can stay off (ns),
 * and which knob sets it, into @what. */
static int64_t longest_deferral(const struct scn_nic *n, const char **what)
{
	int64_t longest = 0;

	*what = "";
	for (uint32_t q = 0; q < n->combined && q < SCN_MAX_QUEUES; q++) {
		const struct scn_napi *p = &n->napi[q];
		int64_t defer = (int64_t)p->defer_hard_irqs * p->gro_flush_timeout_ns;

		if (defer > longest) {
			longest = defer;
			*what = "napi_defer_hard_irqs x gro_flush_timeout";
		}
		if (p->irq_suspend_timeout_ns > longest) {
			longest = p->irq_suspend_timeout_ns;
			*what = "irq-suspend-timeout";
		}
	}
	return longest;
}

static unsigned defer_ring(const struct scenario *scn, const struct scn_nic *n,
			   double peak_pps, char *buf, size_t len)
{
	uint32_t queues = n->indir_n ? n->indir_n : n->combined;
	uint64_t flows = port_flows(scn, n->name);
	const char *what;
	int64_t defer = longest_deferral(n, &what);
	double per_queue, hold_us;
	char why[320];

	if (defer <= 0 || peak_pps <= 0.0 || queues == 0)
		return 0;
	if (flows && flows < queues)
		queues = (uint32_t)flows;
	per_queue = peak_pps / queues;
	hold_us = 1e6 * n->rx_ring / per_queue;
	if ((double)defer / 1000.0 <= hold_us)
		return 0;
	snprintf(why, sizeof(why), "a deferral of %.0f us (%s) is longer than the %.0f us the "
		 "rx ring of %u descriptors holds at %.0f frames/s per queue: the ring fills "
		 "before the timer fires", (double)defer / 1000.0, what, hold_us, n->rx_ring,
		 per_queue);
	add_reason(buf, len, why);
	return TUNE_TRAP_DEFER_RING;
}

unsigned tune_traps(const struct scenario *scn, int port_ix, double peak_pps, char *buf,
		    size_t len)
{
	const struct scn_nic *n;

	if (len)
		buf[0] = '\0';
	if (port_ix < 0 || (uint32_t)port_ix >= scn->n_nics)
		return 0;
	n = &scn->nic[port_ix];
	return no_timer(n, buf, len) | defer_ring(scn, n, peak_pps, buf, len);
}
