/* trap.c - settings known to be traps (see trap.h). */
#include "tune/trap.h"

#include <math.h>
#include <stdio.h>

struct tune_trap_knobs tune_trap_knobs_of(const struct scenario *scn, int port_ix)
{
	const struct scn_nic *n = &scn->nic[port_ix < 0 ? 0 : port_ix];
	uint32_t q = n->indir_n ? n->indir_n : n->combined;

	return (struct tune_trap_knobs){
		.adaptive = n->adaptive_rx != ADAPTIVE_OFF, .rx_usecs_ns = n->rx_usecs_ns,
		.rx_frames = n->rx_frames, .defer_hard_irqs = n->napi[0].defer_hard_irqs,
		.gro_flush_timeout_ns = n->napi[0].gro_flush_timeout_ns,
		.irq_suspend_timeout_ns = n->napi[0].irq_suspend_timeout_ns,
		.rx_ring = n->rx_ring, .queues = q ? q : 1,
	};
}

/* Append "; " (unless @n, the reasons so far, is 0) and one reason, @fmt
 * with up to four numbers, to @buf at @used; cut at @len.  Returns the
 * new length (at least @len once cut). */
static size_t add(char *buf, size_t len, size_t used, size_t n, const char *fmt, double a,
		  double b, double c, double d)
{
	int w;

	if (used >= len)
		return used;
	w = snprintf(buf + used, len - used, "%s", n ? "; " : "");
	if (w > 0 && used + (size_t)w < len)
		used += (size_t)w;
	w = snprintf(buf + used, len - used, fmt, a, b, c, d);
	return w > 0 ? used + (size_t)w : used;
}

size_t tune_traps(const struct tune_trap_knobs *k, double peak_pps, char *buf, size_t len)
{
	size_t n = 0, used = 0;
	double defer_us = 0.0, hold_us;

	if (len)
		buf[0] = '\0';
	if (!k->adaptive && k->rx_usecs_ns == 0 && k->rx_frames > 1)
		used = add(buf, len, used, n++, "no timer: rx-frames %.0f with rx-usecs 0, a lone "
			   "frame waits for %.0f more", k->rx_frames, k->rx_frames - 1.0, 0, 0);
	if (k->defer_hard_irqs && k->gro_flush_timeout_ns > 0)
		defer_us = (double)k->defer_hard_irqs * (double)k->gro_flush_timeout_ns / 1000.0;
	if ((double)k->irq_suspend_timeout_ns / 1000.0 > defer_us)
		defer_us = (double)k->irq_suspend_timeout_ns / 1000.0;
	if (isnan(peak_pps) || peak_pps <= 0.0 || defer_us == 0.0)
		return n;
	hold_us = 1e6 * (double)k->rx_ring / (peak_pps / (double)k->queues);
	if (defer_us > hold_us)
		add(buf, len, used, n++, "deferral %.0f us is longer than the rx ring of "
			   "%.0f descriptors holds at the peak %.0f frames/s per queue (%.0f us)", defer_us,
			   k->rx_ring, peak_pps / (double)k->queues, hold_us);
	return n;
}
