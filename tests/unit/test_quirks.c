/* test_quirks.c - the driver quirk table (model/quirks.h) with known
 * answers read in the drivers' sources and bug trackers (docs/quirks.md),
 * the loader applying it, and the commands scheme/apply.c prints for a
 * driver and for a multi-queue port. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/quirks.h"
#include "model/scenario_load.h"
#include "model/trace_load.h"
#include "rxlab/scheme.h"
#include "scheme/apply.h"

#define US 1000

static char err[512];

/* @asked_us on driver @d: the outcome, and the honoured time in us. */
static enum quirk_outcome usecs(enum nic_driver d, int64_t asked_us, int64_t *honoured_us)
{
	const char *why = NULL;
	int64_t ns = -1;
	enum quirk_outcome o = quirk_rx_usecs(d, asked_us * US, &ns, &why);

	assert_non_null(why);
	*honoured_us = ns / US;
	return o;
}

/* Driver @d gives @asked the outcome @o and the honoured @want (us). */
static void expect(enum nic_driver d, int64_t asked, enum quirk_outcome o, int64_t want)
{
	int64_t got;
	enum quirk_outcome g = usecs(d, asked, &got);

	if (g != o || (o != QUIRK_REFUSED && got != want)) {
		print_error("%s rx-usecs %lld: outcome %d honoured %lld, want %d and %lld\n",
		            quirk_driver(d)->name, (long long)asked, g, (long long)got, o,
		            (long long)want);
		fail();
	}
}

/* amzn-drivers #290: 0..8 us act as 8, 64 as 50. */
static void test_ena(void **state)
{
	(void)state;
	for (int64_t us = 0; us < 8; us++)
		expect(DRIVER_ENA, us, QUIRK_ROUNDED, 8);
	expect(DRIVER_ENA, 8, QUIRK_AS_ASKED, 8);
	expect(DRIVER_ENA, 20, QUIRK_AS_ASKED, 20);
	expect(DRIVER_ENA, 50, QUIRK_AS_ASKED, 50);
	expect(DRIVER_ENA, 64, QUIRK_ROUNDED, 50);
	expect(DRIVER_ENA, 256, QUIRK_ROUNDED, 50);
	assert_false(quirk_driver(DRIVER_ENA)->verified);
	assert_false(quirk_driver(DRIVER_ENA)->frames);
}

/* ixgbevf_set_coalesce(): 1 dynamic, 0 off, 2 us steps, at most 1022. */
static void test_ixgbevf(void **state)
{
	(void)state;
	expect(DRIVER_IXGBEVF, 1, QUIRK_MODE, 0);
	expect(DRIVER_IXGBEVF, 0, QUIRK_AS_ASKED, 0);
	expect(DRIVER_IXGBEVF, 2, QUIRK_AS_ASKED, 2);
	expect(DRIVER_IXGBEVF, 3, QUIRK_ROUNDED, 2);
	expect(DRIVER_IXGBEVF, 51, QUIRK_ROUNDED, 50);
	expect(DRIVER_IXGBEVF, 1022, QUIRK_AS_ASKED, 1022);
	expect(DRIVER_IXGBEVF, 1023, QUIRK_REFUSED, 0);
	assert_false(quirk_honours(DRIVER_IXGBEVF, "adaptive-rx", "on"));
}

/* e1000_set_coalesce(): 0 off, 1/3/4 modes, 10..10000 -> 1e6/rx-usecs ints/s. */
static void test_e1000(void **state)
{
	(void)state;
	expect(DRIVER_E1000, 0, QUIRK_AS_ASKED, 0);
	expect(DRIVER_E1000, 1, QUIRK_MODE, 0);
	expect(DRIVER_E1000, 3, QUIRK_MODE, 0);
	expect(DRIVER_E1000, 4, QUIRK_MODE, 0);
	expect(DRIVER_E1000, 100, QUIRK_MODE, 100);	/* 10000 interrupts/s */
	expect(DRIVER_E1000, 10, QUIRK_MODE, 10);	/* 100000 interrupts/s */
	expect(DRIVER_E1000, 2, QUIRK_REFUSED, 0);
	expect(DRIVER_E1000, 5, QUIRK_REFUSED, 0);
	expect(DRIVER_E1000, 9, QUIRK_REFUSED, 0);
	expect(DRIVER_E1000, 10000, QUIRK_MODE, 10000);
	expect(DRIVER_E1000, 10001, QUIRK_REFUSED, 0);
	/* 300 us: 1000000 / 300 = 3333 interrupts/s, a gap of 300030 ns */
	{
		int64_t ns;
		const char *why;

		assert_int_equal(quirk_rx_usecs(DRIVER_E1000, 300 * US, &ns, &why), QUIRK_MODE);
		assert_int_equal(ns, 1000000000LL / 3333);
	}
}

