/* test_scheme.c - the scheme registry (include/rxlab/scheme.h): lookups,
 * the order and names compare and tune print, and that every setting in
 * it is one the scenario loader accepts. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "model/scenario_load.h"
#include "model/units.h"
#include "rxlab/scheme.h"

static void test_unknown_names(void **state)
{
	(void)state;
	assert_null(rxl_scheme_find("nope"));
	assert_null(rxl_scheme_find(""));
	assert_null(rxl_preset_find("coalesce"));     /* a scheme, not a preset */
	assert_null(rxl_scheme_find("static-coalesce")); /* a preset, not a scheme */
	assert_int_equal(rxl_scheme_index(RXL_SCHEME_TUNE, 0, "prefer-busy"), -1);
	assert_int_equal(rxl_scheme_index(RXL_SCHEME_TUNE, 0, "busy"), -1);
	assert_null(rxl_scheme_at(RXL_SCHEME_TUNE, 0, rxl_scheme_count(RXL_SCHEME_TUNE, 0)));
	assert_null(rxl_preset_at(rxl_preset_count()));
	assert_null(rxl_scheme_of_mode(RXL_MODE_BUSY));
	assert_null(rxl_scheme_of_mode(RXL_MODE_AF_XDP));
}

/* compare's rows: these names in this order (tests/golden/compare.out). */
static void test_presets(void **state)
{
	static const char *const rows[] = { "per-packet-irq", "static-coalesce", "dim",
					    "e1000-itr3", "napi", "napi-defer", "busy-poll",
					    "suspend", "bsd-poll" };
	const struct rxl_scheme *s;

	(void)state;
	assert_int_equal(rxl_preset_count(), sizeof(rows) / sizeof(rows[0]));
	for (size_t i = 0; i < rxl_preset_count(); i++) {
		const struct rxl_scheme_preset *p = rxl_preset_at(i);

		assert_string_equal(p->name, rows[i]);
		assert_ptr_equal(rxl_preset_find(rows[i]), p);
		s = rxl_scheme_find(p->scheme);
		assert_non_null(s);
		assert_true(s->flags & RXL_SCHEME_COMPARE);
		for (size_t k = 0; k < RXL_SCHEME_MAX_AXES; k++)
			assert_int_equal(p->level[k] != NULL, k < s->n_axes);
	}
	/* and every scheme flagged for compare has a row */
	for (size_t i = 0; (s = rxl_scheme_at(RXL_SCHEME_COMPARE, 0, i)) != NULL; i++) {
		bool found = false;

		for (size_t k = 0; k < rxl_preset_count(); k++)
			found |= !strcmp(rxl_preset_at(k)->scheme, s->name);
		assert_true(found);
	}
	s = rxl_scheme_find(rxl_preset_find("static-coalesce")->scheme);
	assert_string_equal(s->name, "coalesce");
	assert_string_equal(rxl_preset_find("static-coalesce")->level[0], "50");
	assert_string_equal(rxl_preset_find("static-coalesce")->level[1], "32");
}

/* tune's policies, their order and the sentences its messages print. */
static void test_tune_names(void **state)
{
	static const char *const pols[] = { "coalesce", "dim", "itr-dynamic", "itr", "defer",
					    "busy-poll", "suspend" };
	char buf[256], small[12];

	(void)state;
	assert_int_equal(rxl_scheme_count(RXL_SCHEME_TUNE, 0), 7);
	for (size_t i = 0; i < 7; i++) {
		assert_string_equal(rxl_scheme_at(RXL_SCHEME_TUNE, 0, i)->name, pols[i]);
		assert_int_equal(rxl_scheme_index(RXL_SCHEME_TUNE, 0, pols[i]), (int)i);
		assert_true(rxl_scheme_at(RXL_SCHEME_TUNE, 0, i)->n_axes <= RXL_SCHEME_MAX_AXES);
	}
	assert_int_equal(rxl_scheme_names(buf, sizeof(buf), RXL_SCHEME_TUNE, 0), 61);
	assert_string_equal(buf, "coalesce, dim, itr-dynamic, itr, defer, busy-poll and suspend");
	rxl_scheme_names(buf, sizeof(buf), RXL_SCHEME_TUNE | RXL_SCHEME_SINK, 0);
	assert_string_equal(buf, "busy-poll and suspend");
	rxl_scheme_names(buf, sizeof(buf), RXL_SCHEME_TUNE, RXL_SCHEME_SINK);
	assert_string_equal(buf, "coalesce, dim, itr-dynamic, itr and defer");
	assert_int_equal(rxl_scheme_names(small, sizeof(small), RXL_SCHEME_TUNE, 0), 61);
	assert_string_equal(small, "coalesce, d");
	assert_int_equal(rxl_scheme_names(buf, sizeof(buf), RXL_SCHEME_TUNE, RXL_SCHEME_TUNE), 0);
	assert_string_equal(buf, "");
}

/* Load udp-sink (port eth0, a UDP sink) with @n overrides; 0 or the
 * loader's message printed. */
static int loads(const char *const *sets, size_t n)
{
	static struct scenario scn;
	char err[1024];
	int rc = scenario_load(&scn, "udp-sink", sets, n, err, sizeof(err));

	if (rc)
		print_error("%s\n", err);
	return rc;
}

