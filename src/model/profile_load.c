/* profile_load.c - read a hardware cost profile (see profile_load.h).
 *
 * The [cost] keys are one table: INI key, unit kind and field.  Every key
 * of the original table is required: a profile that silently fell back to
 * some default cost would produce plausible-looking, wrong figures.  Keys
 * of mechanisms added later (sched-wake, gro-pkt, cold-wake, cold-after,
 * hrtimer-irq) are optional and default to 0, which leaves the
 * mechanism's cost out (hrtimer-irq to irq-entry, what the timer's
 * interrupt cost before the key), so that profiles written before them
 * (and by other hosts' live calibrate) still load and mean what they
 * meant.
 *
 * [cstates] lists the CPU's idle states, shallowest first, one per line:
 *   NAME = EXIT-LATENCY TARGET-RESIDENCY [POWER]
 *   C1E = 4us 4us
 *   C6  = 170us 600us 1200mW
 * as cpuidle's sysfs gives them (stateK/name, latency, residency).  With
 * it, idle-exit must be left out or 0 (each state has its own exit).
 */
#include "model/profile_load.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/builtin.h"
#include "model/ini.h"
#include "model/units.h"

#define COST_NS_MAX 1000000ULL  /* 1 ms: a million cycles; no single event costs more */
#define COST_PS_MAX 1000000ULL  /* 1 us per byte, in ps: slower than any bus */
#define MHZ_MIN 100             /* ghz = 0.1: below any CPU that runs Linux with NAPI */
#define MHZ_MAX 10000           /* ghz = 10: above any shipped core clock */

struct cost_key {
	const char *key;
	enum unit_kind kind; /* UNIT_TIME_NS or UNIT_TIME_PS */
	size_t off;          /* int64_t field in struct profile */
	bool optional;       /* may be left out (0) */
};

#define COST(k, kind, m) { k, kind, offsetof(struct profile, m), false }
#define COST_OPT(k, kind, m) { k, kind, offsetof(struct profile, m), true }
static const struct cost_key costs[] = {
	COST("irq-entry", UNIT_TIME_NS, irq_entry_ns),
	COST("isr", UNIT_TIME_NS, isr_ns),
	COST("reg-read", UNIT_TIME_NS, reg_read_ns),
	COST("rx-pkt", UNIT_TIME_NS, rx_pkt_ns),
	COST("netif-rx", UNIT_TIME_NS, netif_rx_ns),
	COST("backlog-pkt", UNIT_TIME_NS, backlog_pkt_ns),
	COST("napi-poll", UNIT_TIME_NS, napi_poll_ns),
	COST("softirq-entry", UNIT_TIME_NS, softirq_entry_ns),
	COST("dma-fixed", UNIT_TIME_NS, dma_fixed_ns),
	COST("dma-per-byte", UNIT_TIME_PS, dma_ps_per_byte),
	COST("fwd-pkt", UNIT_TIME_NS, fwd_pkt_ns),
	COST("copy-per-byte", UNIT_TIME_PS, copy_ps_per_byte),
	COST("tx-clean-pkt", UNIT_TIME_NS, tx_clean_pkt_ns),
	COST("skb-alloc", UNIT_TIME_NS, skb_alloc_ns),
	COST("remote-free", UNIT_TIME_NS, remote_free_ns),
	COST("xmit-locked", UNIT_TIME_NS, xmit_locked_ns),
	COST("ctx-switch", UNIT_TIME_NS, ctx_switch_ns),
	COST("idle-exit", UNIT_TIME_NS, idle_exit_ns),
	COST("local-deliver", UNIT_TIME_NS, local_deliver_ns),
	COST("syscall", UNIT_TIME_NS, syscall_ns),
	COST_OPT("sched-wake", UNIT_TIME_NS, sched_wake_ns),
	COST_OPT("gro-pkt", UNIT_TIME_NS, gro_pkt_ns),
	COST_OPT("cold-wake", UNIT_TIME_NS, cold_wake_ns),
	COST_OPT("cold-after", UNIT_TIME_NS, cold_after_ns),
	COST_OPT("hrtimer-irq", UNIT_TIME_NS, hrtimer_irq_ns),
};
#define N_COSTS (sizeof(costs) / sizeof(costs[0]))