/* ice: even values (ice_print_if_odd_usecs()), ICE_ITR_MAX 8160. */
static void test_ice(void **state)
{
	(void)state;
	expect(DRIVER_ICE, 9, QUIRK_ROUNDED, 8);
	expect(DRIVER_ICE, 50, QUIRK_AS_ASKED, 50);
	expect(DRIVER_ICE, 8159, QUIRK_ROUNDED, 8158);
	expect(DRIVER_ICE, 8160, QUIRK_AS_ASKED, 8160);
	expect(DRIVER_ICE, 8161, QUIRK_REFUSED, 0);
}

/* virtio-net without VIRTIO_NET_F_NOTF_COAL refuses coalescing; mlx5's 12-bit period. */
static void test_virtio_mlx5_generic(void **state)
{
	uint32_t fr;
	const char *why;
	int64_t ns;

	(void)state;
	expect(DRIVER_VIRTIO_NET, 0, QUIRK_AS_ASKED, 0);
	expect(DRIVER_VIRTIO_NET, 8, QUIRK_REFUSED, 0);
	assert_int_equal(quirk_rx_frames(DRIVER_VIRTIO_NET, 1, 0, &fr, &why), QUIRK_AS_ASKED);
	assert_int_equal(quirk_rx_frames(DRIVER_VIRTIO_NET, 2, 0, &fr, &why), QUIRK_REFUSED);
	expect(DRIVER_MLX5, 4095, QUIRK_AS_ASKED, 4095);
	expect(DRIVER_MLX5, 4096, QUIRK_REFUSED, 0);
	assert_int_equal(quirk_rx_frames(DRIVER_MLX5, 128, 8 * US, &fr, &why), QUIRK_AS_ASKED);
	assert_int_equal(fr, 128);
	/* generic takes anything, fractions of a us too; a real driver cannot be told 2.5 us */
	assert_int_equal(quirk_rx_usecs(DRIVER_GENERIC, 2500, &ns, &why), QUIRK_AS_ASKED);
	assert_int_equal(ns, 2500);
	assert_int_equal(quirk_rx_usecs(DRIVER_MLX5, 2500, &ns, &why), QUIRK_REFUSED);
	/* no frame count: the timer alone, or every frame at rx-usecs 0 */
	assert_int_equal(quirk_rx_frames(DRIVER_ENA, 1, 8 * US, &fr, &why), QUIRK_ROUNDED);
	assert_int_equal(fr, 0);
	assert_int_equal(quirk_rx_frames(DRIVER_ICE, 1, 0, &fr, &why), QUIRK_AS_ASKED);
	assert_int_equal(fr, 1);
	assert_int_equal(quirk_rx_frames(DRIVER_ENA, 8, 8 * US, &fr, &why), QUIRK_REFUSED);
}

static void test_honours_and_names(void **state)
{
	static const struct rxl_scheme_axis usecs_axis = {
		"nic.*.rx-usecs", "rx-usecs", 9, { "0", "2", "4", "8", "16", "32", "64", "128", "256" }
	};
	const char *out[RXL_SCHEME_MAX_LEVELS];
	enum nic_driver d;

	(void)state;
	assert_false(quirk_honours(DRIVER_ENA, "rx-usecs", "4"));
	assert_true(quirk_honours(DRIVER_ENA, "rx-usecs", "16"));
	assert_false(quirk_honours(DRIVER_ENA, "rx-frames", "8"));
	assert_true(quirk_honours(DRIVER_ENA, "rx-frames", "1"));
	assert_false(quirk_honours(DRIVER_IXGBEVF, "rx-usecs", "1"));
	assert_true(quirk_honours(DRIVER_IXGBEVF, "adaptive-rx", "off"));
	assert_true(quirk_honours(DRIVER_GENERIC, "rx-usecs", "3"));
	assert_true(quirk_honours(DRIVER_ENA, "napi_defer_hard_irqs", "7"));
	assert_false(quirk_honours(DRIVER_ENA, "cqe-mode-rx", "on"));
	assert_true(quirk_honours(DRIVER_MLX5, "cqe-mode-rx", "on"));
	/* ENA keeps 8, 16, 32 of the coalesce scheme's rx-usecs levels */
	assert_int_equal(quirk_levels_filter(DRIVER_ENA, &usecs_axis, out), 3);
	assert_string_equal(out[0], "8");
	assert_string_equal(out[2], "32");
	assert_int_equal(quirk_levels_filter(DRIVER_GENERIC, &usecs_axis, out), 9);
	assert_int_equal(quirk_levels_filter(DRIVER_VIRTIO_NET, &usecs_axis, out), 1);
	/* ethtool -i names */
	assert_int_equal(quirk_driver_by_ethtool("mlx5_core", &d), 0);
	assert_int_equal(d, DRIVER_MLX5);
	assert_int_equal(quirk_driver_by_ethtool("virtio_net", &d), 0);
	assert_int_equal(d, DRIVER_VIRTIO_NET);
	assert_int_equal(quirk_driver_by_ethtool("r8169", &d), -1);
	assert_int_equal(d, DRIVER_GENERIC);
}

