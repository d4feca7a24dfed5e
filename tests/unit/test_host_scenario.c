/* test_host_scenario.c - the scenario `rxlab host IFACE --out` writes
 * (cli/host_scenario.h) from what the readers would have filled in: an
 * mlx5 port on a Skylake-SP Xeon with 300 CPUs (clamped), and a veth
 * whose driver implements none of ethtool -g/-c/-x.  What is written must
 * load (scenario_load_text) with the values read, and every value not
 * read must be named in a comment with its reason. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/host_scenario.h"
#include "model/scenario_load.h"

static struct host_cpu cpu;
static struct host_nic nic;
static struct host_val sysctl[HOST_SYSCTL_COUNT];
static struct scenario scn;
static char err[1024];

static void val(struct host_val *v, uint64_t x)
{
	v->v = x;
	v->err = 0;
}

static void txt(struct host_text *t, const char *s)
{
	snprintf(t->s, sizeof(t->s), "%s", s);
	t->err = 0;
}

static void intel_host(void)
{
	memset(&cpu, 0, sizeof(cpu));
	val(&cpu.online, 300);
	txt(&cpu.vendor, "GenuineIntel");
	txt(&cpu.model, "Intel(R) Xeon(R) Gold 6152 CPU @ 2.10GHz");
	txt(&cpu.idle_governor, "teo");
	val(&sysctl[HOST_NETDEV_BUDGET], 600);
	val(&sysctl[HOST_NETDEV_BUDGET_USECS], 8000);
	val(&sysctl[HOST_DEV_WEIGHT], 64);
	val(&sysctl[HOST_NETDEV_MAX_BACKLOG], 20000000);	/* past 10000000: clamped */
	val(&sysctl[HOST_BUSY_POLL], 0);
	val(&sysctl[HOST_BUSY_READ], 50);
	val(&sysctl[HOST_RPS_SOCK_FLOW_ENTRIES], 0);
}

static void mlx5_nic(void)
{
	memset(&nic, 0, sizeof(nic));
	snprintf(nic.ifname, sizeof(nic.ifname), "eth1");
	txt(&nic.driver, "mlx5_core");
	val(&nic.speed_mbps, 100000);
	val(&nic.combined, 8);
	val(&nic.rx_channels, 0);
	val(&nic.rx_ring, 1024);
	val(&nic.tx_ring, 2048);
	val(&nic.rx_usecs, 8);
	val(&nic.rx_frames, 128);
	val(&nic.tx_usecs, 16);
	val(&nic.tx_frames, 32);
	val(&nic.adaptive_rx, 1);
	val(&nic.gro, 1);
	val(&nic.indir_size, 128);
	for (uint32_t i = 0; i < 128; i++)
		nic.indir[i] = i % 8;
	nic.n_napi = 8;
	for (int q = 0; q < 8; q++) {
		struct host_napi *p = &nic.napi[q];

		p->id = 8193 + (uint32_t)q;
		val(&p->irq, 60 + (uint64_t)q);
		snprintf(p->affinity.s, sizeof(p->affinity.s), "%d", q + 2);
		val(&p->defer_hard_irqs, 2);
		val(&p->gro_flush_timeout, 20000);
		val(&p->irq_suspend_timeout, 0);
		val(&p->threaded, 0);
		p->pid.err = ENOENT;
	}
	nic.n_rxq = 8;
	for (int q = 0; q < 8; q++)
		txt(&nic.rps[q], "0-3");
}

/* The scenario text of what is set up, in a malloc'd buffer. */
static char *written(void)
{
	struct host_seen h = { .cpu = &cpu, .sysctl = sysctl, .nic = &nic };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(host_scenario_write(f, &h, "rxlab host test"), 0);
	fclose(f);
	return buf;
}

static void loads(const char *text)
{
	if (scenario_load_text(&scn, text, "host.ini", NULL, 0, err, sizeof(err))) {
		print_error("%s\n--- the text:\n%s", err, text);
		fail();
	}
}

static void has(const char *text, const char *line)
{
	if (!strstr(text, line)) {
		print_error("lacks '%s':\n%s", line, text);
		fail();
	}
}