static const char *const cost_names[] = {
	"irq-entry", "isr", "reg-read", "rx-pkt", "netif-rx", "backlog-pkt", "napi-poll",
	"softirq-entry", "dma-fixed", "dma-per-byte", "fwd-pkt", "copy-per-byte",
	"tx-clean-pkt", "skb-alloc", "remote-free", "xmit-locked", "ctx-switch", "idle-exit",
	"local-deliver", "syscall", "sched-wake", "gro-pkt", "cold-wake", "cold-after",
	"hrtimer-irq", NULL,
};
_Static_assert(sizeof(cost_names) / sizeof(cost_names[0]) == N_COSTS + 1,
               "cost_names[] must list every key of costs[]");
static const char *const profile_keys[] = { "name", "description", "ghz", NULL };
static const char *const sections[] = { "profile", "cost", "cstates", NULL };

/* One load: the document and where messages go. */
struct pload {
	struct ini_doc d;
	struct profile *p;
	bool seen[N_COSTS];
	char *err;
	size_t errlen;
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int bad(struct pload *l, int line, const char *fmt, ...)
{
	char where[256], msg[512];
	va_list ap;

	ini_where(&l->d, line, NULL, where, sizeof(where));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(l->err, l->errlen, "%s: %s", where, msg);
	return -EINVAL;
}

static int unknown_key(struct pload *l, const struct ini_section *s, const struct ini_entry *e,
                       const char *const *keys)
{
	const char *near = ini_suggest(e->key, keys);
	char label[96];

	ini_section_label(s, label, sizeof(label));
	if (near)
		return bad(l, e->line, "unknown key '%s' in %s; did you mean '%s'?", e->key, label,
		           near);
	return bad(l, e->line, "unknown key '%s' in %s", e->key, label);
}

static int copy_string(struct pload *l, const struct ini_entry *e, char *dst, size_t size)
{
	if (strlen(e->value) >= size)
		return bad(l, e->line, "%s is too long (at most %zu characters)", e->key, size - 1);
	memcpy(dst, e->value, strlen(e->value) + 1);
	return 0;
}

/* "ghz = D[.DDD]": a plain decimal in GHz, read exactly into MHz (no
 * binary floating point: 0.933 is 933, never 932).  Digits past MHZ_MAX
 * are not accumulated, so a long number is out of range, never wrapped. */
static int read_ghz(struct pload *l, const struct ini_entry *e)
{
	const char *c = e->value;
	uint64_t mhz = 0;
	int frac = -1; /* digits after the point; -1: no point yet */

	for (; *c; c++) {
		if (*c == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*c < '0' || *c > '9' || frac == 3)
			break;
		if (mhz <= MHZ_MAX)
			mhz = mhz * 10 + (uint64_t)(*c - '0');
		frac += frac >= 0;
	}
	if (e->value[0] < '0' || e->value[0] > '9' || frac == 0 || *c)
		return bad(l, e->line, "ghz = %s: not a number of GHz with at most three decimals; "
		           "write e.g. ghz = 2.1 (accepted 0.1..10)", e->value);
	for (int k = frac < 0 ? 0 : frac; k < 3; k++)
		mhz *= 10;
	if (mhz < MHZ_MIN || mhz > MHZ_MAX)
		return bad(l, e->line, "ghz = %s is out of range: accepted 0.1..10 (the nominal "
		           "core clock in GHz; leave ghz out when it is unknown)", e->value);
	l->p->mhz = (uint32_t)mhz;
	return 0;
}

static int read_profile_section(struct pload *l, const struct ini_section *s)
{
	for (size_t i = 0; i < s->n_ent; i++) {
		const struct ini_entry *e = s->ent[i];
		int rc;

		if (strcmp(e->key, "name") == 0)
			rc = copy_string(l, e, l->p->name, sizeof(l->p->name));
		else if (strcmp(e->key, "description") == 0)
			rc = copy_string(l, e, l->p->description, sizeof(l->p->description));
		else if (strcmp(e->key, "ghz") == 0)
			rc = read_ghz(l, e);
		else
			rc = unknown_key(l, s, e, profile_keys);
		if (rc)
			return rc;
	}
	return 0;
}

static int read_cost(struct pload *l, const struct ini_entry *e, size_t k)
{
	const struct cost_key *c = &costs[k];
	uint64_t max = c->kind == UNIT_TIME_PS ? COST_PS_MAX : COST_NS_MAX, v;
	int64_t sv;
	char msg[384];

	if (unit_parse_key(c->kind, e->key, e->value, 0, max, NULL, &v, msg, sizeof(msg)))
		return bad(l, e->line, "%s", msg);
	sv = (int64_t)v; /* v <= max < INT64_MAX */
	memcpy((char *)l->p + c->off, &sv, sizeof(sv));
	l->seen[k] = true;
	return 0;
}

static int read_cost_section(struct pload *l, const struct ini_section *s)
{
	for (size_t i = 0; i < s->n_ent; i++) {
		const struct ini_entry *e = s->ent[i];
		size_t k;
		int rc;

		for (k = 0; k < N_COSTS && strcmp(costs[k].key, e->key) != 0; k++)
			;
		rc = k < N_COSTS ? read_cost(l, e, k) : unknown_key(l, s, e, cost_names);
		if (rc)
			return rc;
	}
	return 0;
}

/* POWER of a [cstates] line: a whole number of mW or W ("900mW", "2W"). */
static int read_power(struct pload *l, const struct ini_entry *e, const char *t, uint32_t *mw)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(t, &end, 10);
	if (t[0] >= '0' && t[0] <= '9' && errno == 0 && v <= 1000000) {
		if (strcmp(end, "mW") == 0)
			return (*mw = (uint32_t)v), 0;
		if (strcmp(end, "W") == 0 && v <= 1000)
			return (*mw = (uint32_t)v * 1000), 0;
	}
	return bad(l, e->line, "%s = %s: power '%s' is not a whole number of mW or W "
	           "(accepted 0mW..1000W, e.g. 1200mW)", e->key, e->value, t);
}

