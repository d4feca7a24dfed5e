/* goal.c - parsing and judging tuning goals (see goal.h). */
#include "tune/goal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/units.h"

static const struct {
	const char *name, *unit;
} metrics[TM_N] = {
	[TM_P50] = { "p50", "us" },         [TM_P99] = { "p99", "us" },
	[TM_P999] = { "p999", "us" },       [TM_CPU] = { "cpu", "%" },
	[TM_THROUGHPUT] = { "throughput", "pps" },
	[TM_DROPS] = { "drops", "frames" }, [TM_DROP_PCT] = { "drops", "%" },
	[TM_IRQS] = { "irqs", "/s" },
};

/* A missing figure counts as this much of a miss. */
#define MISS_UNMEASURED 1e6

const char *tune_metric_name(enum tune_metric m)
{
	return metrics[m].name;
}

const char *tune_metric_unit(enum tune_metric m)
{
	return metrics[m].unit;
}

static const char accepted[] = "accepted METRIC OP VALUE with METRIC p50, p99, p999, cpu, "
			       "throughput, drops or irqs and OP <=, <, >= or >, e.g. p99<=50us, "
			       "cpu<=40%, throughput>=80kpps, drops<=0.1%, irqs<=20000";

static int metric_of(const char *name, size_t len, enum tune_metric *m)
{
	static const char *const alias[][2] = { { "interrupts", "irqs" }, { "p99.9", "p999" } };

	for (size_t i = 0; i < sizeof(alias) / sizeof(alias[0]); i++)
		if (strlen(alias[i][0]) == len && !strncmp(name, alias[i][0], len))
			name = alias[i][1], len = strlen(name);
	for (int i = 0; i < TM_N; i++) {
		if (strlen(metrics[i].name) == len && !strncmp(name, metrics[i].name, len)) {
			*m = (enum tune_metric)i;
			return 0;
		}
	}
	return -1;
}

/* A percentage "40%" or "0.1%" (bare numbers too for cpu): 0..100. */
static int parse_pct(const char *v, double *out)
{
	char buf[40];
	size_t n = strlen(v);
	uint64_t x;

	if (n && v[n - 1] == '%')
		n--;
	if (n == 0 || n >= 32)
		return -1;
	/* thousandths of a percent, exactly: "0.125" read as 0.125 us */
	snprintf(buf, sizeof(buf), "%.*sus", (int)n, v);
	if (unit_parse(UNIT_TIME_NS, buf, &x, NULL, 0) != UNIT_OK || x > 100000)
		return -1;
	*out = (double)x / 1000.0;
	return 0;
}

/* Drops: a count of frames, or with '%' a share (the metric becomes
 * TM_DROP_PCT).  0, or -1 with @why. */
static int parse_drops(struct goal *g, const char *v, char *why, size_t whylen)
{
	size_t n = strlen(v);
	uint64_t x;

	if (n && v[n - 1] == '%') {
		g->m = TM_DROP_PCT;
		if (parse_pct(v, &g->limit) == 0)
			return 0;
	} else if (unit_parse(UNIT_COUNT, v, &x, NULL, 0) == UNIT_OK) {
		g->limit = (double)x;
		return 0;
	}
	snprintf(why, whylen, "not a number of frames or a percentage 0..100, e.g. 0 or 0.1%%");
	return -1;
}

/* Interrupts per second: a whole number, optionally followed by "/s". */
static int parse_irqs(struct goal *g, const char *v, char *why, size_t whylen)
{
	size_t n = strlen(v);
	char buf[48];
	uint64_t x;

	snprintf(buf, sizeof(buf), "%.*s", (int)(n > 2 && !strcmp(v + n - 2, "/s") ? n - 2 : n), v);
	if (unit_parse(UNIT_COUNT, buf, &x, NULL, 0) == UNIT_OK) {
		g->limit = (double)x;
		return 0;
	}
	snprintf(why, whylen, "not a whole number of interrupts per second, e.g. 20000");
	return -1;
}

