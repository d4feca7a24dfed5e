/* units.c - numbers with units, parsed exactly (see units.h).
 *
 * Roadmap: parse_decimal() reads "12.345" as mantissa 12345 and 3 decimal
 * places; scale_exact() multiplies by the unit's scale and divides by the
 * power of ten without ever leaving integers; unit_parse() finds the
 * suffix in the kind's table and, when it is not there, works out why
 * (a unit of another quantity, a case slip, garbage) for the message.
 *
 * Floating point was turned down on purpose: strtod("1.2") * 1e6 is
 * 1199999.9999999998, and a simulator that must give the same bytes on
 * every machine cannot start from a rounded rate.
 */
#include "model/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct unit_sym {
	const char *sym;
	uint64_t scale;  /* base units per one of this unit */
	bool listed;     /* shown in messages and used by unit_format() */
};

struct unit_table {
	const char *quantity; /* "a packet rate", for "not a packet rate" */
	const char *family;   /* units of one family are never "another quantity" */
	const char *base;     /* "nanoseconds", for "not a whole number of ..." */
	const char *list;     /* "ns, us, ms, s" */
	const char *use;      /* "ns, us, ms or s" */
	const struct unit_sym *u; /* ascending scale, NULL-terminated */
};

#define NS_US 1000ULL
#define NS_MS 1000000ULL
#define NS_S 1000000000ULL

static const struct unit_sym time_ns_syms[] = {
	{ "ns", 1, true },
	{ "us", NS_US, true },
	{ "\xc2\xb5s", NS_US, false }, /* "µs" in UTF-8 */
	{ "ms", NS_MS, true },
	{ "s", NS_S, true },
	{ "min", 60 * NS_S, false }, /* accepted for long runs; never written */
	{ "h", 3600 * NS_S, false },
	{ NULL, 0, false },
};

static const struct unit_sym time_ps_syms[] = {
	{ "ps", 1, true },
	{ "ns", 1000ULL, true },
	{ "us", 1000000ULL, true },
	{ "\xc2\xb5s", 1000000ULL, false },
	{ NULL, 0, false },
};

static const struct unit_sym pps_syms[] = {
	{ "pps", 1, true },
	{ "kpps", 1000ULL, true },
	{ "Mpps", 1000000ULL, true },
	{ NULL, 0, false },
};

/* ethtool and iproute2 write bit rates several ways; all are accepted, the
 * bare "bit" family is what messages show. */
static const struct unit_sym bps_syms[] = {
	{ "bit", 1, true }, { "bit/s", 1, false }, { "b/s", 1, false }, { "bps", 1, false },
	{ "kbit", 1000ULL, true }, { "kbit/s", 1000ULL, false },
	{ "kb/s", 1000ULL, false }, { "kbps", 1000ULL, false },
	{ "Mbit", 1000000ULL, true }, { "Mbit/s", 1000000ULL, false },
	{ "Mb/s", 1000000ULL, false }, { "Mbps", 1000000ULL, false },
	{ "Gbit", 1000000000ULL, true }, { "Gbit/s", 1000000000ULL, false },
	{ "Gb/s", 1000000000ULL, false }, { "Gbps", 1000000000ULL, false },
	{ NULL, 0, false },
};

static const struct unit_sym bytes_syms[] = {
	{ "B", 1, true },
	{ "kB", 1000ULL, true },
	{ "KiB", 1024ULL, true },
	{ "MB", 1000000ULL, true },
	{ "MiB", 1048576ULL, true },
	{ "GB", 1000000000ULL, true },
	{ "GiB", 1073741824ULL, true },
	{ NULL, 0, false },
};

static const struct unit_table time_ns_table = {
	"a time", "time", "nanoseconds", "ns, us, ms, s", "ns, us, ms or s", time_ns_syms,
};
static const struct unit_table time_ps_table = {
	"a time", "time", "picoseconds", "ps, ns, us", "ps, ns or us", time_ps_syms,
};
static const struct unit_table pps_table = {
	"a packet rate", "pps", "packets per second", "pps, kpps, Mpps", "pps, kpps or Mpps",
	pps_syms,
};
static const struct unit_table bps_table = {
	"a bit rate", "bps", "bits per second", "bit, kbit, Mbit, Gbit",
	"bit, kbit, Mbit or Gbit", bps_syms,
};
static const struct unit_table bytes_table = {
	"a size", "bytes", "bytes", "B, KiB, MiB, GiB, kB, MB, GB",
	"B, KiB, MiB, GiB, kB, MB or GB", bytes_syms,
};

