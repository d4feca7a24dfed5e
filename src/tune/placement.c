/* placement.c - the IRQ / NAPI-thread placements tune tries (see
 * placement.h).
 *
 * Roadmap: configured() reads the scenario's own placement as
 * src/sim/nic.c vector_cpu() places the vectors; spread(), with_app() and
 * apart() make the other vector placements; add() keeps a candidate only
 * when its CPUs differ from every one before it; tune_placement_threaded()
 * adds the kthreads to one of them.
 */
#include "tune/placement.h"

#include <stdio.h>
#include <string.h>

#include "model/server_keys.h"

size_t tune_cpu_list_text(const uint16_t *cpu, size_t n, char *buf, size_t len)
{
	size_t need = 0, same = 1;

	if (len)
		buf[0] = '\0';
	while (same < n && cpu[same] == cpu[0])
		same++;
	if (n > 1 && same == n)
		n = 1;	/* one CPU for every queue: irq-affinity takes it alone */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		char item[16];
		int w;

		while (j + 1 < n && cpu[j + 1] == cpu[j] + 1)
			j++;
		if (j == i)
			w = snprintf(item, sizeof(item), "%s%u", i ? "," : "", cpu[i]);
		else
			w = snprintf(item, sizeof(item), "%s%u-%u", i ? "," : "", cpu[i], cpu[j]);
		if (need + (size_t)w < len)
			memcpy(buf + need, item, (size_t)w + 1);
		need += (size_t)w;
		i = j + 1;
	}
	return need;
}

/* Start candidate @p of kind @k for port @n: its name, queues, no override. */
static void init(struct tune_placement *p, enum tune_place_kind k, const struct scn_nic *n)
{
	static const char *const names[] = { "as-configured", "spread", "with-app", "apart",
					      "threaded" };

	memset(p, 0, sizeof(*p));
	p->kind = k;
	p->name = names[k];
	p->combined = n->combined;
}

/* "nic.PORT.KEY=VALUE" as the next override of @p. */
static void add_set(struct tune_placement *p, const struct scn_nic *n, const char *key,
		    const char *val)
{
	if (p->n_sets < TUNE_PLACE_SETS)
		snprintf(p->set[p->n_sets++], sizeof(p->set[0]), "nic.%s.%s=%s", n->name, key, val);
}

/* @p's CPU list text and, unless @affinity is given, the same as its
 * irq-affinity value; false when it does not fit. */
static bool finish(struct tune_placement *p, const struct scn_nic *n, const char *affinity)
{
	if (tune_cpu_list_text(p->cpu, p->combined, p->cpus, sizeof(p->cpus)) >= sizeof(p->cpus))
		return false;
	snprintf(p->affinity, sizeof(p->affinity), "%s", affinity ? affinity : p->cpus);
	if (n->irq_float)
		add_set(p, n, "irq-cpu", "0");	/* a number ends irq-cpu = float */
	add_set(p, n, "irq-affinity", p->affinity);
	return true;
}

static void configured(const struct scenario *scn, const struct scn_nic *n,
		       struct tune_placement *p)
{
	char how[96];

	init(p, PLACE_CONFIGURED, n);
	p->floating = n->irq_float != 0;
	for (uint32_t q = 0; q < n->combined; q++)
		p->cpu[q] = n->irq_affinity_n ? n->irq_affinity[q]
			  : n->irq_spread ? (uint16_t)(q % scn->host.cpus) : (uint16_t)n->irq_cpu;
	if (p->floating || tune_cpu_list_text(p->cpu, n->combined, p->cpus, sizeof(p->cpus)) >=
			   sizeof(p->cpus))
		snprintf(p->cpus, sizeof(p->cpus), "%s", p->floating ? "float" : "(as configured)");
	if (p->floating)
		snprintf(how, sizeof(how), "irq-cpu = float: no affinity");
	else if (n->irq_affinity_n)
		snprintf(how, sizeof(how), "irq-affinity = %.60s", p->cpus);
	else if (n->irq_spread)
		snprintf(how, sizeof(how), "irq-affinity = spread");
	else
		snprintf(how, sizeof(how), "irq-cpu = %u for every queue", n->irq_cpu);
	for (uint32_t q = 0; q < n->combined; q++)
		p->threaded |= n->napi[q].threaded != 0;
	snprintf(p->reason, sizeof(p->reason), "the scenario's own placement (%s%s)", how,
		 p->threaded ? ", threaded NAPI" : "");
}

static bool spread(const struct scenario *scn, const struct scn_nic *n,
		   struct tune_placement *p)
{
	init(p, PLACE_SPREAD, n);
	for (uint32_t q = 0; q < n->combined; q++)
		p->cpu[q] = (uint16_t)(q % scn->host.cpus);
	snprintf(p->reason, sizeof(p->reason), "queue Q on CPU Q mod %u, the drivers' affinity "
		 "hint (ena_setup_io_intr(); shared/reference/modern-host.md section 2)",
		 scn->host.cpus);
	return finish(p, n, "spread");
}

/* Are the epoll server's workers pinned (server-cpus not all)? */
static bool workers_pinned(const struct scn_apps *a)
{
	return a->server == SERVER_EPOLL && !server_keys_roam(a);
}