static const char *port(char *buf, const char *key)
{
	assert_int_equal(rxl_scheme_key(buf, 64, key, "eth0"), 0);
	return buf;
}

/* Every scheme's overrides and every level of every axis are settings the
 * scenario loader accepts (key and unit), after the reset of all knobs. */
static void test_settings_load(void **state)
{
	const struct rxl_scheme *s;

	(void)state;
	for (size_t i = 0; (s = rxl_scheme_at(0, 0, i)) != NULL; i++) {
		char buf[32][160], key[64];
		const char *sets[32];
		size_t n = 0, base;

		for (size_t k = 0; rxl_scheme_off[k]; k++)
			sets[n] = port(buf[n], rxl_scheme_off[k]), n++;
		for (size_t k = 0; rxl_scheme_off_sink[k]; k++)
			sets[n++] = rxl_scheme_off_sink[k];
		for (size_t k = 0; s->sets[k]; k++)
			sets[n] = port(buf[n], s->sets[k]), n++;
		assert_int_equal(loads(sets, n), 0);
		base = n;
		for (size_t a = 0; a < s->n_axes; a++) {
			for (size_t l = 0; l < s->axis[a].n; l++) {
				snprintf(buf[base], 160, "%s=%s", port(key, s->axis[a].key),
					 s->axis[a].level[l]);
				sets[base] = buf[base];
				if (loads(sets, base + 1))
					print_error("scheme %s: %s\n", s->name, buf[base]);
				assert_int_equal(loads(sets, base + 1), 0);
			}
		}
	}
}

/* Live: each flagged scheme names modes that map back to a scheme doing
 * them, and only device settings the live runs know. */
static void test_live(void **state)
{
	static const char *const knobs[] = { "napi_defer_hard_irqs", "gro_flush_timeout",
					     "irq-suspend-timeout", "threaded" };
	const struct rxl_scheme *s;

	(void)state;
	for (size_t i = 0; (s = rxl_scheme_at(0, 0, i)) != NULL; i++) {
		assert_int_equal(s->n_modes > 0, (s->flags & RXL_SCHEME_LIVE) != 0);
		for (size_t m = 0; m < s->n_modes; m++)
			assert_non_null(rxl_scheme_of_mode(s->mode[m]));
		for (size_t k = 0; s->knob[k].name; k++) {
			bool known = false;

			for (size_t j = 0; j < sizeof(knobs) / sizeof(knobs[0]); j++)
				known |= !strcmp(s->knob[k].name, knobs[j]);
			assert_true(known);
		}
	}
	assert_string_equal(rxl_scheme_of_mode(RXL_MODE_IRQ_SUSPEND)->name, "suspend");
	assert_string_equal(rxl_scheme_of_mode(RXL_MODE_EPOLL)->name, "napi");
}

static uint64_t ns(const char *text)
{
	uint64_t v = 0;

	assert_int_equal(unit_parse(UNIT_TIME_NS, text, &v, NULL, 0), UNIT_OK);
	return v;
}

/* One definition of IRQ suspension (napi.rst "IRQ suspension"): epoll's
 * prefer_busy_poll without a busy_poll spin, and compare's row, tune's
 * axes and the live mode's device settings agree. */
static void test_suspend(void **state)
{
	const struct rxl_scheme *s = rxl_scheme_find("suspend");
	const struct rxl_scheme_preset *p = rxl_preset_find("suspend");
	bool prefer = false, no_spin = false;

	(void)state;
	for (size_t i = 0; s->sets[i]; i++) {
		prefer |= !strcmp(s->sets[i], "apps.prefer_busy_poll=on");
		no_spin |= !strcmp(s->sets[i], "apps.busy_poll=0");
	}
	assert_true(prefer && no_spin);
	assert_true(s->flags & RXL_SCHEME_SINK);
	assert_string_equal(s->axis[0].key, "nic.*.gro_flush_timeout");
	assert_string_equal(s->axis[1].key, "nic.*.irq-suspend-timeout");
	assert_string_equal(s->knob[0].name, "napi_defer_hard_irqs");
	assert_int_equal(s->knob[0].value, 100);
	assert_true(!strcmp(s->sets[2], "nic.*.napi_defer_hard_irqs=100"));
	assert_string_equal(s->knob[1].name, "gro_flush_timeout");
	assert_int_equal(s->knob[1].value, ns(p->level[0]));
	assert_string_equal(s->knob[2].name, "irq-suspend-timeout");
	assert_int_equal(s->knob[2].value, ns(p->level[1]));
}

static void test_key(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(rxl_scheme_key(out, sizeof(out), "nic.*.rx-usecs", "eth0"), 0);
	assert_string_equal(out, "nic.eth0.rx-usecs");
	assert_int_equal(rxl_scheme_key(out, sizeof(out), "apps.busy_poll", "eth0"), 0);
	assert_string_equal(out, "apps.busy_poll");
	assert_int_equal(rxl_scheme_key(out, 17, "nic.*.rx-usecs", "eth0"), -1);
	assert_int_equal(rxl_scheme_key(out, 18, "nic.*.rx-usecs", "eth0"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_names), cmocka_unit_test(test_presets),
		cmocka_unit_test(test_tune_names),    cmocka_unit_test(test_settings_load),
		cmocka_unit_test(test_live),          cmocka_unit_test(test_suspend),
		cmocka_unit_test(test_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
