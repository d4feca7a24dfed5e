/* test_tune_robust.c - the robust goals of `rxlab tune` (issue #21): the
 * traps (tune/trap.h) and the options --load, --load-points, --max-loss
 * and --speeds (cli/tune_args.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/tune_args.h"
#include "tune/trap.h"

/* ---- traps ---- */

static struct tune_trap_knobs knobs(void)
{
	return (struct tune_trap_knobs){ .rx_usecs_ns = 0, .rx_frames = 1, .rx_ring = 256,
					 .queues = 1 };
}

static void test_trap_no_timer(void **state)
{
	struct tune_trap_knobs k = knobs();
	char buf[400];

	(void)state;
	assert_int_equal(tune_traps(&k, 200000.0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	k.rx_frames = 8;
	assert_int_equal(tune_traps(&k, 200000.0, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "no timer: rx-frames 8 with rx-usecs 0, a lone frame waits "
			    "for 7 more");
	k.rx_usecs_ns = 1000;		/* a timer: no trap */
	assert_int_equal(tune_traps(&k, 200000.0, buf, sizeof(buf)), 0);
	k.rx_usecs_ns = 0;
	k.adaptive = true;		/* adaptive moderation picks its own timer */
	assert_int_equal(tune_traps(&k, 200000.0, buf, sizeof(buf)), 0);
}

static void test_trap_deferral(void **state)
{
	struct tune_trap_knobs k = knobs();
	char buf[400];

	(void)state;
	/* 256 descriptors at 200 kpps hold 1280 us; 10 x 100 us = 1000 us fits */
	k.defer_hard_irqs = 10;
	k.gro_flush_timeout_ns = 100000;
	assert_int_equal(tune_traps(&k, 200000.0, buf, sizeof(buf)), 0);
	k.defer_hard_irqs = 20;		/* 2000 us > 1280 us */
	assert_int_equal(tune_traps(&k, 200000.0, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "deferral 2000 us is longer than the rx ring of 256 descriptors holds at "
			    "the peak 200000 frames/s per queue (1280 us)");
	k.queues = 2;			/* 100 kpps per queue: 2560 us */
	assert_int_equal(tune_traps(&k, 200000.0, buf, sizeof(buf)), 0);
	k.queues = 1;
	assert_int_equal(tune_traps(&k, NAN, buf, sizeof(buf)), 0); /* rate unknown */
	k.defer_hard_irqs = 0;
	k.irq_suspend_timeout_ns = 5000000;	/* 5 ms */
	k.rx_frames = 4;
	assert_int_equal(tune_traps(&k, 200000.0, buf, sizeof(buf)), 2);
	assert_non_null(strstr(buf, "a lone frame waits for 3 more; deferral 5000 us is longer"));
	/* a short buffer: cut, terminated */
	assert_int_equal(tune_traps(&k, 200000.0, buf, 10), 2);
	assert_int_equal(strlen(buf), 9);
}

/* ---- options ---- */

static int parse(struct tune_opts *o, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	for (; args[argc]; argc++)
		argv[argc] = (char *)args[argc];
	tune_opts_init(o, 1);
	return tune_opts_parse(o, argc, argv);
}

static void test_options_load(void **state)
{
	static struct tune_opts o;

	(void)state;
	assert_int_equal(parse(&o, (const char *[]){ "udp-sink", "--goal", "p99<=1ms", NULL }), 0);
	assert_int_equal(o.req.n_loads, 0);
	assert_true(o.req.max_loss_pct == 0.1);
	/* 5 log-spaced points, both ends exact, the inner ones to 3 digits */
	assert_int_equal(parse(&o, (const char *[]){ "udp-sink", "--goal", "p99<=1ms", "--load",
						     "1kpps..200kpps", NULL }), 0);
	assert_int_equal(o.req.n_loads, 5);
	assert_true(o.req.loads[0] == 1000.0 && o.req.loads[1] == 3760.0 &&
		    o.req.loads[2] == 14100.0 && o.req.loads[3] == 53200.0 &&
		    o.req.loads[4] == 200000.0);
	assert_int_equal(parse(&o, (const char *[]){ "udp-sink", "--load-points", "2", "--goal",
						     "p99<=1ms", "--load", "1kpps..1Mpps", NULL }), 0);
	assert_int_equal(o.req.n_loads, 2);
	assert_true(o.req.loads[0] == 1000.0 && o.req.loads[1] == 1e6);
	/* a list, sorted */
	assert_int_equal(parse(&o, (const char *[]){ "udp-sink", "--goal", "p99<=1ms", "--load",
						     "200kpps,1kpps,20kpps", "--max-loss", "0.5%",
						     NULL }), 0);
	assert_int_equal(o.req.n_loads, 3);
	assert_true(o.req.loads[0] == 1000.0 && o.req.loads[2] == 200000.0);
	assert_true(o.req.max_loss_pct == 0.5);
	assert_int_equal(parse(&o, (const char *[]){ "udp-sink", "--goal", "p99<=1ms",
						     "--max-loss", "0", NULL }), 0);
	assert_true(o.req.max_loss_pct == 0.0);
}

static void test_options_load_refused(void **state)
{
	static struct tune_opts o;
	static const char *const bad[][2] = {
		{ "--load", "200kpps..1kpps" }, { "--load", "1kpps..1kpps" }, { "--load", "1kpps.." },
		{ "--load", "1kpps,,2kpps" }, { "--load", "1kpps,1kpps" }, { "--load", "1kbps" },
		{ "--load", "0pps" }, { "--load", "2000Mpps" }, { "--load", "" },
		{ "--load-points", "1" }, { "--load-points", "17" }, { "--max-loss", "101%" },
		{ "--max-loss", "-1" }, { "--max-loss", "x" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[] = { "udp-sink", "--goal", "p99<=1ms", bad[i][0], bad[i][1], NULL };

		assert_int_equal(parse(&o, args), 2);
	}
	/* narrow: 16 points between 1 and 3 pps round onto each other */
	assert_int_equal(parse(&o, (const char *[]){ "udp-sink", "--goal", "p99<=1ms", "--load",
						     "1pps..3pps", "--load-points", "16", NULL }), 2);
	/* --load-points without a range; --load with a trace */
	assert_int_equal(parse(&o, (const char *[]){ "udp-sink", "--goal", "p99<=1ms",
						     "--load-points", "3", NULL }), 2);
	assert_int_equal(parse(&o, (const char *[]){ "x.pcap", "--goal", "p99<=1ms", "--load",
						     "1kpps", NULL }), 2);
}

static void test_options_speeds(void **state)
{
	static struct tune_opts o;

	(void)state;
	assert_int_equal(parse(&o, (const char *[]){ "t.pcap", "--goal", "p99<=1ms", "--speeds",
						     "2,0.5,1", NULL }), 0);
	assert_int_equal(o.req.n_speeds, 3);
	assert_string_equal(o.req.speeds[0], "0.5");
	assert_string_equal(o.req.speeds[1], "1");
	assert_string_equal(o.req.speeds[2], "2");
	assert_int_equal(o.req.n_loads, 0);
	assert_int_equal(parse(&o, (const char *[]){ "udp-sink", "--goal", "p99<=1ms", "--speeds",
						     "1,2", NULL }), 2);
	assert_int_equal(parse(&o, (const char *[]){ "t.pcap", "--goal", "p99<=1ms", "--speeds",
						     "1,1.0", NULL }), 2);
	assert_int_equal(parse(&o, (const char *[]){ "t.pcap", "--goal", "p99<=1ms", "--speeds",
						     "1,", NULL }), 2);
	assert_int_equal(parse(&o, (const char *[]){ "t.pcap", "--goal", "p99<=1ms", "--speeds",
						     "0.0001", NULL }), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trap_no_timer),
		cmocka_unit_test(test_trap_deferral),
		cmocka_unit_test(test_options_load),
		cmocka_unit_test(test_options_load_refused),
		cmocka_unit_test(test_options_speeds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