/* One time field of a [cstates] line, 0..1 s. */
static int read_state_time(struct pload *l, const struct ini_entry *e, const char *what,
			   const char *t, int64_t *ns)
{
	char key[64], msg[384];
	uint64_t v;

	snprintf(key, sizeof(key), "%s %s", e->key, what);
	if (unit_parse_key(UNIT_TIME_NS, key, t, 0, 1000000000ULL, NULL, &v, msg, sizeof(msg)))
		return bad(l, e->line, "%s (a line of [cstates] is NAME = EXIT-LATENCY "
		           "TARGET-RESIDENCY [POWER], e.g. C6 = 170us 600us)", msg);
	*ns = (int64_t)v;
	return 0;
}

/* "NAME = EXIT RESIDENCY [POWER]": split on blanks into at most 3 fields. */
static int read_cstate(struct pload *l, const struct ini_entry *e, struct profile_cstate *st)
{
	char buf[128], *f[4] = { 0 }, *save = NULL;
	int n = 0, rc;

	if (strlen(e->key) >= sizeof(st->name))
		return bad(l, e->line, "state name '%s' is too long (at most %zu characters)",
		           e->key, sizeof(st->name) - 1);
	/* the name becomes report columns (C6_pct): letters, digits, '_', '-' */
	if (strspn(e->key, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") !=
	    strlen(e->key))
		return bad(l, e->line, "state name '%s': use letters, digits, '_' and '-' only "
		           "(as cpuidle names them: POLL, C1E, C6)", e->key);
	snprintf(buf, sizeof(buf), "%s", e->value);
	for (char *t = strtok_r(buf, " \t", &save); t && n < 4; t = strtok_r(NULL, " \t", &save))
		f[n++] = t;
	if (n < 2 || n > 3)
		return bad(l, e->line, "%s = %s: a line of [cstates] is NAME = EXIT-LATENCY "
		           "TARGET-RESIDENCY [POWER], e.g. C6 = 170us 600us", e->key, e->value);
	snprintf(st->name, sizeof(st->name), "%s", e->key);
	rc = read_state_time(l, e, "exit latency", f[0], &st->exit_ns);
	if (rc == 0)
		rc = read_state_time(l, e, "target residency", f[1], &st->residency_ns);
	if (rc == 0 && n == 3)
		rc = read_power(l, e, f[2], &st->power_mw);
	return rc;
}

/* [cstates]: the states in file order, shallowest first; each at least as
 * deep as the one before (exit latency and residency do not decrease). */
static int read_cstates_section(struct pload *l, const struct ini_section *s)
{
	struct profile *p = l->p;

	if (s->n_ent == 0 || s->n_ent > PROFILE_MAX_CSTATES)
		return bad(l, s->line, "[cstates] lists %zu states: accepted 1..%d", s->n_ent,
		           PROFILE_MAX_CSTATES);
	for (size_t i = 0; i < s->n_ent; i++) {
		struct profile_cstate *st = &p->cstate[i];
		int rc = read_cstate(l, s->ent[i], st);

		if (rc)
			return rc;
		if (i && (st->exit_ns < st[-1].exit_ns || st->residency_ns < st[-1].residency_ns))
			return bad(l, s->ent[i]->line, "state %s is shallower than %s before it: list "
			           "[cstates] shallowest first (exit latency and target residency "
			           "must not decrease)", st->name, st[-1].name);
	}
	p->n_cstates = (uint8_t)s->n_ent;
	p->cstates_given = true;
	return 0;
}

static int read_section(struct pload *l, const struct ini_section *s)
{
	const char *near;

	if (strcmp(s->kind, "profile") != 0 && strcmp(s->kind, "cost") != 0 &&
	    strcmp(s->kind, "cstates") != 0) {
		near = ini_suggest(s->kind, sections);
		if (near)
			return bad(l, s->line, "unknown section [%s]; did you mean [%s]?", s->kind, near);
		return bad(l, s->line, "unknown section [%s]; a profile has [profile], [cost] and "
		           "[cstates]", s->kind);
	}
	if (s->name[0])
		return bad(l, s->line, "section [%s] takes no name (found '%s')", s->kind, s->name);
	if (strcmp(s->kind, "profile") == 0)
		return read_profile_section(l, s);
	if (strcmp(s->kind, "cstates") == 0)
		return read_cstates_section(l, s);
	return read_cost_section(l, s);
}

/* idle-exit and [cstates] are two ways of saying one thing: without the
 * table, idle-exit is a one-state table (C1, residency 0); with it,
 * idle-exit may only be 0 (or left out). */
static int check_cstates(struct pload *l, const struct ini_section *s)
{
	struct profile *p = l->p;
	const struct ini_entry *e = s ? ini_find(s, "idle-exit") : NULL;

	if (p->cstates_given) {
		if (p->idle_exit_ns)
			return bad(l, e ? e->line : 0, "idle-exit = %s and [cstates] both give the "
			           "exit latency of an idle CPU: leave idle-exit out (each state "
			           "has its own)", e ? e->value : "?");
		return 0;
	}
	p->n_cstates = 1;
	snprintf(p->cstate[0].name, sizeof(p->cstate[0].name), "C1");
	p->cstate[0].exit_ns = p->idle_exit_ns;
	return 0;
}

/* xmit-locked is the part of fwd-pkt done under the xmit lock. */
static int check_xmit_locked(struct pload *l, const struct ini_section *s)
{
	const struct ini_entry *e = ini_find(s, "xmit-locked");

	if (l->p->xmit_locked_ns <= l->p->fwd_pkt_ns)
		return 0;
	return bad(l, e ? e->line : s->line,
	           "xmit-locked = %s is out of range: accepted 0ns..fwd-pkt (%" PRId64
	           "ns); it is the part of fwd-pkt done under the device's xmit lock",
	           e ? e->value : "?", l->p->fwd_pkt_ns);
}

/* Every cost of the original table is required (idle-exit too, unless
 * [cstates] gives the states): name all that are missing at once. */
static int check_complete(struct pload *l)
{
	const struct ini_section *s = ini_find_section(&l->d, "cost", "");
	char list[512] = "";
	size_t n = 0;

	for (size_t k = 0; k < N_COSTS; k++) {
		if (l->seen[k] || costs[k].optional ||
		    (l->p->cstates_given && strcmp(costs[k].key, "idle-exit") == 0))
			continue;
		if (n++)
			strncat(list, ", ", sizeof(list) - strlen(list) - 1);
		strncat(list, costs[k].key, sizeof(list) - strlen(list) - 1);
	}
	if (n == 0)
		return check_xmit_locked(l, s) ? -EINVAL : check_cstates(l, s);
	if (!s)
		return bad(l, 0, "no [cost] section; a profile sets every cost: %s", list);
	return bad(l, s->line, "[cost] is missing %s: %s (every cost is required)",
	           n == 1 ? "a key" : "keys", list);
}

/* The index of @key in costs[] (a key of the table). */
static size_t cost_index(const char *key)
{
	size_t k = 0;

	while (k + 1 < N_COSTS && strcmp(costs[k].key, key) != 0)
		k++;
	return k;
}

/* Default name: basename of @origin without ".ini". */
static void default_name(struct profile *p, const char *origin)
{
	const char *b = strrchr(origin, '/');
	size_t n;

	b = b ? b + 1 : origin;
	n = strlen(b);
	if (n > 4 && strcmp(b + n - 4, ".ini") == 0)
		n -= 4;
	if (n >= sizeof(p->name))
		n = sizeof(p->name) - 1;
	memcpy(p->name, b, n);
	p->name[n] = '\0';
}

int profile_load_text(struct profile *p, const char *text, const char *origin, char *err,
                      size_t errlen)
{
	struct pload l = { .p = p, .err = err, .errlen = errlen };
	int rc;

	memset(p, 0, sizeof(*p));
	default_name(p, origin);
	rc = ini_parse(&l.d, text, origin, err, errlen);
	for (size_t i = 0; rc == 0 && i < l.d.n_sec; i++)
		rc = read_section(&l, l.d.sec[i]);
	if (rc == 0)
		rc = check_complete(&l);
	if (rc == 0 && !l.seen[cost_index("hrtimer-irq")])
		p->hrtimer_irq_ns = p->irq_entry_ns; /* what a profile without it always meant */
	ini_free(&l.d);
	return rc;
}

static void list_builtin_profiles(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct builtin_file *f = builtin_files; f->name; f++) {
		if (strncmp(f->name, "profiles/", 9) != 0)
			continue;
		if (n++)
			strncat(buf, ", ", len - strlen(buf) - 1);
		strncat(buf, f->name + 9, len - strlen(buf) - 1);
	}
	if (n == 0)
		snprintf(buf, len, "(none)");
}

int profile_load(struct profile *p, const char *name_or_path, char *err, size_t errlen)
{
	const struct builtin_file *bf;
	char key[128], list[256];
	struct stat st;
	char *text;
	int rc;

	if (strncmp(name_or_path, "profiles/", 9) == 0)
		snprintf(key, sizeof(key), "%s", name_or_path);
	else
		snprintf(key, sizeof(key), "profiles/%s", name_or_path);
	bf = builtin_find(key);
	if (bf)
		return profile_load_text(p, bf->text, bf->path, err, errlen);
	if (stat(name_or_path, &st) != 0 && errno == ENOENT) {
		list_builtin_profiles(list, sizeof(list));
		snprintf(err, errlen, "no built-in profile '%s' and no file '%s'; built-in profiles: %s",
		         name_or_path, name_or_path, list);
		return -ENOENT;
	}
	rc = ini_read_file(name_or_path, &text, err, errlen);
	if (rc)
		return rc;
	rc = profile_load_text(p, text, name_or_path, err, errlen);
	free(text);
	return rc;
}
