/* results.c - turn a finished sim's counters into per-second figures. */
#include "sim/results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rxpath_name(enum rxpath p)
{
	switch (p) {
	case RXPATH_CLASSIC:
		return "classic";
	case RXPATH_ISR_LOOP:
		return "isr-loop";
	case RXPATH_NAPI:
		return "napi";
	case RXPATH_BSD_POLL:
		return "bsd-poll";
	case RXPATH_ISR_WHILE:
		return "isr-while";
	}
	return "?";
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

static void nic_diff(struct nic_counters *d, const struct nic_counters *a,
		     const struct nic_counters *b)
{
	const uint64_t *pa = (const uint64_t *)a, *pb = (const uint64_t *)b;
	uint64_t *pd = (uint64_t *)d;

	for (size_t i = 0; i < sizeof(*d) / sizeof(uint64_t); i++)
		pd[i] = pa[i] - pb[i];
}

static void nic_add(struct nic_counters *d, const struct nic_counters *a)
{
	const uint64_t *pa = (const uint64_t *)a;
	uint64_t *pd = (uint64_t *)d;

	for (size_t i = 0; i < sizeof(*d) / sizeof(uint64_t); i++)
		pd[i] += pa[i];
}

/* Queue @i's window counters and interrupts per CPU into r->queue[i] and
 * into its port's sums. */
static void collect_queue(struct results *r, const struct sim *s, uint16_t i)
{
	const struct nic *q = &s->nic[i];
	struct queue_result *o = &r->queue[i];
	struct nic_result *n = &r->nic[q->port];
	const uint64_t *irq = &s->irq_cpu[(size_t)i * s->n_cpus];

	snprintf(o->name, sizeof(o->name), "%s", q->vec);
	o->port = q->port;
	o->qid = q->qid;
	o->irq_cpu = q->irq_cpu;
	nic_diff(&o->c, &q->c, &s->snap.nic[i]);
	nic_add(&n->c, &o->c);
	for (uint16_t c = 0; c < s->n_cpus; c++) {
		n->irq_cpu[c] += irq[c];
		r->queue_irq_cpu[(size_t)i * s->n_cpus + c] = irq[c];
	}
}

static void collect_nics(struct results *r, const struct sim *s)
{
	uint64_t taken = 0, rx_irqs = 0, tx_irqs = 0, irqs = 0, polls = 0, poll_pkts = 0;

	r->n_nics = s->n_ports;
	r->n_queues = s->n_nics;
	for (uint16_t i = 0; i < s->n_ports; i++) {
		snprintf(r->nic[i].name, sizeof(r->nic[i].name), "%s", s->port[i].cfg->name);
		r->gro |= s->port[i].cfg->gro != 0;
	}
	for (uint16_t i = 0; i < s->n_nics; i++)
		collect_queue(r, s, i);
	for (uint16_t i = 0; i < s->n_ports; i++) {
		const struct nic_counters *c = &r->nic[i].c;

		r->wire_pps += (double)(c->entered - c->link_drop);
		r->forwarded_pps += (double)(c->tx_ok - c->tx_replies - c->tx_acks);
		r->replied_pps += (double)c->tx_replies;
		r->delivered_pps += (double)c->delivered;
		r->drop_link += c->link_drop;
		r->drop_fifo += c->rx_ovr;
		r->drop_backlog += c->rx_drp;
		r->drop_qdisc += c->tx_drp;
		r->drop_socket += c->sock_drop;
		taken += c->rx_taken;
		rx_irqs += c->rx_irqs;
		tx_irqs += c->tx_irqs;
		irqs += c->irqs;
		polls += c->polls;
		poll_pkts += c->poll_pkts;
	}
	r->pkts_per_irq = ratio((double)taken, (double)rx_irqs);
	r->pkts_per_poll = ratio((double)poll_pkts, (double)polls);
	r->rx_irqs_per_s = (double)rx_irqs;
	r->tx_irqs_per_s = (double)tx_irqs;
	r->irqs_per_s = (double)irqs;
	r->polls_per_s = (double)polls;
}

/* Which idle states the report names: the profile's usable ones, or the
 * one polling loop of idle = poll. */
static void collect_cstates(struct results *r, const struct sim *s)
{
	bool poll = s->scn->host.idle_gov == CPUIDLE_POLL;

	r->cstates_table = s->prof->cstates_given || poll;
	r->n_cstates = s->n_cpus ? s->cpu[0].gov.n : 0;
	if (poll)
		r->n_cstates = 1;
	for (uint8_t k = 0; k < r->n_cstates; k++)
		snprintf(r->cstate_name[k], sizeof(r->cstate_name[k]), "%s",
			 poll ? "POLL" : s->prof->cstate[k].name);
}

static void collect_cpus(struct results *r, const struct sim *s, double win_ns)
{
	collect_cstates(r, s);
	r->n_cpus = s->n_cpus;
	for (uint16_t i = 0; i < s->n_cpus; i++) {
		struct cpu_result *c = &r->cpu[i];
		const struct softnet_counters *a = &s->cpu[i].sn, *b = &s->snap.sn[i];

		for (int k = 0; k < ACCT_N; k++) {
			c->pct[k] = 100.0 * (double)(s->cpu[i].acct[k] - s->snap.acct[i][k]) / win_ns;
			r->cpu_pct[k] += c->pct[k] / s->n_cpus;
		}
		c->cs = s->cpu[i].cs - s->snap.cs[i];
		for (uint8_t k = 0; k < s->cpu[i].gov.n; k++) {
			c->cstate_pct[k] = 100.0 *
				(double)(s->cpu[i].cstate_ns[k] - s->snap.cstate_ns[i][k]) / win_ns;
			c->cstate_usage[k] = s->cpu[i].cstate_usage[k] - s->snap.cstate_usage[i][k];
		}
		c->sn.processed = a->processed - b->processed;
		c->sn.dropped = a->dropped - b->dropped;
		c->sn.time_squeeze = a->time_squeeze - b->time_squeeze;
		c->sn.ksoftirqd_wakes = a->ksoftirqd_wakes - b->ksoftirqd_wakes;
		c->sn.softirq_runs = a->softirq_runs - b->softirq_runs;
		c->sn.skb_hit = a->skb_hit - b->skb_hit;
		c->sn.skb_miss = a->skb_miss - b->skb_miss;
		c->sn.remote_free = a->remote_free - b->remote_free;
		c->sn.xmit_spin_ns = a->xmit_spin_ns - b->xmit_spin_ns;
		r->skb_table |= c->sn.skb_hit || c->sn.skb_miss || c->sn.remote_free ||
				c->sn.xmit_spin_ns;
		r->cs_per_s += (double)c->cs;
		r->time_squeeze += c->sn.time_squeeze;
	}
}

static void collect_ping(struct results *r, const struct sim *s)
{
	const struct ping *p = &s->ping;
	struct ping_result *o = &r->ping;
	double n = (double)p->received, avg;

	o->on = s->scn->apps.ping;
	if (!o->on)
		return;
	o->finished = p->done;
	o->transmitted = p->sent;
	o->received = p->received;
	o->time_ms = p->sent ? (double)((p->received ? p->t_last : s->eng.now) - p->t_first) / 1e6 : 0;
	o->ipg_ms = p->sent > 1 ? o->time_ms / (double)(p->sent - 1) : NAN;
	if (!p->received) {
		o->rtt_min_ms = o->rtt_avg_ms = o->rtt_max_ms = o->rtt_mdev_ms = o->ewma_ms = NAN;
		return;
	}
	avg = p->rtt_sum / n;
	o->rtt_min_ms = (double)p->rtt_min / 1e6;
	o->rtt_avg_ms = avg / 1e6;
	o->rtt_max_ms = (double)p->rtt_max / 1e6;
	o->rtt_mdev_ms = sqrt(fmax(p->rtt_sum2 / n - avg * avg, 0)) / 1e6;
	o->ewma_ms = (double)p->ewma8 / 8 / 1e6;
}

static void collect_netperf(struct results *r, const struct sim *s, double win_ns)
{
	struct netperf_result *o = &r->netperf;

	o->conns = s->np.n;
	if (!o->conns)
		return;
	o->mbit_s = 8e3 * (double)(netperf_bytes(s) - s->snap.np_bytes) / win_ns;
	o->drops = s->np.drops;
	for (uint16_t i = 0; i < s->n_cpus; i++)
		o->migrations += s->cpu[i].sn.migrations;
}

static void collect_threads(struct results *r, const struct sim *s, double win_ns)
{
	r->n_threads = s->n_threads;
	for (uint16_t i = 0; i < s->n_threads; i++) {
		struct thread_result *t = &r->thr[i];

		snprintf(t->name, sizeof(t->name), "%s", s->thr[i].name);
		t->cpu_ns = s->thr[i].cpu_ns;
		t->cpu = s->thr[i].cpu;
		t->pct = 100.0 * (double)(s->thr[i].cpu_ns - s->snap.thread_ns[i]) / win_ns;
		if (s->thr[i].kind == THR_KSOFTIRQD)
			r->ksoftirqd_pct += t->pct;
		t->busy_poll = s->thr[i].ops == &kern_napi_busy_thread_ops;
		t->spin_pct = NAN;
		if (!t->busy_poll)
			continue;
		t->spin_pct = 100.0 * (double)(kern_spin_ns(&s->thr[i]) - s->snap.spin_ns[i]) / win_ns;
		r->busy_poll_pct += t->pct;
		r->busy_poll = true;
	}
	for (uint16_t i = 0; i < s->n_cpus; i++)
		r->migrations += s->cpu[i].sn.migrations;
}

const double results_cdf_q[RESULTS_CDF_N] = {
	0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999, 1,
};

static void collect_latency(struct results *r, const struct sim *s)
{
	for (size_t i = 0; i < RESULTS_CDF_N; i++)
		r->lat_cdf_us[i] = s->lat.n ? (double)hist_quantile(&s->lat, results_cdf_q[i]) / 1e3
					    : NAN;
	r->lat_samples = s->lat.n;
	r->lat_p50_us = (double)hist_quantile(&s->lat, 0.50) / 1e3;
	r->lat_p99_us = (double)hist_quantile(&s->lat, 0.99) / 1e3;
	r->lat_p999_us = (double)hist_quantile(&s->lat, 0.999) / 1e3;
	r->lat_max_us = s->lat.n ? (double)s->lat.max / 1e3 : 0;
	r->lat_mean_us = hist_mean(&s->lat) / 1e3;
	if (s->lat.n == 0)
		r->lat_p50_us = r->lat_p99_us = r->lat_p999_us = r->lat_max_us = r->lat_mean_us = NAN;
}

/* Turn window totals into per-second rates. */
static void per_second(struct results *r)
{
	double *rates[] = { &r->wire_pps, &r->forwarded_pps, &r->delivered_pps, &r->replied_pps,
			    &r->irqs_per_s,
			    &r->rx_irqs_per_s, &r->tx_irqs_per_s, &r->polls_per_s, &r->cs_per_s };

	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		*rates[i] /= r->window_s;
}

int results_collect(struct results *r, const struct sim *s)
{
	const struct scenario *scn = s->scn;
	double win_ns = (double)(s->eng.now - s->snap.t);

	memset(r, 0, sizeof(*r));
	snprintf(r->scenario, sizeof(r->scenario), "%s", scn->name);
	r->rxpath = rxpath_name(scn->host.rxpath);
	r->window_s = win_ns / 1e9;
	r->partial = s->partial;
	r->t_end = s->eng.now;
	for (uint32_t i = 0; i < scn->n_traffic; i++)
		r->offered_pps += (double)scn->traffic[i].rate_pps;
	if (win_ns <= 0)
		return -ENODATA;
	r->cpu = calloc(s->n_cpus, sizeof(*r->cpu));
	r->thr = calloc(s->n_threads ? s->n_threads : 1, sizeof(*r->thr));
	r->queue = calloc(s->n_nics, sizeof(*r->queue));
	r->queue_irq_cpu = calloc((size_t)s->n_nics * s->n_cpus, sizeof(*r->queue_irq_cpu));
	if (!r->cpu || !r->thr || !r->queue || !r->queue_irq_cpu)
		return -ENOMEM;
	collect_nics(r, s);
	collect_cpus(r, s, win_ns);
	collect_threads(r, s, win_ns);
	collect_ping(r, s);
	collect_netperf(r, s, win_ns);
	collect_latency(r, s);
	if (sock_collect(&r->server, s, win_ns))
		return -ENOMEM;
	per_second(r);
	r->drops_total = r->drop_link + r->drop_fifo + r->drop_backlog + r->drop_qdisc +
			 r->drop_socket;
	for (uint16_t i = 0; i < s->n_nics; i++)
		r->in_flight += nic_in_flight(&s->nic[i]);
	for (uint16_t i = 0; i < s->n_cpus; i++)
		r->in_flight += s->cpu[i].backlog.count;
	r->in_flight += rps_in_flight(s);
	r->in_flight += sock_in_flight(s);
	r->events = s->eng.handled;
	r->series_lost = s->series.lost;
	if (s->vm.n) {
		r->vm = malloc(s->vm.n * sizeof(*r->vm));
		if (!r->vm)
			return -ENOMEM;
		memcpy(r->vm, s->vm.p, s->vm.n * sizeof(*r->vm));
		r->n_vm = s->vm.n;
	}
	if (s->series.n) {
		r->series = malloc(s->series.n * sizeof(*r->series));
		if (!r->series)
			return -ENOMEM;
		memcpy(r->series, s->series.p, s->series.n * sizeof(*r->series));
		r->n_series = s->series.n;
	}
	return 0;
}

void results_free(struct results *r)
{
	free(r->cpu);
	free(r->thr);
	free(r->queue);
	free(r->queue_irq_cpu);
	r->queue = NULL;
	r->queue_irq_cpu = NULL;
	r->n_queues = 0;
	free(r->series);
	free(r->vm);
	free(r->server.w);
	r->server.w = NULL;
	r->server.n_workers = 0;
	r->vm = NULL;
	r->n_vm = 0;
	r->cpu = NULL;
	r->thr = NULL;
	r->series = NULL;
	r->n_series = 0;
}
