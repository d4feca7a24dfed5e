/* hybrid.c - poll while busy, sleep when idle (see hybrid.h). */
#include "rxlab/hybrid.h"

#define HYBRID_IDLE_GAP (INT64_MAX / 16)
#define HYBRID_EWMA_SHIFT 3  /* weight 1/8 */
#define HYBRID_WINDOW_GAPS 4

void hybrid_init(struct hybrid *h, const struct hybrid_config *cfg, int64_t t0_ns)
{
	h->cfg = *cfg;
	h->state = HYBRID_SLEEPING;
	h->gap_ns = HYBRID_IDLE_GAP;
	h->t_last_poll_ns = t0_ns;
	h->t_last_pkt_ns = t0_ns;
	h->to_poll = 0;
	h->to_sleep = 0;
}

int64_t hybrid_window(const struct hybrid *h)
{
	if (h->gap_ns >= h->cfg.wake_cost_ns)
		return 0;
	int64_t w = HYBRID_WINDOW_GAPS * h->gap_ns;
	if (w < h->cfg.wake_cost_ns)
		w = h->cfg.wake_cost_ns;
	if (w > h->cfg.spin_max_ns)
		w = h->cfg.spin_max_ns;
	return w;
}

/* Fold the gap seen by a productive poll into the estimate: the time since
 * the previous productive poll over the packets found, so empty polls in
 * between (spinning) do not shrink it.  After idle the estimate restarts
 * from the sample instead of averaging with "idle". */
static void hybrid_sample(struct hybrid *h, int64_t now_ns, uint32_t n)
{
	int64_t dt = now_ns - h->t_last_pkt_ns;
	if (dt < 0)
		dt = 0;
	int64_t sample = dt / (int64_t)n;
	if (h->gap_ns >= HYBRID_IDLE_GAP)
		h->gap_ns = sample;
	else
		h->gap_ns += (sample - h->gap_ns) / (1 << HYBRID_EWMA_SHIFT);
	h->t_last_pkt_ns = now_ns;
}

static enum hybrid_action hybrid_set(struct hybrid *h, enum hybrid_state s)
{
	if (s != h->state) {
		if (s == HYBRID_POLLING)
			h->to_poll++;
		else
			h->to_sleep++;
		h->state = s;
	}
	return s == HYBRID_POLLING ? HYBRID_POLL : HYBRID_SLEEP;
}

enum hybrid_action hybrid_after_poll(struct hybrid *h, int64_t now_ns, uint32_t n,
				     uint32_t budget)
{
	if (now_ns < h->t_last_poll_ns)
		now_ns = h->t_last_poll_ns;
	if (n > 0)
		hybrid_sample(h, now_ns, n);
	h->t_last_poll_ns = now_ns;
	if (n > 0 && n >= budget)
		return hybrid_set(h, HYBRID_POLLING);
	if (now_ns - h->t_last_pkt_ns < hybrid_window(h))
		return hybrid_set(h, HYBRID_POLLING);
	return hybrid_set(h, HYBRID_SLEEPING);
}
