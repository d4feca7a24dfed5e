/* rps.c - Receive Packet Steering, as net/core/dev.c does it without RFS:
 * netif_receive_skb() asks get_rps_cpu() for the CPU of the frame's hash
 * in the RX queue's rps_cpus map (reciprocal_scale over the map,
 * src/core/rss.c), and enqueue_to_backlog() queues it there; a backlog
 * NAPI that this scheduled on another CPU is kicked by an IPI
 * (rps_ipi_queued, sent at the end of net_rx_action), whose handler raises
 * NET_RX there.  A frame for the polling CPU itself goes to its own
 * backlog too, so RPS costs every frame a backlog pass.
 *
 * The poll is one chunk whose frames have exact times in the future of
 * its start; a frame steered at time t waits in the target CPU's inbox
 * until t (one EV_RPS per CPU, at the earliest frame due), so that the
 * target never handles it before the poll got to it.  The IPI is raised
 * then, per frame that scheduled the backlog, not once per pass: the
 * difference is a few hundred ns of IPI handling per net_rx_action.
 */
#include "sim/sim.h"

#include <stdlib.h>

#include "rxlab/rss.h"

#define INBOX_FRAMES 4096

bool rps_on(const struct sim *s, const struct nic *n)
{
	return s->rps && n->cfg->rps_n > 0;
}

static void arm(struct sim *s, struct cpu *c)
{
	struct rps_inbox *in = &s->rps[c->id];
	int64_t t;

	if (!in->q.count)
		return;
	t = pktq_at(&in->q, 0)->t_evt;
	if (t >= in->armed)
		return;
	in->armed = t;
	sim_at(s, t, EV_RPS, c->id, 0);
}

/* Into the inbox in time order (frames mostly come in order: a short walk
 * from the tail). */
static void inbox_insert(struct rps_inbox *in, const struct pkt *p)
{
	uint32_t i = in->q.count;

	in->q.count++;
	while (i > 0 && pktq_at(&in->q, i - 1)->t_evt > p->t_evt) {
		*pktq_at(&in->q, i) = *pktq_at(&in->q, i - 1);
		i--;
	}
	*pktq_at(&in->q, i) = *p;
}

int64_t rps_steer(struct sim *s, struct cpu *c, struct pkt *p, int64_t t)
{
	const struct scn_nic *cfg = s->nic[p->in_nic].cfg;
	uint16_t to = rss_rps_cpu(cfg->rps_cpu, cfg->rps_n, p->hash);
	struct rps_inbox *in = &s->rps[to];

	t += s->prof->netif_rx_ns;
	if (to == c->id) {
		kern_netif_rx(s, c, p);
		return t;
	}
	if (in->q.count == in->q.cap) { /* more in flight than any poll makes */
		sim_fail(s, "RPS inbox full (cpu, frames)", to, in->q.count);
		return t;
	}
	p->t_evt = t;
	inbox_insert(in, p);
	arm(s, &s->cpu[to]);
	return t;
}

void rps_event(struct sim *s, struct cpu *c)
{
	struct rps_inbox *in = &s->rps[c->id];
	bool ipi = false;

	if (in->armed != s->eng.now)
		return; /* an earlier frame re-armed it; that event handles this */
	in->armed = INT64_MAX;
	while (in->q.count && pktq_at(&in->q, 0)->t_evt <= s->eng.now) {
		struct pkt p = pktq_pop(&in->q);

		ipi |= kern_netif_rx(s, c, &p);
	}
	if (ipi)
		cpu_irq(s, c, IRQ_IPI);
	arm(s, c);
}

int rps_init(struct sim *s)
{
	bool any = false;

	for (uint32_t i = 0; i < s->scn->n_nics; i++)
		any |= s->scn->nic[i].rps_n > 0;
	if (!any)
		return 0;
	s->rps = calloc(s->n_cpus, sizeof(*s->rps));
	if (!s->rps)
		return -1;
	for (uint16_t i = 0; i < s->n_cpus; i++) {
		s->rps[i].armed = INT64_MAX;
		if (pktq_init(&s->rps[i].q, INBOX_FRAMES))
			return -1;
	}
	return 0;
}

void rps_free(struct sim *s)
{
	for (uint16_t i = 0; s->rps && i < s->n_cpus; i++)
		pktq_free(&s->rps[i].q);
	free(s->rps);
	s->rps = NULL;
}

uint64_t rps_in_flight(const struct sim *s)
{
	uint64_t n = 0;

	for (uint16_t i = 0; s->rps && i < s->n_cpus; i++)
		n += s->rps[i].q.count;
	return n;
}