/* ---- the loader ---- */

static void test_loader_honours(void **state)
{
	static struct scenario scn;
	const char *ena64[] = { "nic.eth0.driver=ena", "nic.eth0.rx-usecs=64" };
	const char *ena0[] = { "nic.eth0.driver=ena", "nic.eth0.rx-usecs=0" };
	const char *virtio[] = { "nic.eth0.driver=virtio-net", "nic.eth0.rx-usecs=8" };
	const char *names[] = { "generic", "e1000", "ena", "ixgbevf", "mlx5", "virtio-net", "ice" };
	char set[64];

	(void)state;
	assert_int_equal(scenario_load(&scn, "udp-sink", ena64, 2, err, sizeof(err)), 0);
	assert_int_equal(scn.nic[0].rx_usecs_ns, 50 * US);
	assert_int_equal(scn.nic[0].coal[0].rx_usecs_ns, 50 * US);
	assert_int_equal(scn.nic[0].coal[0].rx_frames, 0);
	assert_non_null(strstr(scn.nic[0].driver_note, "driver ena honours rx-usecs 64 as 50 us"));
	assert_int_equal(scenario_load(&scn, "udp-sink", ena0, 2, err, sizeof(err)), 0);
	assert_int_equal(scn.nic[0].rx_usecs_ns, 8 * US);
	assert_int_not_equal(scenario_load(&scn, "udp-sink", virtio, 2, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "--set nic.eth0.rx-usecs=8: [nic eth0] rx-usecs = 8 us with "
	                            "driver = virtio-net: virtnet_coal_params_supported()"));
	assert_non_null(strstr(err, "accepted 0 only"));
	/* every row of the table is a name the key accepts, in the enum's order */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *one[] = { set };

		assert_string_equal(quirk_driver((enum nic_driver)i)->name, names[i]);
		snprintf(set, sizeof(set), "nic.eth0.driver=%s", names[i]);
		assert_int_equal(scenario_load(&scn, "livelock", one, 1, err, sizeof(err)), 0);
		assert_int_equal(scn.nic[0].driver, (enum nic_driver)i);
	}
	/* generic: the values stay, no note */
	assert_int_equal(scenario_load(&scn, "udp-sink", NULL, 0, err, sizeof(err)), 0);
	assert_string_equal(scn.nic[0].driver_note, "");
	trace_cache_free();
}

/* ---- the commands ---- */

static char *apply_text(const struct scenario *scn, const char *iface)
{
	static char buf[32768];
	FILE *f;

	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_non_null(f);
	assert_int_equal(tune_apply_print(f, scn, 0, iface), 0);
	fclose(f);
	return buf;
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* The script parses as POSIX sh (it is never run: it would change this host). */
static void sh_parses(const char *text)
{
	char path[] = "/tmp/rxlab-test-quirks-XXXXXX";
	char cmd[64];
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "sh -n %s", path);
	assert_int_equal(system(cmd), 0);
	unlink(path);
}

static void test_apply_driver(void **state)
{
	static struct scenario scn;
	const char *sets[] = { "nic.eth0.driver=ena", "nic.eth0.rx-usecs=4" };
	char *text;

	(void)state;
	assert_int_equal(scenario_load(&scn, "udp-sink", sets, 2, err, sizeof(err)), 0);
	text = apply_text(&scn, "ens5");
	assert_non_null(strstr(text, "\nethtool -C ens5 adaptive-rx off rx-usecs 8\n"));
	assert_non_null(strstr(text, "\n# driver ena honours rx-usecs 4 as 8 us (ENA moderation "
	                             "resolution"));
	assert_null(strstr(text, "rx-frames 0"));
	sh_parses(text);
	trace_cache_free();
}

