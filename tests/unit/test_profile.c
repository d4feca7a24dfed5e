/* test_profile.c - the built-in host profiles and the [profile] ghz key.
 *
 * Every built-in profile must load (a profile that does not is found only
 * when someone names it); the modern ones carry the costs and clocks their
 * files document; ghz is read exactly into MHz and range-checked, with the
 * loader's exact messages.  (The [cost] keys' errors are in test_scenario.)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/builtin.h"
#include "model/profile_load.h"

static struct profile prof;
static char err[1024];

static const char costs[] =
	"[cost]\n"
	"irq-entry = 1us\nisr = 1us\nreg-read = 1us\nrx-pkt = 1us\nnetif-rx = 1us\n"
	"backlog-pkt = 1us\nnapi-poll = 1us\nsoftirq-entry = 1us\ndma-fixed = 1us\n"
	"dma-per-byte = 1ps\nfwd-pkt = 1us\ncopy-per-byte = 1ps\ntx-clean-pkt = 1us\n"
	"skb-alloc = 0ns\nremote-free = 0ns\nxmit-locked = 0ns\n"
	"ctx-switch = 1us\nidle-exit = 0ns\nlocal-deliver = 1us\nsyscall = 1us\n";

/* Load "[profile]\nghz = @ghz\n" and the costs; the ghz line is line 2. */
static int load_ghz(const char *ghz)
{
	char text[2048];

	snprintf(text, sizeof(text), "[profile]\nghz = %s\n%s", ghz, costs);
	err[0] = '\0';
	return profile_load_text(&prof, text, "p.ini", err, sizeof(err));
}

static void test_every_builtin_loads(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct builtin_file *f = builtin_files; f->name; f++) {
		if (strncmp(f->name, "profiles/", 9) != 0)
			continue;
		if (profile_load(&prof, f->name + 9, err, sizeof(err)) != 0)
			fail_msg("%s: %s", f->name, err);
		/* the name a user gives is the file's name */
		assert_string_equal(prof.name, f->name + 9);
		if (prof.description[0] == '\0')
			fail_msg("%s has no description line", f->name);
		n++;
	}
	assert_true(n >= 9); /* seven 2001-2005 and veth profiles, two modern */
}

static void test_modern_profiles(void **state)
{
	(void)state;
	assert_int_equal(profile_load(&prof, "xeon-6338-mlx5", err, sizeof(err)), 0);
	assert_non_null(strstr(prof.description, "Ice Lake-SP"));
	assert_int_equal(prof.mhz, 2000);
	/* the anchor: rx-pkt + skb-alloc = 260 ns (the XDP paper's drop rate) */
	assert_int_equal(prof.rx_pkt_ns + prof.skb_alloc_ns, 260);
	assert_int_equal(prof.fwd_pkt_ns, 400);
	assert_int_equal(prof.tx_clean_pkt_ns, 60);
	assert_int_equal(prof.idle_exit_ns, 0); /* the states have their exits: */
	assert_int_equal(prof.n_cstates, 4);    /* POLL + icx_cstates */
	assert_string_equal(prof.cstate[3].name, "C6");
	assert_int_equal(prof.cstate[3].exit_ns, 170000);
	assert_int_equal(prof.cstate[3].residency_ns, 600000);
	assert_int_equal(prof.dma_ps_per_byte, 40);

	assert_int_equal(profile_load(&prof, "epyc-7742-ice", err, sizeof(err)), 0);
	assert_non_null(strstr(prof.description, "E810"));
	assert_int_equal(prof.mhz, 2250);
	assert_int_equal(prof.rx_pkt_ns + prof.skb_alloc_ns, 270);
	assert_int_equal(prof.remote_free_ns, 350);
	assert_int_equal(prof.syscall_ns, 550);

	assert_int_equal(profile_load(&prof, "veth-host", err, sizeof(err)), 0);
	assert_int_equal(prof.mhz, 2445);
	assert_int_equal(profile_load(&prof, "piii-933-e1000", err, sizeof(err)), 0);
	assert_int_equal(prof.mhz, 933);
	/* a profile whose clock is only guessed states none */
	assert_int_equal(profile_load(&prof, "altix-tg3", err, sizeof(err)), 0);
	assert_int_equal(prof.mhz, 0);
}

static void test_ghz_parsed_exactly(void **state)
{
	static const struct { const char *ghz; uint32_t mhz; } ok[] = {
		{ "2.1", 2100 }, { "0.933", 933 }, { "0.1", 100 }, { "10", 10000 },
		{ "3", 3000 }, { "2.45", 2450 }, { "10.000", 10000 }, { "0.45", 450 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (load_ghz(ok[i].ghz) != 0)
			fail_msg("ghz = %s: %s", ok[i].ghz, err);
		if (prof.mhz != ok[i].mhz)
			fail_msg("ghz = %s: mhz %u, want %u", ok[i].ghz, prof.mhz, ok[i].mhz);
	}
	/* no ghz: unknown */
	assert_int_equal(profile_load_text(&prof, costs, "p.ini", err, sizeof(err)), 0);
	assert_int_equal(prof.mhz, 0);
}

static void test_ghz_range(void **state)
{
	static const char *const out[] = {
		"0", "0.0", "0.099", "10.001", "11", "99999999999999999999999999",
		"18446744073709551618", /* 2^64 + 2: 2 GHz if the digits wrapped */
	};
	char want[256];

	(void)state;
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		assert_int_equal(load_ghz(out[i]), -EINVAL);
		snprintf(want, sizeof(want), "p.ini:2: ghz = %s is out of range: accepted 0.1..10 "
		         "(the nominal core clock in GHz; leave ghz out when it is unknown)", out[i]);
		assert_string_equal(err, want);
	}
}

