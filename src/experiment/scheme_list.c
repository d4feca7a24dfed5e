/* scheme_list.c - `rxlab schemes` (see scheme_list.h). */
#include "experiment/scheme_list.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/units.h"
#include "rxlab/scheme.h"

#define CELL_LEN 512

/* Append printf(@fmt, ...) to @buf (CELL_LEN bytes) after a " " when it is
 * not empty; cut short when full. */
__attribute__((format(printf, 2, 3)))
static void cell_add(char *buf, const char *fmt, ...)
{
	size_t at = 0;
	va_list ap;

	while (at < CELL_LEN && buf[at])
		at++;
	if (at > 0 && at + 1 < CELL_LEN)
		buf[at++] = ' ', buf[at] = '\0';
	va_start(ap, fmt);
	vsnprintf(buf + at, CELL_LEN - at, fmt, ap);
	va_end(ap);
}

static const char *applies_text(unsigned flags, char *buf)
{
	static const struct { unsigned bit; const char *name; } places[] = {
		{ RXL_SCHEME_SIM, "sim" }, { RXL_SCHEME_LIVE, "live" },
		{ RXL_SCHEME_REPLAY, "replay" }, { RXL_SCHEME_TUNE, "tune" },
		{ RXL_SCHEME_COMPARE, "compare" },
	};
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++)
		if (flags & places[i].bit)
			at += (size_t)snprintf(buf + at, CELL_LEN - at, "%s%s", at ? "," : "",
					       places[i].name);
	return buf;
}

static const char *axes_text(const struct rxl_scheme *s, char *buf)
{
	buf[0] = '\0';
	for (size_t k = 0; k < s->n_axes; k++) {
		const struct rxl_scheme_axis *a = &s->axis[k];

		cell_add(buf, "%s=", a->label);
		for (size_t l = 0; l < a->n; l++)
			snprintf(buf + strlen(buf), CELL_LEN - strlen(buf), "%s%s", l ? "|" : "",
				 a->level[l]);
	}
	return buf;
}

static void scheme_row(struct table *t, const struct rxl_scheme *s)
{
	char buf[CELL_LEN];

	table_row(t);
	table_str(t, s->name);
	table_str(t, applies_text(s->flags, buf));
	table_bool(t, s->flags & RXL_SCHEME_SINK);
	buf[0] = '\0';
	for (size_t i = 0; s->sets[i]; i++)
		cell_add(buf, "%s", s->sets[i]);
	table_str(t, buf);
	table_str(t, axes_text(s, buf));
	buf[0] = '\0';
	for (size_t i = 0; i < s->n_modes; i++)
		cell_add(buf, "%s", rxl_mode_name(s->mode[i]));
	table_str(t, buf);
	buf[0] = '\0';
	for (size_t i = 0; s->knob[i].name; i++) {
		char v[32];

		if (strstr(s->knob[i].name, "timeout"))
			unit_format(UNIT_TIME_NS, s->knob[i].value, v, sizeof(v));
		else
			snprintf(v, sizeof(v), "%" PRIu64, s->knob[i].value);
		cell_add(buf, "%s=%s", s->knob[i].name, v);
	}
	table_str(t, buf);
	table_str(t, s->doc);
	table_str(t, s->what);
}

static struct table *schemes_table(void)
{
	static const char *const cols[] = { "scheme", "applies", "needs_sink", "sets", "tune",
					    "live_modes", "knobs", "doc", "what" };
	struct table *t = table_new("schemes", "Moderation schemes (include/rxlab/scheme.h)");
	const struct rxl_scheme *s;

	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		table_add_col(t, cols[c], cols[c], -1);
	for (size_t i = 0; (s = rxl_scheme_at(0, 0, i)) != NULL; i++)
		scheme_row(t, s);
	return t;
}

static struct table *presets_table(void)
{
	struct table *t = table_new("presets", "Presets: the rows of rxlab compare");
	const struct rxl_scheme_preset *p;
	char buf[CELL_LEN];

	table_add_col(t, "preset", "preset", -1);
	table_add_col(t, "scheme", "scheme", -1);
	table_add_col(t, "setting", "setting", -1);
	table_add_col(t, "what", "what", -1);
	for (size_t i = 0; (p = rxl_preset_at(i)) != NULL; i++) {
		const struct rxl_scheme *s = rxl_scheme_find(p->scheme);

		buf[0] = '\0';
		for (size_t k = 0; k < s->n_axes; k++)
			cell_add(buf, "%s=%s", s->axis[k].label, p->level[k]);
		table_row(t);
		table_str(t, p->name);
		table_str(t, p->scheme);
		table_str(t, buf);
		table_str(t, p->what);
	}
	return t;
}

struct report *scheme_report(void)
{
	struct report *rep = report_new();

	report_add(rep, schemes_table());
	report_add(rep, presets_table());
	return rep;
}

int schemes_run(enum out_format fmt)
{
	struct report *rep = scheme_report();

	report_print(rep, stdout, fmt);
	report_free(rep);
	return 0;
}