static const struct unit_table *const all_tables[] = {
	&time_ns_table, &time_ps_table, &pps_table, &bps_table, &bytes_table,
};

static const struct unit_table *table_of(enum unit_kind kind)
{
	switch (kind) {
	case UNIT_COUNT:
		return NULL;
	case UNIT_TIME_NS:
	case UNIT_TIME_US:
		return &time_ns_table;
	case UNIT_TIME_PS:
		return &time_ps_table;
	case UNIT_PPS:
		return &pps_table;
	case UNIT_BPS:
		return &bps_table;
	case UNIT_BYTES:
		return &bytes_table;
	}
	return NULL;
}

const char *unit_list(enum unit_kind kind)
{
	const struct unit_table *t = table_of(kind);

	return t ? t->list : "";
}

/* value = mant / 10^frac */
struct decimal {
	uint64_t mant;
	unsigned frac;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const char *skip_blanks(const char *p)
{
	while (is_blank(*p))
		p++;
	return p;
}

/* mant = mant * 10 + digit, or false on overflow. */
static bool push_digit(uint64_t *mant, unsigned digit)
{
	if (*mant > (UINT64_MAX - digit) / 10)
		return false;
	*mant = *mant * 10 + digit;
	return true;
}

/* Read "DIGITS[.DIGITS]" at *pp.  Trailing zeros of the fraction are not
 * pushed into the mantissa ("1.50000000000000000000" fits), and a fraction
 * that overflows the mantissa is reported as UNIT_E_FRACTION: a nonzero
 * digit beyond the 19th decimal place is never a whole number of any base
 * unit here (no scale reaches 10^19). */
static enum unit_status parse_decimal(const char **pp, struct decimal *d)
{
	const char *p = *pp;
	unsigned zeros = 0;