static void test_ghz_not_a_number(void **state)
{
	static const char *const bad[] = {
		"2.1GHz", "2100MHz", "2.", ".5", "2.1.3", "-1", "2,1", "2.1005", "abc", "2.1 GHz",
	};
	char want[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(load_ghz(bad[i]), -EINVAL);
		snprintf(want, sizeof(want), "p.ini:2: ghz = %s: not a number of GHz with at most "
		         "three decimals; write e.g. ghz = 2.1 (accepted 0.1..10)", bad[i]);
		assert_string_equal(err, want);
	}
	/* a near miss of the key is suggested */
	assert_int_equal(profile_load_text(&prof, "[profile]\nghzz = 2\n", "p.ini", err,
	                                   sizeof(err)), -EINVAL);
	assert_string_equal(err, "p.ini:2: unknown key 'ghzz' in [profile]; did you mean 'ghz'?");
}

static void test_cycles(void **state)
{
	(void)state;
	prof.mhz = 2000;
	assert_int_equal(profile_cycles(&prof, 1000), 2000);
	prof.mhz = 933;
	assert_int_equal(profile_cycles(&prof, 3000), 2799); /* 2799.0 */
	assert_int_equal(profile_cycles(&prof, 1), 0);       /* 0.933, rounded down */
	prof.mhz = 0;
	assert_int_equal(profile_cycles(&prof, 1000000), 0); /* unknown clock */
}

/* The costs with their idle-exit line replaced by @line ("" drops it) and
 * @tail after them. */
static int load_costs(const char *line, const char *tail)
{
	static const char exit_line[] = "idle-exit = 0ns\n";
	const char *at = strstr(costs, exit_line);
	char text[2048];

	assert_non_null(at);
	snprintf(text, sizeof(text), "%.*s%s%s%s", (int)(at - costs), costs, line,
		 at + strlen(exit_line), tail);
	err[0] = '\0';
	return profile_load_text(&prof, text, "p.ini", err, sizeof(err));
}

/* Without [cstates] the table is one state, C1, with idle-exit as its exit
 * latency; with it, the states in file order (idle-exit left out), with
 * their power when given; sched-wake, gro-pkt, cold-wake and cold-after are
 * optional (0). */
static void test_cstates(void **state)
{
	(void)state;
	assert_int_equal(load_costs("idle-exit = 7us\n", ""), 0);
	assert_int_equal(prof.n_cstates, 1);
	assert_false(prof.cstates_given);
	assert_string_equal(prof.cstate[0].name, "C1");
	assert_int_equal(prof.cstate[0].exit_ns, 7000);
	assert_int_equal(prof.sched_wake_ns, 0);
	assert_int_equal(prof.gro_pkt_ns, 0);
	assert_int_equal(prof.cold_wake_ns, 0);
	assert_int_equal(prof.cold_after_ns, 0);
	/* hrtimer-irq left out: the timer's interrupt costs irq-entry, as before */
	assert_int_equal(prof.hrtimer_irq_ns, prof.irq_entry_ns);

	assert_int_equal(load_costs("sched-wake = 3us\ncold-wake = 18us\ncold-after = 52us\n"
				    "hrtimer-irq = 14us\n",
				    "[cstates]\nPOLL = 0 0\n"
				    "C1E = 4us 4us\nC6 = 170us 600us 1200mW\n"), 0);
	assert_true(prof.cstates_given);
	assert_int_equal(prof.n_cstates, 3);
	assert_string_equal(prof.cstate[1].name, "C1E");
	assert_int_equal(prof.cstate[2].exit_ns, 170000);
	assert_int_equal(prof.cstate[2].residency_ns, 600000);
	assert_int_equal(prof.cstate[2].power_mw, 1200);
	assert_int_equal(prof.cstate[0].power_mw, 0);
	assert_int_equal(prof.idle_exit_ns, 0);
	assert_int_equal(prof.sched_wake_ns, 3000);
	assert_int_equal(prof.cold_wake_ns, 18000);
	assert_int_equal(prof.cold_after_ns, 52000);
	assert_int_equal(prof.hrtimer_irq_ns, 14000);

	/* without [cstates], idle-exit is still required */
	assert_int_equal(load_costs("", ""), -EINVAL);
	assert_non_null(strstr(err, "idle-exit"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_builtin_loads),
		cmocka_unit_test(test_modern_profiles),
		cmocka_unit_test(test_ghz_parsed_exactly),
		cmocka_unit_test(test_ghz_range),
		cmocka_unit_test(test_ghz_not_a_number),
		cmocka_unit_test(test_cycles),
		cmocka_unit_test(test_cstates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