static bool with_app(const struct scn_apps *a, const struct scn_nic *n,
		     struct tune_placement *p)
{
	init(p, PLACE_WITH_APP, n);
	if (workers_pinned(a) && a->server_spread == SPREAD_NAPI) {
		for (uint32_t q = 0; q < n->combined; q++)
			p->cpu[q] = a->server_cpu[q % a->server_threads];
		snprintf(p->reason, sizeof(p->reason), "queue Q's IRQ on the CPU of worker Q mod %u, "
			 "which reads it (server-spread = napi, as memcached -N): the stack runs "
			 "where the data is read (scaling.rst, RFS)", a->server_threads);
	} else if (a->server == SERVER_NONE && a->sink) {
		for (uint32_t q = 0; q < n->combined; q++)
			p->cpu[q] = (uint16_t)a->sink_cpu;
		snprintf(p->reason, sizeof(p->reason), "every IRQ on the reading thread's CPU "
			 "(sink-cpu = %u): the stack runs where the data is read (scaling.rst, RFS)",
			 a->sink_cpu);
	} else {
		return false;	/* no thread reads a given queue */
	}
	return finish(p, n, NULL);
}

/* Mark the CPUs an application thread is pinned to in @busy; how many. */
static uint32_t app_cpus(const struct scenario *scn, bool *busy)
{
	const struct scn_apps *a = &scn->apps;
	uint32_t n = 0;

	memset(busy, 0, SCN_MAX_CPUS * sizeof(*busy));
	for (uint32_t w = 0; workers_pinned(a) && w < a->server_threads; w++)
		busy[a->server_cpu[w]] = true;
	if (a->server == SERVER_NONE && a->sink)
		busy[a->sink_cpu] = true;
	if (a->cpu_hogs)
		busy[a->hog_cpu] = true;
	for (uint32_t c = 0; c < scn->host.cpus && c < SCN_MAX_CPUS; c++)
		n += busy[c];
	return n;
}

static bool apart(const struct scenario *scn, const struct scn_nic *n,
		  struct tune_placement *p)
{
	bool busy[SCN_MAX_CPUS];
	uint32_t q = 0;

	init(p, PLACE_APART, n);
	if (app_cpus(scn, busy) == 0)
		return false;	/* no thread is pinned: nothing to keep apart from */
	for (uint32_t c = 0; c < scn->host.cpus && c < SCN_MAX_CPUS && q < n->combined; c++)
		if (!busy[c])
			p->cpu[q++] = (uint16_t)c;
	if (q < n->combined)
		return false;	/* fewer free CPUs than queues */
	snprintf(p->reason, sizeof(p->reason), "IRQs on CPUs no application thread is pinned to: "
		 "softirq work does not take the workers' time (set_irq_affinity, irqbalance; "
		 "shared/reference/modern-host.md section 2)");
	return finish(p, n, NULL);
}

/* Is @p's placement that of one of @list[0..n)? */
static bool seen(const struct tune_placement *list, size_t n, const struct tune_placement *p)
{
	for (size_t i = 0; i < n; i++)
		if (list[i].floating == p->floating && list[i].threaded == p->threaded &&
		    !memcmp(list[i].cpu, p->cpu, p->combined * sizeof(p->cpu[0])))
			return true;
	return false;
}

size_t tune_placements(const struct scenario *scn, int port_ix, struct tune_placement *out,
		       size_t cap)
{
	struct tune_placement c;
	const struct scn_nic *n;
	size_t k = 0;

	if (port_ix < 0 || (uint32_t)port_ix >= scn->n_nics || cap == 0)
		return 0;
	n = &scn->nic[port_ix];
	if (n->combined < 2)
		return 0;
	configured(scn, n, &out[k++]);
	for (enum tune_place_kind kind = PLACE_SPREAD; kind <= PLACE_APART && k < cap; kind++) {
		bool ok = kind == PLACE_SPREAD ? spread(scn, n, &c)
			: kind == PLACE_WITH_APP ? with_app(&scn->apps, n, &c) : apart(scn, n, &c);

		c.threaded = out[0].threaded;	/* they move the vectors only */
		if (ok && !seen(out, k, &c))
			out[k++] = c;
	}
	return k;
}

bool tune_placement_threaded(const struct scenario *scn, int port_ix,
			     const struct tune_placement *base, struct tune_placement *out)
{
	const struct scn_nic *n;

	if (port_ix < 0 || (uint32_t)port_ix >= scn->n_nics || base->floating || base->threaded)
		return false;
	n = &scn->nic[port_ix];
	for (uint32_t q = 0; q < n->combined; q++)
		if (n->napi[q].threaded)
			return false;
	*out = *base;
	out->kind = PLACE_THREADED;
	out->name = "threaded";
	out->threaded = true;
	add_set(out, n, "threaded", "on");
	add_set(out, n, "threaded-cpus", "irq");
	snprintf(out->reason, sizeof(out->reason), "%s's vectors, each NAPI in a kthread pinned to "
		 "its queue's IRQ CPU (napi.rst \"Threaded NAPI\"; modern-host.md section 4.1)",
		 base->name);
	return true;
}
