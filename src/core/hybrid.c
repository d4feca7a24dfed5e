/* hybrid.c - sleep on readiness when packets are sparse, nap on a timer
 * when they are dense, poll when backlogged (see hybrid.h for the four
 * rules and why each holds). */
#include "rxlab/hybrid.h"

#define HYBRID_IDLE_GAP (INT64_MAX / 16)
#define HYBRID_EWMA_SHIFT 3  /* weight 1/8 */
#define HYBRID_WINDOW_GAPS 4
#define HYBRID_NAP_MIN_PKTS 2 /* a nap must be expected to collect this many */

/* Core cannot assert (DESIGN.md): an out-of-range configuration is a
 * result, checked by the caller (the live engine's rxl_config_check() lets
 * none through). */
int hybrid_init(struct hybrid *h, const struct hybrid_config *cfg, int64_t t0_ns)
{
	if (!(cfg->wake_cost_ns > 0 && cfg->spin_max_ns >= 0 && cfg->nap_max_ns >= 0))
		return -1;
	h->cfg = *cfg;
	h->state = HYBRID_SLEEPING;
	h->gap_ns = HYBRID_IDLE_GAP;
	h->t_last_poll_ns = t0_ns;
	h->t_last_pkt_ns = t0_ns;
	h->nap_until_ns = t0_ns;
	h->to_poll = 0;
	h->to_sleep = 0;
	h->to_nap = 0;
	h->naps = 0;
	return 0;
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

int64_t hybrid_nap(const struct hybrid *h)
{
	int64_t nap = h->cfg.nap_max_ns;
	if (nap <= 0 || h->gap_ns >= h->cfg.wake_cost_ns || nap < h->cfg.wake_cost_ns ||
	    HYBRID_NAP_MIN_PKTS * h->gap_ns > nap)
		return 0;
	return nap;
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
		switch (s) {
		case HYBRID_POLLING:
			h->to_poll++;
			break;
		case HYBRID_SLEEPING:
			h->to_sleep++;
			break;
		case HYBRID_NAPPING:
			h->to_nap++;
			break;
		}
		h->state = s;
	}
	switch (s) {
	case HYBRID_POLLING:
		return HYBRID_POLL;
	case HYBRID_NAPPING:
		return HYBRID_NAP;
	case HYBRID_SLEEPING:
		break;
	}
	return HYBRID_SLEEP;
}

static enum hybrid_action hybrid_start_nap(struct hybrid *h, int64_t now_ns, int64_t nap_ns)
{
	h->nap_until_ns = now_ns + nap_ns;
	h->naps++;
	return hybrid_set(h, HYBRID_NAPPING);
}

enum hybrid_action hybrid_after_poll(struct hybrid *h, int64_t now_ns, uint32_t n,
				     uint32_t budget)
{
	if (now_ns < h->t_last_poll_ns)
		now_ns = h->t_last_poll_ns;
	if (n > 0)
		hybrid_sample(h, now_ns, n);
	h->t_last_poll_ns = now_ns;
	if (budget > 0 && n >= budget)  /* a budget of 0 is never full */
		return hybrid_set(h, HYBRID_POLLING);
	if (n == 0 && h->state == HYBRID_NAPPING)  /* a nap found nothing: quiet */
		return hybrid_set(h, HYBRID_SLEEPING);
	int64_t nap = n > 0 || h->state == HYBRID_POLLING ? hybrid_nap(h) : 0;
	if (nap > 0)
		return hybrid_start_nap(h, now_ns, nap);
	if (now_ns - h->t_last_pkt_ns < hybrid_window(h))
		return hybrid_set(h, HYBRID_POLLING);
	return hybrid_set(h, HYBRID_SLEEPING);
}