static void test_mlx5_loads(void **state)
{
	char *t;

	(void)state;
	intel_host();
	mlx5_nic();
	t = written();
	loads(t);
	assert_string_equal(scn.host.profile, "skx-56t-100g");
	assert_int_equal(scn.host.cpus, 256);
	has(t, "# cpus: the host has 300, outside rxlab's 1..256: clamped\n");
	assert_int_equal(scn.host.netdev_budget, 600);
	assert_int_equal(scn.host.netdev_budget_usecs_ns, 8000000);
	assert_int_equal(scn.host.netdev_max_backlog, 10000000);
	has(t, "\nidle = teo\n");
	assert_string_equal(scn.nic[0].name, "eth1");
	assert_int_equal(scn.nic[0].speed_bps, 100000000000ull);
	assert_int_equal(scn.nic[0].combined, 8);
	assert_int_equal(scn.nic[0].rx_ring, 1024);
	assert_int_equal(scn.nic[0].tx_ring, 2048);
	assert_int_equal(scn.nic[0].rx_usecs_ns, 8000);
	assert_int_equal(scn.nic[0].rx_frames, 128);
	assert_int_equal(scn.nic[0].tx_usecs_ns, 16000);
	assert_int_equal(scn.nic[0].adaptive_rx, ADAPTIVE_DIM);
	assert_int_equal(scn.nic[0].napi_defer_hard_irqs, 2);
	assert_int_equal(scn.nic[0].gro_flush_timeout_ns, 20000);
	assert_int_equal(scn.nic[0].threaded, 0);
	assert_int_equal(scn.nic[0].gro, 1);
	assert_int_equal(scn.nic[0].irq_affinity_n, 8);
	assert_int_equal(scn.nic[0].irq_affinity[0], 2);
	assert_int_equal(scn.nic[0].irq_affinity[7], 9);
	assert_int_equal(scn.nic[0].rps_n, 4);
	assert_int_equal(scn.nic[0].indir_size, 128);
	assert_int_equal(scn.nic[0].indir_n, 8);
	has(t, "driver = mlx5\n");
	has(t, "mlx5_core");
	assert_int_equal(scn.apps.busy_poll_ns, 50000);
	free(t);
}

/* A table that is not ethtool's default: each queue's share as weights. */
static void test_indir_weights(void **state)
{
	char *t;

	(void)state;
	intel_host();
	mlx5_nic();
	for (uint32_t i = 0; i < 128; i++)
		nic.indir[i] = i < 64 ? 0 : 1 + i % 7;
	t = written();
	loads(t);
	has(t, "indir = weight 64 ");
	assert_int_equal(scn.nic[0].indir_weights, 8);
	assert_int_equal(scn.nic[0].indir_weight[0], 64);
	free(t);
}

/* An IRQ allowed on several CPUs has no irq-affinity key: said, left out. */
static void test_irq_spread_left_out(void **state)
{
	char *t;

	(void)state;
	intel_host();
	mlx5_nic();
	snprintf(nic.napi[3].affinity.s, sizeof(nic.napi[3].affinity.s), "0-7");
	t = written();
	loads(t);
	has(t, "# irq-affinity: IRQ 63 may run on CPUs 0-7;");
	assert_null(strstr(t, "\nirq-affinity ="));
	free(t);
}

/* NAPIs that differ: one value per queue, as napi-set sets them. */
static void test_per_napi_list(void **state)
{
	char *t;

	(void)state;
	intel_host();
	mlx5_nic();
	val(&nic.napi[2].defer_hard_irqs, 100);
	val(&nic.napi[5].gro_flush_timeout, 50000000000ull);	/* 50 s: past 10 s */
	t = written();
	loads(t);
	has(t, "napi_defer_hard_irqs = 2 2 100 2 2 2 2 2\n");
	has(t, "# gro_flush_timeout: NAPI 8198's 50000000000ns is past rxlab's 10000000000ns: "
	       "clamped\n");
	assert_int_equal(scn.nic[0].napi[2].defer_hard_irqs, 100);
	assert_int_equal(scn.nic[0].napi[1].defer_hard_irqs, 2);
	assert_int_equal(scn.nic[0].napi[5].gro_flush_timeout_ns, 10000000000ll);
	assert_int_equal(scn.nic[0].napi[4].gro_flush_timeout_ns, 20000);
	free(t);
}

static void veth_nic(void)
{
	memset(&nic, 0, sizeof(nic));
	snprintf(nic.ifname, sizeof(nic.ifname), "rxh0");
	txt(&nic.driver, "veth");
	val(&nic.speed_mbps, 10000);
	val(&nic.combined, 0);
	val(&nic.rx_channels, 3);
	nic.rx_ring.err = nic.tx_ring.err = EOPNOTSUPP;
	nic.rx_usecs.err = nic.rx_frames.err = nic.tx_usecs.err = nic.tx_frames.err = EOPNOTSUPP;
	nic.adaptive_rx.err = EOPNOTSUPP;
	nic.indir_size.err = nic.key_size.err = EOPNOTSUPP;
	val(&nic.gro, 1);
	nic.napi_err = ENODATA;	/* no NAPI: sysfs */
	val(&nic.sys_threaded, 1);
	val(&nic.sys_defer_hard_irqs, 5);
	val(&nic.sys_gro_flush_timeout, 50000);
	nic.n_rxq = 3;
}