/* A value of @kind divided by @div into g->limit.  0, or -1 with @why. */
static int parse_unit(struct goal *g, enum unit_kind kind, double div, const char *v,
		      char *why, size_t whylen)
{
	uint64_t x;

	if (unit_parse(kind, v, &x, why, whylen) != UNIT_OK)
		return -1;
	g->limit = (double)x / div;
	return 0;
}

/* The value of goal @g from @v; -1 with a message. */
static int parse_limit(struct goal *g, const char *v, char *err, size_t errlen)
{
	char why[160] = "";
	int rc = -1;

	switch (g->m) {
	case TM_P50: case TM_P99: case TM_P999:
		rc = parse_unit(g, UNIT_TIME_NS, 1000.0, v, why, sizeof(why));
		break;
	case TM_CPU:
		rc = parse_pct(v, &g->limit);
		if (rc)
			snprintf(why, sizeof(why), "not a percentage 0..100, e.g. 40%%");
		break;
	case TM_THROUGHPUT:
		rc = parse_unit(g, UNIT_PPS, 1.0, v, why, sizeof(why));
		break;
	case TM_DROPS: case TM_DROP_PCT:
		rc = parse_drops(g, v, why, sizeof(why));
		break;
	case TM_IRQS:
		rc = parse_irqs(g, v, why, sizeof(why));
		break;
	case TM_N:
		break;
	}
	if (rc)
		snprintf(err, errlen, "--goal '%s': '%s' is %s", g->text, v, why);
	return rc;
}

int goal_parse(struct goal *g, const char *text, char *err, size_t errlen)
{
	static const char *const ops[] = { "<=", "<", ">=", ">" };
	char s[64];
	size_t n = 0, name_len;
	const char *op;

	for (const char *p = text; *p; p++) {
		if (*p == ' ' || *p == '\t')
			continue;
		if (n + 1 == sizeof(s)) {
			snprintf(err, errlen, "--goal '%.80s...': too long (at most 63 characters "
				 "besides blanks); %s", text, accepted);
			return -1;
		}
		s[n++] = *p;
	}
	s[n] = '\0';
	memset(g, 0, sizeof(*g));
	snprintf(g->text, sizeof(g->text), "%s", s);
	name_len = strcspn(s, "<>");
	op = s + name_len;
	if (!*op || name_len == 0 || metric_of(s, name_len, &g->m)) {
		snprintf(err, errlen, "--goal '%s': %s", text, accepted);
		return -1;
	}
	for (int i = 0; i < 4; i++) {
		if (!strncmp(op, ops[i], strlen(ops[i]))) {
			g->op = (enum goal_op)i;
			op += strlen(ops[i]);
			break;
		}
	}
	if (!*op) {
		snprintf(err, errlen, "--goal '%s': no value after the operator; %s", text, accepted);
		return -1;
	}
	return parse_limit(g, op, err, errlen);
}

bool goal_met(const struct goal *g, const struct tune_metrics *m)
{
	double v = m->v[g->m];

	if (isnan(v))
		return false;
	switch (g->op) {
	case GOAL_LE: return v <= g->limit;
	case GOAL_LT: return v < g->limit;
	case GOAL_GE: return v >= g->limit;
	case GOAL_GT: return v > g->limit;
	}
	return false;
}

double goal_miss(const struct goal *g, const struct tune_metrics *m)
{
	double v = m->v[g->m], scale = fabs(g->limit) > 1e-9 ? fabs(g->limit) : 1.0;

	if (isnan(v))
		return MISS_UNMEASURED;
	if (goal_met(g, m))
		return 0.0;
	/* a strict bound missed by equality still misses: count a tiny amount */
	if (g->op == GOAL_LE || g->op == GOAL_LT)
		return v > g->limit ? (v - g->limit) / scale : 1e-9;
	return v < g->limit ? (g->limit - v) / scale : 1e-9;
}

int objective_parse(const char *text, enum tune_metric *m, bool *maximize, char *err,
		    size_t errlen)
{
	if (metric_of(text, strlen(text), m)) {
		snprintf(err, errlen, "--minimize %s: accepted p50, p99, p999, cpu, drops, irqs "
			 "(or --maximize throughput)", text);
		return -1;
	}
	*maximize = *m == TM_THROUGHPUT;
	return 0;
}
