/* sweep.c - runs points, one simulation each. */
#include "cli/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/interrupt.h"
#include "cli/scenario_load.h"
#include "cli/units.h"
#include "report/sim_report.h"
#include "sim/results.h"

int run_one(struct results *r, const char *name, const char *const *sets, size_t n_sets,
	    char *err, size_t errlen)
{
	struct scenario *scn = malloc(sizeof(*scn));
	struct sim *s = malloc(sizeof(*s));
	int rc = -1;

	if (!scn || !s) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (scenario_load(scn, name, sets, n_sets, err, errlen))
		goto out;
	if (sim_init(s, scn) == 0) {
		s->stop = &rxlab_signal;
		if (sim_run(s) == 0 && results_collect(r, s) == 0)
			rc = 0;
	}
	if (rc)
		snprintf(err, errlen, "%s: %s", scn->name, s->fatal[0] ? s->fatal : "run failed");
	sim_free(s);
out:
	free(scn);
	free(s);
	return rc;
}

/* Kinds a range endpoint may be written in, tried in this order. */
static const enum unit_kind range_kinds[] = { UNIT_PPS, UNIT_BPS, UNIT_TIME_NS, UNIT_BYTES,
					      UNIT_COUNT };

static int parse_pair(const char *a, const char *b, enum unit_kind *kind, uint64_t *va,
		      uint64_t *vb)
{
	for (size_t i = 0; i < sizeof(range_kinds) / sizeof(range_kinds[0]); i++) {
		if (unit_parse(range_kinds[i], a, va, NULL, 0) == UNIT_OK &&
		    unit_parse(range_kinds[i], b, vb, NULL, 0) == UNIT_OK) {
			*kind = range_kinds[i];
			return 0;
		}
	}
	return -1;
}

static int vary_range(struct vary *v, const char *spec, char *err, size_t errlen)
{
	char a[48] = "", b[48] = "";
	const char *dots = strstr(spec, ".."), *colon = strrchr(spec, ':');
	enum unit_kind kind;
	uint64_t va, vb;
	long n;
	char *end;

	if (!dots || !colon || colon < dots || (size_t)(dots - spec) >= sizeof(a) ||
	    (size_t)(colon - dots - 2) >= sizeof(b)) {
		snprintf(err, errlen, "--vary %s: a range is FROM..TO:N, e.g. 10kpps..2Mpps:20",
			 v->key);
		return -1;
	}
	memcpy(a, spec, (size_t)(dots - spec));
	memcpy(b, dots + 2, (size_t)(colon - dots - 2));
	n = strtol(colon + 1, &end, 10);
	if (*end || n < 2 || n > SWEEP_MAX_VALUES) {
		snprintf(err, errlen, "--vary %s: N = '%s' must be a whole number of points in 2..%d",
			 v->key, colon + 1, SWEEP_MAX_VALUES);
		return -1;
	}
	if (parse_pair(a, b, &kind, &va, &vb)) {
		snprintf(err, errlen, "--vary %s: '%s' and '%s' are not two values with the same "
			 "kind of unit (e.g. 10kpps..2Mpps)", v->key, a, b);
		return -1;
	}
	v->n = (size_t)n;
	v->val = calloc(v->n, sizeof(*v->val));
	if (!v->val)
		return -1;
	for (size_t i = 0; i < v->n; i++) {
		__int128 x = (__int128)va + ((__int128)vb - (__int128)va) * (__int128)i / (n - 1);

		unit_format(kind, (uint64_t)x, v->val[i], sizeof(v->val[i]));
	}
	return 0;
}

static int vary_list(struct vary *v, const char *spec, char *err, size_t errlen)
{
	const char *p = spec;

	v->n = 1;
	for (const char *q = spec; *q; q++)
		v->n += *q == ',';
	v->val = calloc(v->n, sizeof(*v->val));
	if (!v->val)
		return -1;
	for (size_t i = 0; i < v->n; i++) {
		size_t len = strcspn(p, ",");

		if (len == 0 || len >= sizeof(v->val[i])) {
			snprintf(err, errlen, "--vary %s: empty or too long value in list '%s'",
				 v->key, spec);
			return -1;
		}
		memcpy(v->val[i], p, len);
		p += len + 1;
	}
	return 0;
}

int vary_parse(struct vary *v, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');

	memset(v, 0, sizeof(*v));
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(v->key) || !eq[1]) {
		snprintf(err, errlen, "--vary '%s': expected KEY=LIST or KEY=FROM..TO:N, "
			 "e.g. traffic.rate=10kpps..2Mpps:20 or host.rxpath=classic,napi", arg);
		return -1;
	}
	memcpy(v->key, arg, (size_t)(eq - arg));
	if (strstr(eq + 1, ".."))
		return vary_range(v, eq + 1, err, errlen);
	return vary_list(v, eq + 1, err, errlen);
}

void vary_free(struct vary *v)
{
	free(v->val);
	v->val = NULL;
}

/* Point @idx of the product: fills sets[n_sets..] with "key=value". */
static void point_sets(const struct vary *vary, size_t n_vary, size_t idx,
		       char buf[][160], size_t *pick)
{
	for (size_t k = n_vary; k-- > 0;) {
		pick[k] = idx % vary[k].n;
		idx /= vary[k].n;
		snprintf(buf[k], 160, "%s=%s", vary[k].key, vary[k].val[pick[k]]);
	}
}

int sweep_run(struct table *t, const char *name, const char *const *sets, size_t n_sets,
	      const struct vary *vary, size_t n_vary, bool wide, struct point_brief *brief,
	      char *err, size_t errlen)
{
	size_t total = 1, pick[SWEEP_MAX_VARY];
	char buf[SWEEP_MAX_VARY][160];
	const char **all = calloc(n_sets + SWEEP_MAX_VARY, sizeof(*all));
	int rc = 0;

	if (!all)
		return -1;
	for (size_t k = 0; k < n_vary; k++)
		total *= vary[k].n;
	for (size_t i = 0; i < n_sets; i++)
		all[i] = sets[i];
	for (size_t p = 0; p < total && rc == 0 && !rxlab_signal; p++) {
		struct results r;

		point_sets(vary, n_vary, p, buf, pick);
		for (size_t k = 0; k < n_vary; k++)
			all[n_sets + k] = buf[k];
		rc = run_one(&r, name, all, n_sets + n_vary, err, errlen);
		if (rc)
			break;
		table_row(t);
		for (size_t k = 0; k < n_vary; k++)
			if (!vary[k].hidden)
				table_str(t, vary[k].val[pick[k]]);
		summary_row(t, &r, wide);
		if (brief)
			brief[p] = (struct point_brief){ r.offered_pps, r.forwarded_pps,
							 r.rx_irqs_per_s };
		results_free(&r);
	}
	free(all);
	return rc;
}