	d->mant = 0;
	d->frac = 0;
	if (!is_digit(*p))
		return UNIT_E_NOTNUM;
	for (; is_digit(*p); p++)
		if (!push_digit(&d->mant, (unsigned)(*p - '0')))
			return UNIT_E_OVERFLOW;
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return UNIT_E_NOTNUM;
		for (; is_digit(*p); p++) {
			if (*p == '0') {
				zeros++;
				continue;
			}
			for (; zeros > 0; zeros--, d->frac++)
				if (!push_digit(&d->mant, 0))
					return UNIT_E_FRACTION;
			if (!push_digit(&d->mant, (unsigned)(*p - '0')))
				return UNIT_E_FRACTION;
			d->frac++;
		}
	}
	*pp = p;
	return UNIT_OK;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* *out = d * scale exactly.  With p = 10^frac / gcd(mant, 10^frac), the
 * product is whole iff p divides scale (mant and p are coprime). */
static enum unit_status scale_exact(struct decimal d, uint64_t scale, uint64_t *out)
{
	while (d.frac > 0 && scale % 10 == 0) {
		scale /= 10;
		d.frac--;
	}
	if (d.frac > 0) {
		uint64_t p = 1, g;

		if (d.frac > 19)
			return UNIT_E_FRACTION;
		for (unsigned i = 0; i < d.frac; i++)
			p *= 10;
		g = gcd_u64(d.mant, p);
		d.mant /= g;
		p /= g;
		if (scale % p)
			return UNIT_E_FRACTION;
		scale /= p;
	}
	if (d.mant != 0 && scale > UINT64_MAX / d.mant)
		return UNIT_E_OVERFLOW;
	*out = d.mant * scale;
	return UNIT_OK;
}

static const struct unit_sym *find_sym(const struct unit_table *t, const char *u, size_t n)
{
	for (const struct unit_sym *s = t->u; s->sym; s++)
		if (strlen(s->sym) == n && memcmp(s->sym, u, n) == 0)
			return s;
	return NULL;
}

static const struct unit_sym *find_sym_nocase(const struct unit_table *t, const char *u, size_t n)
{
	for (const struct unit_sym *s = t->u; s->sym; s++)
		if (s->listed && strlen(s->sym) == n && strncasecmp(s->sym, u, n) == 0)
			return s;
	return NULL;
}

/* Explain a suffix that is not a unit of @t. */
static enum unit_status explain_suffix(const struct unit_table *t, const char *u, size_t n,
                                       char *why, size_t whylen)
{
	const struct unit_sym *s;
	size_t i;

	for (i = 0; i < sizeof(all_tables) / sizeof(all_tables[0]); i++) {
		const struct unit_table *o = all_tables[i];

		if (strcmp(o->family, t->family) == 0 || !find_sym(o, u, n))
			continue;
		snprintf(why, whylen, "not %s; use %s", t->quantity, t->use);
		return UNIT_E_WRONGKIND;
	}
	s = find_sym_nocase(t, u, n);
	if (s)
		snprintf(why, whylen, "unknown unit '%.*s'; did you mean '%s'?", (int)n, u, s->sym);
	else
		snprintf(why, whylen, "unknown unit '%.*s'; use %s", (int)n, u, t->use);
	return UNIT_E_BADUNIT;
}

/* The scale for the suffix u[0..n) (n may be 0), or an error. */
static enum unit_status pick_scale(enum unit_kind kind, struct decimal d, const char *u,
                                   size_t n, uint64_t *scale, char *why, size_t whylen)
{
	const struct unit_table *t = table_of(kind);
	const struct unit_sym *s;

	if (n == 0) {
		if (kind == UNIT_COUNT || kind == UNIT_BYTES || d.mant == 0) {
			*scale = 1;
			return UNIT_OK;
		}
		if (kind == UNIT_TIME_US) {
			*scale = NS_US;
			return UNIT_OK;
		}
		snprintf(why, whylen, "missing unit (units: %s)", t->list);
		return UNIT_E_NOUNIT;
	}
	if (!t) {
		snprintf(why, whylen, "unexpected '%.*s' after the number; write a plain number",
		         (int)n, u);
		return UNIT_E_GARBAGE;
	}
	s = find_sym(t, u, n);
	if (!s)
		return explain_suffix(t, u, n, why, whylen);
	*scale = s->scale;
	return UNIT_OK;
}

static const char *whole_of(enum unit_kind kind)
{
	const struct unit_table *t = table_of(kind);

	return t ? t->base : NULL;
}

enum unit_status unit_parse(enum unit_kind kind, const char *text, uint64_t *out,
                            char *why, size_t whylen)
{
	char dummy[1];
	const char *p = skip_blanks(text), *u;
	struct decimal d;
	enum unit_status st;
	uint64_t scale = 1, v = 0;
	size_t n;

	if (!why) {
		why = dummy;
		whylen = sizeof(dummy);
	}
	if (*p == '-') {
		snprintf(why, whylen, "negative values are not accepted");
		return UNIT_E_NEGATIVE;
	}
	st = parse_decimal(&p, &d);
	if (st == UNIT_E_NOTNUM) {
		snprintf(why, whylen, "not a number");
		return st;
	}
	if (st == UNIT_OK) {
		u = skip_blanks(p);
		n = strlen(u);
		while (n > 0 && is_blank(u[n - 1]))
			n--;
		st = pick_scale(kind, d, u, n, &scale, why, whylen);
		if (st != UNIT_OK)
			return st;
		st = scale_exact(d, scale, &v);
	}
	if (st == UNIT_E_OVERFLOW)
		snprintf(why, whylen, "too large");
	if (st == UNIT_E_FRACTION) {
		const char *w = whole_of(kind);

		snprintf(why, whylen, "not a whole number%s%s", w ? " of " : "", w ? w : "");
	}
	if (st == UNIT_OK)
		*out = v;
	return st;
}

char *unit_format(enum unit_kind kind, uint64_t v, char *buf, size_t len)
{
	const struct unit_table *t = table_of(kind);
	const struct unit_sym *best = NULL;

	if (!t || v == 0) {
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return buf;
	}
	for (const struct unit_sym *s = t->u; s->sym; s++)
		if (s->listed && v % s->scale == 0)
			best = s; /* ascending: the last that divides is the largest */
	snprintf(buf, len, "%llu%s", (unsigned long long)(v / best->scale), best->sym);
	return buf;
}

/* For "missing unit; write e.g. 5s": the largest unit that keeps the bare
 * number within @max, else the smallest unit. */
static const char *example_unit(enum unit_kind kind, const char *text, uint64_t max)
{
	const struct unit_table *t = table_of(kind);
	const struct unit_sym *pick = t->u;
	const char *p = skip_blanks(text);
	struct decimal d;
	uint64_t v;

	if (parse_decimal(&p, &d) != UNIT_OK)
		return pick->sym;
	for (const struct unit_sym *s = t->u; s->sym; s++)
		if (s->listed && scale_exact(d, s->scale, &v) == UNIT_OK && v <= max)
			pick = s;
	return pick->sym;
}

static void format_range(enum unit_kind kind, uint64_t min, uint64_t max, const char *noun,
                         char *buf, size_t len)
{
	char a[32], b[32];

	snprintf(buf, len, "%s..%s%s%s", unit_format(kind, min, a, sizeof(a)),
	         unit_format(kind, max, b, sizeof(b)), noun ? " " : "", noun ? noun : "");
}

int unit_parse_key(enum unit_kind kind, const char *key, const char *text,
                   uint64_t min, uint64_t max, const char *noun, uint64_t *out,
                   char *msg, size_t msglen)
{
	char why[160], range[96];
	enum unit_status st;
	uint64_t v = 0;

	st = unit_parse(kind, text, &v, why, sizeof(why));
	format_range(kind, min, max, noun, range, sizeof(range));
	switch (st) {
	case UNIT_OK:
		if (v >= min && v <= max) {
			*out = v;
			return 0;
		}
		/* fall through */
	case UNIT_E_NEGATIVE:
	case UNIT_E_OVERFLOW:
		snprintf(msg, msglen, "%s = %s is out of range: accepted %s", key, text, range);
		break;
	case UNIT_E_NOTNUM:
		snprintf(msg, msglen, "%s = %s: not a number; accepted %s", key, text, range);
		break;
	case UNIT_E_NOUNIT:
		snprintf(msg, msglen, "%s = %s: missing unit; write e.g. %s%s (units: %s)", key,
		         text, text, example_unit(kind, text, max), unit_list(kind));
		break;
	case UNIT_E_FRACTION:
	case UNIT_E_WRONGKIND:
	case UNIT_E_BADUNIT:
	case UNIT_E_GARBAGE:
		snprintf(msg, msglen, "%s = %s: %s (accepted %s)", key, text, why, range);
		break;
	}
	return -1;
}

int unit_parse_bool(const char *text, bool *out)
{
	static const char *const yes[] = { "on", "yes", "true", "1" };
	static const char *const no[] = { "off", "no", "false", "0" };
	const char *p = skip_blanks(text);
	size_t n = strlen(p);

	while (n > 0 && is_blank(p[n - 1]))
		n--;
	for (size_t i = 0; i < 4; i++) {
		if (strlen(yes[i]) == n && strncasecmp(yes[i], p, n) == 0) {
			*out = true;
			return 0;
		}
		if (strlen(no[i]) == n && strncasecmp(no[i], p, n) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

/* One "A" or "A-B" item of a CPU list at *@p (advanced past it): 0 or -1. */
static int cpu_item(const char **p, uint32_t *lo, uint32_t *hi)
{
	char *end;
	unsigned long a, b;

	if (**p < '0' || **p > '9')
		return -1;
	a = b = strtoul(*p, &end, 10);
	if (*end == '-') {
		const char *q = end + 1;

		if (*q < '0' || *q > '9')
			return -1;
		b = strtoul(q, &end, 10);
		if (b < a)
			return -1;
	}
	*lo = (uint32_t)(a > 0xffffffffUL ? 0xffffffffUL : a);
	*hi = (uint32_t)(b > 0xffffffffUL ? 0xffffffffUL : b);
	*p = end;
	return 0;
}

int unit_cpu_list(const char *text, uint32_t ncpus, uint16_t *cpus, uint32_t max, char *why,
		  size_t len)
{
	const char *p = skip_blanks(text);
	uint32_t n = 0, lo, hi;

	while (*p) {
		if (cpu_item(&p, &lo, &hi)) {
			snprintf(why, len, "not a CPU list; write e.g. 0-7 or 0,2,4");
			return -1;
		}
		if (hi >= ncpus) {
			snprintf(why, len, "CPU %u is out of range: accepted 0..%u ([host] cpus = %u)",
				 hi, ncpus - 1, ncpus);
			return -1;
		}
		for (uint32_t c = lo; c <= hi; c++) {
			if (n == max) {
				snprintf(why, len, "more than %u CPUs", max);
				return -1;
			}
			cpus[n++] = (uint16_t)c;
		}
		p = skip_blanks(p);
		if (*p == ',' && *skip_blanks(p + 1) && *skip_blanks(p + 1) != ',')
			p = skip_blanks(p + 1);
		else if (*p) {
			snprintf(why, len, "not a CPU list; write e.g. 0-7 or 0,2,4");
			return -1;
		}
	}
	if (n == 0) {
		snprintf(why, len, "an empty CPU list; write e.g. 0-7 or 0,2,4");
		return -1;
	}
	return (int)n;
}
