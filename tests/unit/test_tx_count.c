/* test_tx_count.c - the count-based TX interrupt of Olsson's NAPI e1000
 * through the whole simulator: a scenario's tx-frames next to TxIntDelay
 * marks every tx-frames-th descriptor (changelog 010610, "Added TX
 * interrupt for a given no of packets. (Currently 60)"), TIDV stays the
 * packet timer, and tx-clean says where the ring is cleaned.
 *
 * The host: one PIII 933 forwarding 64 B frames from eth0 to eth1 at
 * 100 kpps (10 us apart, about 3.5 us of CPU each: never saturated), so
 * eth1 transmits the frames 10 us apart, far closer than TIDV 64
 * (65.536 us): the packet timer expires only after the last frame.  The
 * run is long enough for that tail; warm-up 0, so the counters are the
 * whole run's.  Hand counts:
 *
 *   600 frames, tx-frames 60           marks at 60, 120, ..., 600: 10 TX
 *                                      interrupts, nothing left for TIDV
 *   630 frames, tx-frames 60           the same 10, and TIDV fires once
 *                                      65.5 us after frame 630: 11
 *   30 frames, no tx-frames            TIDV alone: 1 (the ring of 256
 *                                      never fills)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "rxlab/sim.h"
#include "sim_run.h"

static const char BASE[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 1\n"
	"hz = 100\n"
	"rxpath = napi\n"
	"[nic eth0]\n"
	"RxIntDelay = 0\n"
	"[nic eth1]\n"
	"TxIntDelay = 64\n"
	"[traffic]\n"
	"port = eth0\n"
	"pattern = constant\n"
	"rate = 100kpps\n"
	"frame-size = 64\n"
	"[route]\n"
	"eth0 = eth1\n"
	"[run]\n"
	"duration = 20ms\n"
	"warmup = 0\n";

/* eth1's TX interrupts for @frames offered, with @sets (NULL-padded) added. */
static uint64_t tx_irqs(uint32_t frames, const char *set1, const char *set2)
{
	char count[64];
	const char *sets[3] = { count, set1, set2 };
	size_t n = 1 + (set1 != NULL) + (set2 != NULL);
	struct results r;
	uint64_t irqs;

	snprintf(count, sizeof(count), "traffic.count=%u", frames);
	sim_run_text(BASE, "tx_count.ini", sets, n, &r);
	assert_int_equal(r.n_nics, 2);
	assert_int_equal(r.nic[1].c.tx_ok, frames);
	assert_int_equal(r.nic[1].c.rx_irqs, 0);
	irqs = r.nic[1].c.tx_irqs;
	results_free(&r);
	return irqs;
}

/* Olsson's driver before 011114 (seed 001): TX cleaned in the hard IRQ. */
static void test_count_hardirq(void **state)
{
	(void)state;
	assert_int_equal(tx_irqs(600, "nic.eth1.tx-frames=60", "nic.eth1.tx-clean=hardirq"), 10);
	assert_int_equal(tx_irqs(630, "nic.eth1.tx-frames=60", "nic.eth1.tx-clean=hardirq"), 11);
}

/* From 011114 on (seed 002's structure): every cause in the poll.  Far from
 * saturation each poll ends long before the next mark, so the counts are
 * the same. */
static void test_count_polled(void **state)
{
	(void)state;
	assert_int_equal(tx_irqs(600, "nic.eth1.tx-frames=60", NULL), 10);
	assert_int_equal(tx_irqs(630, "nic.eth1.tx-frames=60", NULL), 11);
}

/* Without tx-frames the e1000 has no frame count: TIDV alone, one
 * interrupt after the last of 30 frames (was so before the count existed). */
static void test_tidv_alone(void **state)
{
	(void)state;
	assert_int_equal(tx_irqs(30, NULL, NULL), 1);
	assert_int_equal(tx_irqs(30, "nic.eth1.tx-clean=hardirq", NULL), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_hardirq),
		cmocka_unit_test(test_count_polled),
		cmocka_unit_test(test_tidv_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
