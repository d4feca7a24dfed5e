/* perqueue.c - the pure parts of tune's per-queue stage (see perqueue.h).
 *
 * Roadmap: tune_pq_key() and tune_pq_axes() say which knobs take a value
 * per queue; tune_pq_shares(), tune_pq_unequal() and tune_pq_order() read
 * the queues' load; tune_pq_window() lists the levels a step tries;
 * tune_pq_better() is the rule that keeps a change; tune_pq_list_text()
 * writes a per-queue list as the scenario key takes it.
 */
#include "tune/perqueue.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The keys that take one value per queue (docs/scenarios.md, "[nic]"):
 * the per-NAPI ones (netdev napi-set) first, then ethtool --per-queue's. */
static const char *const napi_keys[] = { "napi_defer_hard_irqs", "gro_flush_timeout",
					 "irq-suspend-timeout", NULL };
static const char *const coal_keys[] = { "rx-usecs", "rx-frames", NULL };

/* Is @key "nic.*.NAME" with NAME in @names? */
static bool nic_key_in(const char *key, const char *const *names)
{
	if (strncmp(key, "nic.*.", 6))
		return false;
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(key + 6, names[i]))
			return true;
	return false;
}

bool tune_pq_key(const char *key, bool coal_per_queue)
{
	return nic_key_in(key, napi_keys) || (coal_per_queue && nic_key_in(key, coal_keys));
}

size_t tune_pq_axes(const struct rxl_scheme *pol, bool coal_per_queue, uint8_t *axis)
{
	size_t n = 0;

	for (size_t k = 0; k < pol->n_axes && k < TUNE_MAX_AXES; k++)
		if (tune_pq_key(pol->axis[k].key, coal_per_queue))
			axis[n++] = (uint8_t)k;
	return n;
}

void tune_pq_shares(const uint64_t *frames, uint32_t n, double *share)
{
	uint64_t sum = 0;

	for (uint32_t q = 0; q < n; q++)
		sum += frames[q];
	for (uint32_t q = 0; q < n; q++)
		share[q] = sum ? (double)frames[q] / (double)sum : 0.0;
}

bool tune_pq_unequal(const double *share, uint32_t n)
{
	double top = 0.0;

	if (n < 2)
		return false;
	for (uint32_t q = 0; q < n; q++)
		top = share[q] > top ? share[q] : top;
	return top >= TUNE_PQ_UNEQUAL / (double)n;
}

size_t tune_pq_order(const double *share, uint32_t n, uint32_t *order)
{
	size_t k = 0;

	for (uint32_t q = 0; q < n; q++) {
		size_t i = k;

		if (!(share[q] > 0.0))
			continue;
		k++;
		/* insertion: after every queue at least as hot (so ties keep queue order) */
		while (i > 0 && share[order[i - 1]] < share[q]) {
			order[i] = order[i - 1];
			i--;
		}
		order[i] = q;
	}
	return k;
}

size_t tune_pq_window(size_t cur, size_t n, uint8_t *out)
{
	size_t k = 0;

	for (size_t d = 1; d <= TUNE_PQ_WINDOW; d++) {
		if (cur >= d)
			out[k++] = (uint8_t)(cur - d);
		if (cur + d < n)
			out[k++] = (uint8_t)(cur + d);
	}
	return k;
}

bool tune_pq_better(const struct tune_state *st, const struct tune_metrics *cur,
		    const struct tune_metrics *cand, double margin)
{
	struct tune_point p = { .m = *cand };
	double a = cur->v[st->objective], b = cand->v[st->objective];

	if (!tune_meets(st, &p) || isnan(a) || isnan(b))
		return false;
	if (st->maximize)
		return b > a + margin * fabs(a);
	return a > 0.0 && b < a - margin * a;
}

size_t tune_pq_list_text(const struct rxl_scheme_axis *axis, const uint8_t *ix, uint32_t n,
			 char *buf, size_t len)
{
	size_t need = 0;

	if (len)
		buf[0] = '\0';
	for (uint32_t q = 0; q < n; q++) {
		const char *v = axis->level[ix[q]];
		size_t w = strlen(v) + (q ? 1 : 0);

		if (need + w < len)
			snprintf(buf + need, len - need, "%s%s", q ? " " : "", v);
		need += w;
	}
	return need;
}