static void test_veth_unread_named(void **state)
{
	char *t;

	(void)state;
	intel_host();
	for (int s = 0; s < HOST_SYSCTL_COUNT; s++)
		sysctl[s].err = ENOENT;	/* a namespace other than the first */
	cpu.idle_governor.err = ENOENT;
	veth_nic();
	t = written();
	loads(t);
	assert_string_equal(scn.host.profile, "veth-host");
	assert_int_equal(scn.nic[0].combined, 3);
	assert_int_equal(scn.nic[0].threaded, 1);
	assert_int_equal(scn.nic[0].napi_defer_hard_irqs, 5);
	assert_int_equal(scn.nic[0].gro_flush_timeout_ns, 50000);
	has(t, "# netdev_budget: not read (net.core.netdev_budget: ENOENT (no such file or "
	       "attribute)); the model's default stands\n");
	has(t, "# rx-ring, tx-ring: not read (ETHTOOL_GRINGPARAM: EOPNOTSUPP (the driver does "
	       "not implement it))");
	has(t, "# rx-usecs, rx-frames, tx-usecs, tx-frames, adaptive-rx: not read "
	       "(ETHTOOL_GCOALESCE: EOPNOTSUPP");
	has(t, "# indir, indir-size: not read (ETHTOOL_GRSSH: EOPNOTSUPP");
	has(t, "# irq-suspend-timeout: not read (napi-get: ENODATA");
	has(t, "# irq-affinity: not read (napi-get irq: ENODATA");
	has(t, "# napi_defer_hard_irqs: /sys/class/net/rxh0/napi_defer_hard_irqs\n");
	has(t, "# idle: not read (cpuidle/current_governor: ENOENT");
	/* run loads with a shorter duration, as the live test runs it */
	free(t);
}

static void test_coalesce_both_zero(void **state)
{
	char *t;

	(void)state;
	intel_host();
	mlx5_nic();
	val(&nic.rx_usecs, 0);
	val(&nic.rx_frames, 0);
	val(&nic.adaptive_rx, 0);
	t = written();
	loads(t);
	assert_int_equal(scn.nic[0].rx_frames, 1);
	assert_int_equal(scn.nic[0].adaptive_rx, ADAPTIVE_OFF);
	has(t, "# rx-frames: the driver reports rx-usecs 0 and rx-frames 0");
	free(t);
}

static void profile(const char *vendor, const char *model, const char *drv, const char *want)
{
	struct host_seen h = { .cpu = &cpu, .sysctl = sysctl, .nic = drv ? &nic : NULL };
	char why[384];

	memset(&cpu, 0, sizeof(cpu));
	txt(&cpu.vendor, vendor);
	txt(&cpu.model, model);
	mlx5_nic();
	if (drv)
		txt(&nic.driver, drv);
	assert_string_equal(host_profile_choose(&h, why, sizeof(why)), want);
	assert_true(why[0] != '\0');
}

static void test_profile_rule(void **state)
{
	(void)state;
	profile("AuthenticAMD", "AMD EPYC 7742 64-Core Processor", "ice", "epyc-7742-ice");
	profile("AuthenticAMD", "AMD EPYC", "veth", "veth-host");
	profile("GenuineIntel", "Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz", "mlx5_core",
		"skx-56t-100g");
	profile("GenuineIntel", "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz", "mlx5_core",
		"xeon-6338-mlx5");
	profile("GenuineIntel", "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", "ena",
		"xeon-6338-mlx5");
	profile("0x41", "", "ena", "xeon-6338-mlx5");
	profile("GenuineIntel", "Intel(R) Xeon(R) Gold 6152", NULL, "veth-host");
}

static void test_driver_table(void **state)
{
	const char *note;

	(void)state;
	assert_string_equal(host_driver_word("e1000", &note), "e1000");
	assert_null(note);
	assert_string_equal(host_driver_word("mlx5_core", &note), "mlx5");
	assert_null(note);
	assert_string_equal(host_driver_word("ena", NULL), "ena");
	assert_string_equal(host_driver_word("ixgbevf", NULL), "ixgbevf");
	assert_string_equal(host_driver_word("virtio_net", NULL), "virtio-net");
	assert_string_equal(host_driver_word("e1000e", NULL), "generic");
	assert_string_equal(host_driver_word("r8169", &note), "generic");
	assert_non_null(note);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mlx5_loads),
		cmocka_unit_test(test_indir_weights),
		cmocka_unit_test(test_irq_spread_left_out),
		cmocka_unit_test(test_per_napi_list),
		cmocka_unit_test(test_veth_unread_named),
		cmocka_unit_test(test_coalesce_both_zero),
		cmocka_unit_test(test_profile_rule),
		cmocka_unit_test(test_driver_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
