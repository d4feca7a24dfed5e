/* test_calib_sim.c - calib_sim_busy(), the simulator side of live
 * calibrate's fit (experiment/calib_sim.h): the test bed's napi run with a
 * draft profile.
 *
 * The profile is one this machine's calibrate wrote (costs of a few us, a
 * haltpoll state).  What the fit relies on:
 *   - the same arguments give the same figure (the fit compares runs);
 *   - cold-wake raises the busy share at 5 kpps by cold-wake per wake-up
 *     of a core idle longer than cold-after: every packet there (they are
 *     200 us apart), so +5 us gives +2.5 points (5 us x 5000/s);
 *   - hrtimer-irq is paid by the NAPI hrtimer's interrupt: with deferral
 *     (napi_defer_hard_irqs 100, gro_flush_timeout 50 us) the timer fires
 *     every 50 us plus the work (about 12,000 times a second: the run's
 *     idle entries), so +5 us of hrtimer-irq raises the busy share by over
 *     twice the 2.5 points one charge per packet would give (seen: 5.7);
 *     without deferral not at all (no timer runs; a device interrupt pays
 *     irq-entry + isr, which stay);
 *   - a profile that does not load is an error with the loader's message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "experiment/calib_sim.h"

static char text[2048];

/* The profile with hrtimer-irq @irq and cold-wake @cold, ns. */
static const char *profile(long irq, long cold)
{
	snprintf(text, sizeof(text),
		 "[profile]\nname = t\n[cost]\nhrtimer-irq = %ldns\nirq-entry = 0\nisr = 9947ns\n"
		 "reg-read = 0\n"
		 "rx-pkt = 628ns\nnetif-rx = 0\nbacklog-pkt = 0\nnapi-poll = 0\n"
		 "softirq-entry = 0\ndma-fixed = 0\ndma-per-byte = 0\nfwd-pkt = 0\n"
		 "copy-per-byte = 0\ntx-clean-pkt = 0\nskb-alloc = 0\nremote-free = 0\n"
		 "xmit-locked = 0\nctx-switch = 3840ns\nlocal-deliver = 628ns\nsyscall = 738ns\n"
		 "sched-wake = 2657ns\ncold-wake = %ldns\ncold-after = 52us\n"
		 "[cstates]\nPOLL = 0 0\nhaltpoll-idle = 24533ns 1000ns\n", irq, cold);
	return text;
}

static double busy(long irq, long cold, uint32_t defer, int64_t gro_ns)
{
	char err[512] = "";
	double b = -1;

	if (calib_sim_busy(profile(irq, cold), 5000, defer, gro_ns, &b, err, sizeof(err)))
		fail_msg("calib_sim_busy: %s", err);
	assert_true(b > 0 && b < 100);
	return b;
}

static void test_deterministic(void **state)
{
	(void)state;
	assert_true(busy(0, 18553, 0, 0) == busy(0, 18553, 0, 0));
	assert_true(busy(2000, 0, 100, 50000) == busy(2000, 0, 100, 50000));
}

static void test_cold_wake_slope(void **state)
{
	(void)state;
	assert_float_equal(busy(0, 5000, 0, 0) - busy(0, 0, 0, 0), 2.5, 0.1);
}

static void test_hrtimer_irq_slope(void **state)
{
	double plain = busy(5000, 0, 0, 0) - busy(0, 0, 0, 0);
	double timer = busy(5000, 0, 100, 50000) - busy(0, 0, 100, 50000);

	(void)state;
	assert_true(plain == 0);
	assert_true(timer > 5.0);
}

static void test_bad_profile(void **state)
{
	char err[512] = "";
	double b = -1;

	(void)state;
	assert_int_equal(calib_sim_busy("[cost]\nisr = 1\n", 5000, 0, 0, &b, err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	assert_true(b == -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_cold_wake_slope),
		cmocka_unit_test(test_hrtimer_irq_slope),
		cmocka_unit_test(test_bad_profile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