/* e1000 takes rx-usecs alone; mlx5 rx-frames and cqe-mode-rx; ENA no per-queue values. */
static void test_apply_words(void **state)
{
	static struct scenario scn;
	const char *e1000[] = { "nic.eth0.driver=e1000", "nic.eth0.rx-usecs=100" };
	const char *mlx5[] = { "nic.eth0.driver=mlx5", "nic.eth0.cqe-mode-rx=on",
			       "nic.eth0.rx-usecs=8", "nic.eth0.rx-frames=32" };
	const char *ena_q[] = { "nic.eth0.driver=ena", "nic.eth0.rx-frames=1",
				"nic.eth0.rx-usecs=8 8 8 8 8 8 8 16" };
	char *text;

	(void)state;
	assert_int_equal(scenario_load(&scn, "udp-sink", e1000, 2, err, sizeof(err)), 0);
	text = apply_text(&scn, "eth0");
	assert_non_null(strstr(text, "\nethtool -C eth0 rx-usecs 100\n"));
	assert_int_equal(scenario_load(&scn, "udp-sink", mlx5, 4, err, sizeof(err)), 0);
	text = apply_text(&scn, "eth0");
	assert_non_null(strstr(text, "\nethtool -C eth0 adaptive-rx off rx-usecs 8 rx-frames 32 "
	                             "cqe-mode-rx on\n"));
	assert_int_not_equal(scenario_load(&scn, "memcached", ena_q, 3, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "coalescing values per queue with driver = ena"));
	trace_cache_free();
}

/* memcached (8 queues) with per-queue values: a block per queue. */
static void test_apply_queues(void **state)
{
	static struct scenario scn;
	const char *sets[] = {
		"nic.eth0.driver=ice", "nic.eth0.rx-frames=1",
		"nic.eth0.rx-usecs=2 4 7 8 10 12 14 16",
		"nic.eth0.napi_defer_hard_irqs=0 1 2 3 4 5 6 7",
		"nic.eth0.gro_flush_timeout=10us 20us 30us 40us 50us 60us 70us 80us",
		"nic.eth0.irq-affinity=15,14,13,12,11,10,9,8",
	};
	char *text;

	(void)state;
	assert_int_equal(scenario_load(&scn, "memcached", sets, 6, err, sizeof(err)), 0);
	assert_int_equal(scn.nic[0].coal[2].rx_usecs_ns, 6 * US);
	text = apply_text(&scn, "enp65s0f0np0");
	assert_non_null(strstr(text, "\nethtool -C enp65s0f0np0 adaptive-rx off rx-usecs 2\n"));
	assert_non_null(strstr(text, "\n# driver ice honours rx-usecs 7 as 6 us on queue 2 (ice"));
	assert_int_equal(count(text, "\nynl --do napi-set "), 8);
	assert_int_equal(count(text, "/smp_affinity_list\"\n"), 8);
	assert_non_null(strstr(text, "\nethtool --per-queue enp65s0f0np0 queue_mask 0x4 --coalesce "
	                             "rx-usecs 6\n"));
	assert_non_null(strstr(text, "\"irq-suspend-timeout\": %d}' \"$napi\" 2 30000 0)\"\n"));
	assert_non_null(strstr(text, "\"id\": %d}' \"$ifindex\" 2)\" | field napi-id)\n"));
	/* queue 2's IRQ on CPU 13, queue 7's on CPU 8 */
	assert_non_null(strstr(text, "# queue 2: rx-usecs 6, NAPI defer-hard-irqs 2, "
	                             "gro-flush-timeout 30000 ns, IRQ on CPU 13\n"));
	assert_non_null(strstr(text, "field irq)\necho 8 > \"/proc/irq/$(printf '%d' \"$irq\")/"
	                             "smp_affinity_list\"\n# the receiving"));
	sh_parses(text);
	trace_cache_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ena),
		cmocka_unit_test(test_ixgbevf),
		cmocka_unit_test(test_e1000),
		cmocka_unit_test(test_ice),
		cmocka_unit_test(test_virtio_mlx5_generic),
		cmocka_unit_test(test_honours_and_names),
		cmocka_unit_test(test_loader_honours),
		cmocka_unit_test(test_apply_driver),
		cmocka_unit_test(test_apply_words),
		cmocka_unit_test(test_apply_queues),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
