/* test_scenario.c - the scenario loader: defaults, every error class with
 * its exact message, --set overrides, cross-checks, files and built-ins,
 * and the profile loader.
 *
 * Snippets are inline; "t.ini" is their origin in messages.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/builtin.h"
#include "model/profile_load.h"
#include "model/scenario_load.h"

static struct scenario sc;
static struct profile prof;
static char err[1024];

static int load_sets(const char *text, const char *const *sets, size_t n)
{
	int rc;

	err[0] = '\0';
	rc = scenario_load_text(&sc, text, "t.ini", sets, n, err, sizeof(err));
	if (rc == 0 && err[0])
		print_error("success but err = '%s'\n", err);
	return rc;
}

static int load(const char *text)
{
	return load_sets(text, NULL, 0);
}

static void load_ok(const char *text)
{
	int rc = load(text);

	if (rc)
		print_error("unexpected: %s\n", err);
	assert_int_equal(rc, 0);
}

static void load_fails(const char *text, const char *msg)
{
	assert_int_not_equal(load(text), 0);
	assert_string_equal(err, msg);
}

static void set_fails(const char *text, const char *set, const char *msg)
{
	const char *sets[] = { set };

	assert_int_not_equal(load_sets(text, sets, 1), 0);
	assert_string_equal(err, msg);
}

/* --- defaults ------------------------------------------------------------ */

static void test_defaults(void **state)
{
	const struct scn_nic *n;

	(void)state;
	load_ok("[nic eth0]\n");
	assert_string_equal(sc.name, "t");
	assert_string_equal(sc.host.profile, "piii-933-e1000");
	assert_int_equal(sc.host.cpus, 1);
	assert_int_equal(sc.host.hz, 1000);
	assert_int_equal(sc.host.rxpath, RXPATH_NAPI);
	assert_int_equal(sc.host.netdev_budget, 300);
	assert_int_equal(sc.host.netdev_budget_usecs_ns, 2000000);
	assert_int_equal(sc.host.netdev_max_backlog, 1000);
	assert_int_equal(sc.host.dev_weight, 64);
	assert_int_equal(sc.host.napi_weight, 64);
	assert_int_equal(sc.n_nics, 1);
	n = &sc.nic[0];
	assert_string_equal(n->name, "eth0");
	assert_int_equal(n->speed_bps, 1000000000ULL);
	assert_int_equal(n->rx_ring, 256);
	assert_int_equal(n->tx_ring, 256);
	assert_int_equal(n->rx_fifo_bytes, 48 * 1024);
	assert_int_equal(n->txqueuelen, 1000);
	assert_int_equal(n->rx_usecs_ns, 0);
	assert_int_equal(n->rx_frames, 1);
	assert_int_equal(n->rx_usecs_irq_ns, 0);
	assert_int_equal(n->rx_frames_irq, 0);
	assert_int_equal(n->tx_usecs_ns, 8000);
	assert_int_equal(n->tx_frames, 32);
	assert_int_equal(n->tx_usecs_irq_ns, 0);
	assert_int_equal(n->tx_frames_irq, 0);
	assert_int_equal(n->rx_timer, TIMER_ABSOLUTE);
	assert_int_equal(n->tx_timer, TIMER_ABSOLUTE);
	assert_int_equal(n->min_irq_gap_ns, 0);
	assert_int_equal(n->tx_clean, TX_CLEAN_IRQ);
	assert_int_equal(n->irq_cpu, 0);
	assert_int_equal(n->link_queue_ns, 1000000);
	assert_int_equal(sc.n_traffic, 0);
	assert_int_equal(sc.route.n, 0);
	assert_int_equal(sc.apps.cpu_hogs, 0);
	assert_int_equal(sc.apps.hog_cpu, 0);
	assert_int_equal(sc.run.duration_ns, 1000000000LL);
	assert_int_equal(sc.run.warmup_ns, 0);
	assert_int_equal(sc.run.seed, 1);
	assert_int_equal(sc.run.timeslice_ns, 4000000);
	/* the profile was resolved from the built-in */
	assert_string_equal(sc.profile.name, "piii-933-e1000");
	assert_int_equal(sc.profile.irq_entry_ns, 1500);
}

static void test_traffic_defaults(void **state)
{
	const struct scn_traffic *t;

	(void)state;
	load_ok("[nic eth0]\n[nic eth1]\n[traffic]\nrate = 890kpps\n");
	assert_int_equal(sc.n_traffic, 1);
	t = &sc.traffic[0];
	assert_string_equal(t->name, "traffic");
	assert_string_equal(t->port, "eth0"); /* the first NIC */
	assert_int_equal(t->pattern, TRAFFIC_CONSTANT);
	assert_int_equal(t->rate_pps, 890000);
	assert_int_equal(t->frame_bytes, 64);
	assert_int_equal(t->start_ns, 0);
	assert_int_equal(t->on_ns, 1000000);
	assert_int_equal(t->off_ns, 1000000);
}

/* --- a full scenario ----------------------------------------------------- */

static const char full[] =
	"# Olsson's router (seed 001)\n"
	"[host]\n"
	"cpus = 2\n"
	"hz = 100\n"
	"rxpath = isr-loop\n"
	"netdev_budget = 600\n"
	"netdev_budget_usecs = 8000\n"
	"netdev_max_backlog = 300\n"
	"dev_weight = 16\n"
	"napi_weight = 32\n"
	"\n"
	"[nic eth0]\n"
	"speed = 10Gbit\n"
	"rx-ring = 4096\n"
	"tx-ring = 512\n"
	"rx-fifo = 1.5MiB\n"
	"txqueuelen = 0\n"
	"rx-usecs = 2.5us\n"
	"rx-frames = 0\n"
	"rx-usecs-irq = 1\n"
	"rx-frames-irq = 3\n"
	"tx-usecs = 0\n"
	"tx-frames = 1\n"
	"tx-usecs-irq = 20\n"
	"tx-frames-irq = 5\n"
	"cqe-mode-rx = on\n"
	"cqe-mode-tx = yes\n"
	"min-irq-interval = 125us\n"
	"tx-clean = xmit\n"
	"irq-cpu = 1\n"
	"link-queue = 0\n"
	"\n"
	"[nic eth1]\n"
	"\n"
	"[traffic flood]\n"
	"port = eth1\n"
	"pattern = on-off\n"
	"rate = 1.2Mpps\n"
	"frame-size = 1.5KiB\n"
	"start = 10ms\n"
	"on = 2ms\n"
	"off = 0.5ms\n"
	"\n"
	"[traffic probe]\n"
	"pattern = poisson\n"
	"rate = 100pps\n"
	"\n"
	"[route]\n"
	"eth0 = eth1\n"
	"eth1 = eth0\n"
	"\n"
	"[apps]\n"
	"cpu-hogs = 3\n"
	"hog-cpu = 1\n"
	"\n"
	"[run]\n"
	"duration = 2s\n"
	"warmup = 100ms\n"
	"seed = 18446744073709551615\n"
	"timeslice = 10ms\n";

static void test_full(void **state)
{
	const struct scn_nic *n = &sc.nic[0];

	(void)state;
	load_ok(full);
	assert_int_equal(sc.host.cpus, 2);
	assert_int_equal(sc.host.hz, 100);
	assert_int_equal(sc.host.rxpath, RXPATH_ISR_LOOP);
	assert_int_equal(sc.host.netdev_budget, 600);
	assert_int_equal(sc.host.netdev_budget_usecs_ns, 8000000);
	assert_int_equal(sc.host.netdev_max_backlog, 300);
	assert_int_equal(sc.host.dev_weight, 16);
	assert_int_equal(sc.host.napi_weight, 32);
	assert_int_equal(sc.n_nics, 2);
	assert_int_equal(n->speed_bps, 10000000000ULL);
	assert_int_equal(n->rx_ring, 4096);
	assert_int_equal(n->tx_ring, 512);
	assert_int_equal(n->rx_fifo_bytes, 1572864);
	assert_int_equal(n->txqueuelen, 0);
	assert_int_equal(n->rx_usecs_ns, 2500);
	assert_int_equal(n->rx_frames, 0);
	assert_int_equal(n->rx_usecs_irq_ns, 1000);
	assert_int_equal(n->rx_frames_irq, 3);
	assert_int_equal(n->tx_usecs_ns, 0);
	assert_int_equal(n->tx_frames, 1);
	assert_int_equal(n->tx_usecs_irq_ns, 20000);
	assert_int_equal(n->tx_frames_irq, 5);
	assert_int_equal(n->rx_timer, TIMER_RESTART);
	assert_int_equal(n->tx_timer, TIMER_RESTART);
	assert_int_equal(n->min_irq_gap_ns, 125000);
	assert_int_equal(n->tx_clean, TX_CLEAN_XMIT);
	assert_int_equal(n->irq_cpu, 1);
	assert_int_equal(n->link_queue_ns, 0);
	assert_string_equal(sc.nic[1].name, "eth1");
	assert_int_equal(sc.nic[1].rx_ring, 256);
	assert_int_equal(sc.n_traffic, 2);
	assert_string_equal(sc.traffic[0].name, "flood");
	assert_string_equal(sc.traffic[0].port, "eth1");
	assert_int_equal(sc.traffic[0].pattern, TRAFFIC_ONOFF);
	assert_int_equal(sc.traffic[0].rate_pps, 1200000);
	assert_int_equal(sc.traffic[0].frame_bytes, 1536);
	assert_int_equal(sc.traffic[0].start_ns, 10000000);
	assert_int_equal(sc.traffic[0].on_ns, 2000000);
	assert_int_equal(sc.traffic[0].off_ns, 500000);
	assert_string_equal(sc.traffic[1].name, "probe");
	assert_string_equal(sc.traffic[1].port, "eth0");
	assert_int_equal(sc.traffic[1].pattern, TRAFFIC_POISSON);
	assert_int_equal(sc.traffic[1].rate_pps, 100);
	assert_int_equal(sc.route.n, 2);
	assert_string_equal(sc.route.from[0], "eth0");
	assert_string_equal(sc.route.to[0], "eth1");
	assert_string_equal(sc.route.from[1], "eth1");
	assert_string_equal(sc.route.to[1], "eth0");
	assert_int_equal(sc.apps.cpu_hogs, 3);
	assert_int_equal(sc.apps.hog_cpu, 1);
	assert_int_equal(sc.run.duration_ns, 2000000000LL);
	assert_int_equal(sc.run.warmup_ns, 100000000LL);
	assert_int_equal(sc.run.seed, UINT64_MAX);
	assert_int_equal(sc.run.timeslice_ns, 10000000);
	assert_int_equal(scenario_nic_index(&sc, "eth1"), 1);
	assert_int_equal(scenario_nic_index(&sc, "eth0"), 0);
	assert_int_equal(scenario_nic_index(&sc, "eth2"), -1);
}

/* --- error classes ------------------------------------------------------- */

static void test_syntax_errors(void **state)
{
	(void)state;
	load_fails("[nic eth0]\nrx-usecs 8\n",
	           "t.ini:2: expected 'key = value' or '[section]', found 'rx-usecs 8'");
	load_fails("[nic eth0]\n"
	           "rx-ring = 512\n"
	           "\n"
	           "# lines 4..6\n"
	           "\n"
	           "\n"
	           "rx-usecs = 8\n"
	           "rx-usecs = 16\n",
	           "t.ini:8: duplicate key 'rx-usecs' (first set on line 7)");
	load_fails("[nic eth0]\n[nic eth1]\n[nic eth0]\n",
	           "t.ini:3: duplicate section [nic eth0] (first on line 1)");
}

static void test_unknown_names(void **state)
{
	(void)state;
	load_fails("[nics eth0]\n", "t.ini:1: unknown section [nics]; did you mean [nic]?");
	load_fails("[nic eth0]\n[bogus]\n", "t.ini:2: unknown section [bogus]; sections: host, "
	                                    "nic, traffic, route, apps, run");
	load_fails("[nic eth0]\nrx-usec = 8\n",
	           "t.ini:2: unknown key 'rx-usec' in [nic eth0]; did you mean 'rx-usecs'?");
	load_fails("[nic eth0]\n[traffic]\nrat = 1Mpps\n",
	           "t.ini:3: unknown key 'rat' in [traffic]; did you mean 'rate'?");
	load_fails("[run]\nlength = 1s\n",
	           "t.ini:2: unknown key 'length' in [run]; keys: duration, warmup, seed, timeslice, vmstat-interval");
}

static void test_section_names(void **state)
{
	(void)state;
	load_fails("[nic]\n", "t.ini:1: [nic] needs a name, e.g. [nic eth0]");
	load_fails("[host main]\n", "t.ini:1: section [host] takes no name (found 'main')");
	load_fails("[nic eth/0]\n", "t.ini:1: bad name 'eth/0' for [nic]: use 1..31 characters "
	                            "from A-Z a-z 0-9 _ . -");
	load_fails("[nic a23456789012345678901234567890123]\n",
	           "t.ini:1: bad name 'a23456789012345678901234567890123' for [nic]: use 1..31 "
	           "characters from A-Z a-z 0-9 _ . -");
	load_ok("[nic eth0.100]\n[nic A_b-9]\n");
	assert_string_equal(sc.nic[0].name, "eth0.100");
}

static void test_value_errors(void **state)
{
	(void)state;
	load_fails("[nic eth0]\nrx-ring = 0\n",
	           "t.ini:2: rx-ring = 0 is out of range: accepted 1..65536 descriptors");
	load_fails("[nic eth0]\nrx-ring = 65537\n",
	           "t.ini:2: rx-ring = 65537 is out of range: accepted 1..65536 descriptors");
	load_fails("[host]\nrxpath = foo\n[nic eth0]\n",
	           "t.ini:2: rxpath = foo: accepted classic, isr-loop, napi, bsd-poll, isr-while");
	load_fails("[host]\nrxpath = nap\n[nic eth0]\n",
	           "t.ini:2: rxpath = nap: accepted classic, isr-loop, napi, bsd-poll, isr-while; did you mean 'napi'?");
	load_fails("[host]\nrxpath = NAPI\n[nic eth0]\n",
	           "t.ini:2: rxpath = NAPI: accepted classic, isr-loop, napi, bsd-poll, isr-while; did you mean 'napi'?");
	load_fails("[nic eth0]\n[run]\nduration = 5\n",
	           "t.ini:3: duration = 5: missing unit; write e.g. 5s (units: ns, us, ms, s)");
	load_fails("[nic eth0]\n[traffic]\nrate = 5Mbit\n",
	           "t.ini:3: rate = 5Mbit: not a packet rate; use pps, kpps or Mpps "
	           "(accepted 1pps..1000Mpps)");
	load_fails("[nic eth0]\nrx-usecs = -5\n",
	           "t.ini:2: rx-usecs = -5 is out of range: accepted 0..10s");
	load_fails("[nic eth0]\nrx-ring = 12abc\n",
	           "t.ini:2: rx-ring = 12abc: unexpected 'abc' after the number; write a plain "
	           "number (accepted 1..65536 descriptors)");
	load_fails("[nic eth0]\nmin-irq-interval = 0.5ns\n",
	           "t.ini:2: min-irq-interval = 0.5ns: not a whole number of nanoseconds "
	           "(accepted 0..100ms)");
	load_fails("[nic eth0]\ncqe-mode-rx = maybe\n",
	           "t.ini:2: cqe-mode-rx = maybe: accepted on/off, yes/no, true/false, 1/0");
	load_fails("[nic eth0]\n[run]\nseed = 18446744073709551616\n",
	           "t.ini:3: seed = 18446744073709551616 is out of range: accepted "
	           "0..18446744073709551615");
	load_fails("[host]\ncpus = 257\n[nic eth0]\n",
	           "t.ini:2: cpus = 257 is out of range: accepted 1..256 CPUs");
	load_fails("[nic eth0]\nspeed = 1Tbit\n",
	           "t.ini:2: speed = 1Tbit: unknown unit 'Tbit'; use bit, kbit, Mbit or Gbit "
	           "(accepted 1Mbit..800Gbit)");
	load_fails("[nic eth0]\nrx-fifo = 1KiB\n",
	           "t.ini:2: rx-fifo = 1KiB is out of range: accepted 2KiB..64MiB");
	load_fails("[nic eth0]\n[traffic]\nrate = 1pps\nframe-size = 63\n",
	           "t.ini:4: frame-size = 63 is out of range: accepted 64B..9KiB");
	load_fails("[host]\nprofile = a234567890123456789012345678901234567890123456789012345"
	           "678901234\n[nic eth0]\n",
	           "t.ini:2: profile = a234567890123456789012345678901234567890123456789012345"
	           "678901234: too long (at most 63 characters)");
}

/* --- overrides ----------------------------------------------------------- */

static void test_set_plain(void **state)
{
	const char *sets[] = { "host.rxpath=classic", "run.duration = 5ms", "apps.cpu-hogs=2" };

	(void)state;
	assert_int_equal(load_sets("[host]\nrxpath = napi\n[nic eth0]\n", sets, 3), 0);
	assert_int_equal(sc.host.rxpath, RXPATH_CLASSIC);
	assert_int_equal(sc.run.duration_ns, 5000000);
	assert_int_equal(sc.apps.cpu_hogs, 2); /* [apps] created */
}

static void test_set_named_and_single(void **state)
{
	const char *sets[] = { "nic.eth0.rx-usecs=8", "traffic.rate=1Mpps", "nic.eth0.1.rx-ring=64" };

	(void)state;
	assert_int_equal(load_sets("[nic eth0]\n[nic eth0.1]\n[traffic flood]\nrate = 1pps\n", sets,
	                           3), 0);
	assert_int_equal(sc.nic[0].rx_usecs_ns, 8000);
	assert_int_equal(sc.nic[1].rx_ring, 64);
	assert_int_equal(sc.traffic[0].rate_pps, 1000000);
	assert_string_equal(sc.traffic[0].name, "flood");
}

static void test_set_creates(void **state)
{
	const char *sets[] = { "nic.eth1.rx-ring=512", "traffic.rate=10kpps", "route.eth0=eth1" };

	(void)state;
	assert_int_equal(load_sets("[nic eth0]\n", sets, 3), 0);
	assert_int_equal(sc.n_nics, 2);
	assert_string_equal(sc.nic[1].name, "eth1");
	assert_int_equal(sc.nic[1].rx_ring, 512);
	assert_int_equal(sc.nic[1].tx_ring, 256); /* defaults for the rest */
	assert_int_equal(sc.n_traffic, 1);
	assert_int_equal(sc.traffic[0].rate_pps, 10000);
	assert_int_equal(sc.route.n, 1);
	assert_string_equal(sc.route.to[0], "eth1");
}

static void test_set_errors(void **state)
{
	(void)state;
	set_fails("[nic eth0]\n[traffic]\nrate = 1pps\n", "traffic.rat=1Mpps",
	          "--set traffic.rat=1Mpps: unknown key 'rat' in [traffic]; did you mean 'rate'?");
	set_fails("[nic eth0]\n[traffic a]\nrate = 1pps\n[traffic b]\nrate = 1pps\n",
	          "traffic.rate=1Mpps",
	          "--set traffic.rate=1Mpps: there are 2 [traffic] sections (a, b); name one, "
	          "e.g. traffic.NAME.rate=1Mpps");
	set_fails("[nic eth0]\n[nic eth1]\n", "nic.rx-usecs=8",
	          "--set nic.rx-usecs=8: there are 2 [nic] sections (eth0, eth1); name one, e.g. "
	          "nic.NAME.rx-usecs=8");
	set_fails("[nic eth0]\n", "hots.cpus=2",
	          "--set hots.cpus=2: unknown section [hots]; did you mean [host]?");
	set_fails("[nic eth0]\n", "cpus=2",
	          "--set cpus=2: expected SECTION.KEY=VALUE or SECTION.NAME.KEY=VALUE, e.g. "
	          "host.rxpath=napi or nic.eth0.rx-usecs=8");
	set_fails("[nic eth0]\n", "host.cpus",
	          "--set host.cpus: expected SECTION.KEY=VALUE or SECTION.NAME.KEY=VALUE, e.g. "
	          "host.rxpath=napi or nic.eth0.rx-usecs=8");
	set_fails("[nic eth0]\n", "host.cpus=", "--set host.cpus=: missing value after '='");
	set_fails("[nic eth0]\n", ".cpus=1",
	          "--set .cpus=1: expected SECTION.KEY=VALUE or SECTION.NAME.KEY=VALUE, e.g. "
	          "host.rxpath=napi or nic.eth0.rx-usecs=8");
	set_fails("[nic eth0]\n", "host.=1", "--set host.=1: missing key");
	set_fails("[nic eth0]\n", "host.cpus=0",
	          "--set host.cpus=0: cpus = 0 is out of range: accepted 1..256 CPUs");
	set_fails("[nic eth0]\n", "nic.eth/1.rx-ring=1",
	          "--set nic.eth/1.rx-ring=1: bad name 'eth/1' for [nic]: use 1..31 characters "
	          "from A-Z a-z 0-9 _ . -");
	set_fails("[host]\n", "nic.rx-ring=1",
	          "--set nic.rx-ring=1: there is no [nic] section; name one: nic.NAME.rx-ring=1");
	/* the override replaces the file's value and is blamed for it */
	set_fails("[nic eth0]\nrx-ring = 512\n", "nic.eth0.rx-ring=0",
	          "--set nic.eth0.rx-ring=0: rx-ring = 0 is out of range: accepted 1..65536 "
	          "descriptors");
	/* a traffic section created by --set still needs its rate */
	set_fails("[nic eth0]\n", "traffic.pattern=poisson",
	          "--set traffic.pattern=poisson: [traffic] needs 'rate', e.g. rate = 100kpps");
}

/* --- cross-checks -------------------------------------------------------- */

static void test_cross_checks(void **state)
{
	(void)state;
	load_fails("# nothing\n[host]\n",
	           "t.ini: no [nic NAME] section; a scenario needs at least one NIC, e.g. [nic eth0]");
	load_fails("[nic eth0]\nirq-cpu = 2\n",
	           "t.ini:2: irq-cpu = 2 is out of range: accepted 0..0 ([host] cpus = 1)");
	load_fails("[host]\ncpus = 2\n[nic eth0]\n[apps]\ncpu-hogs = 1\nhog-cpu = 2\n",
	           "t.ini:6: hog-cpu = 2 is out of range: accepted 0..1 ([host] cpus = 2)");
	load_fails("[nic eth0]\n[nic eth1]\n[traffic]\nport = eth9\nrate = 1pps\n",
	           "t.ini:4: port = eth9: no [nic eth9] section; NICs: eth0, eth1");
	load_fails("[nic eth0]\n[traffic flood]\nport = eth0\n",
	           "t.ini:2: [traffic flood] needs 'rate', e.g. rate = 100kpps");
	load_fails("[nic eth0]\n[nic eth1]\n[route]\neth0 = eth1\neth0.5 = eth1\n",
	           "t.ini:5: route eth0.5 -> eth1: no [nic eth0.5] section; NICs: eth0, eth1");
	load_fails("[route]\neth0 = eth9\n[nic eth0]\n",
	           "t.ini:2: route eth0 -> eth9: no [nic eth9] section; NICs: eth0");
	load_fails("[nic eth0]\n[run]\nduration = 1s\nwarmup = 1s\n",
	           "t.ini:4: warmup = 1s is out of range: must be less than duration (1s)");
	load_fails("[nic eth0]\n[run]\nwarmup = 2s\n",
	           "t.ini:3: warmup = 2s is out of range: must be less than duration (1s)");
	set_fails("[nic eth0]\n[run]\nwarmup = 40ms\n", "run.duration=10ms",
	          "--set run.duration=10ms: warmup = 40ms is out of range: must be less than "
	          "duration (10ms)");
	load_fails("[nic a]\n[nic b]\n[nic c]\n[nic d]\n[nic e]\n[nic f]\n[nic g]\n[nic h]\n[nic i]\n"
	           "[nic j]\n[nic k]\n[nic l]\n[nic m]\n[nic n]\n[nic o]\n[nic p]\n[nic q]\n",
	           "t.ini:17: too many [nic] sections: at most 16");
}

static void test_coalescing_check(void **state)
{
	(void)state;
	/* include/uapi/linux/ethtool.h: usecs and frames both 0 is illegal */
	load_fails("[nic eth0]\nrx-usecs = 0\nrx-frames = 0\n",
	           "t.ini:2: [nic eth0] rx-usecs and rx-frames are both 0; to disable coalescing "
	           "set rx-usecs 0 rx-frames 1");
	load_fails("\n[nic eth0]\ntx-usecs = 0\ntx-frames = 0\n",
	           "t.ini:3: [nic eth0] tx-usecs and tx-frames are both 0; to disable coalescing "
	           "set tx-usecs 0 tx-frames 1");
	load_ok("[nic eth0]\nrx-usecs = 0\nrx-frames = 1\n");
	load_ok("[nic eth0]\nrx-usecs = 100\nrx-frames = 0\n");
	/* an override that makes the pair illegal is blamed, not the file */
	set_fails("[nic eth0]\nrx-usecs = 0\n", "nic.eth0.rx-frames=0",
	          "--set nic.eth0.rx-frames=0: [nic eth0] rx-usecs and rx-frames are both 0; to "
	          "disable coalescing set rx-usecs 0 rx-frames 1");
	set_fails("[nic eth0]\ntx-frames = 0\n", "nic.eth0.tx-usecs=0 ",
	          "--set nic.eth0.tx-usecs=0 : [nic eth0] tx-usecs and tx-frames are both 0; to "
	          "disable coalescing set tx-usecs 0 tx-frames 1");
	load_fails("[nic eth0]\ntx-frames = 0\n[nic eth1]\ntx-frames = 0\ntx-usecs = 0\n",
	           "t.ini:5: [nic eth1] tx-usecs and tx-frames are both 0; to disable coalescing "
	           "set tx-usecs 0 tx-frames 1");
}

/* --- profiles ------------------------------------------------------------ */

static void test_builtin_profile(void **state)
{
	const struct builtin_file *bf;

	(void)state;
	bf = builtin_find("profiles/piii-933-e1000");
	assert_non_null(bf);
	assert_string_equal(bf->path, "profiles/piii-933-e1000.ini");
	assert_null(builtin_find("piii-933-e1000"));
	assert_null(builtin_find("profiles/nosuch"));
	assert_int_equal(profile_load(&prof, "piii-933-e1000", err, sizeof(err)), 0);
	assert_string_equal(prof.name, "piii-933-e1000");
	assert_non_null(strstr(prof.description, "Pentium III 933 MHz"));
	assert_int_equal(prof.irq_entry_ns, 1500);
	assert_int_equal(prof.isr_ns, 1000);
	assert_int_equal(prof.reg_read_ns, 1000);
	assert_int_equal(prof.rx_pkt_ns, 200);
	assert_int_equal(prof.skb_alloc_ns, 700);
	assert_int_equal(prof.xmit_locked_ns, 500);
	assert_int_equal(prof.netif_rx_ns, 500);
	assert_int_equal(prof.backlog_pkt_ns, 300);
	assert_int_equal(prof.napi_poll_ns, 400);
	assert_int_equal(prof.softirq_entry_ns, 300);
	assert_int_equal(prof.dma_fixed_ns, 500);
	assert_int_equal(prof.dma_ps_per_byte, 8000);
	assert_int_equal(prof.fwd_pkt_ns, 1300);
	assert_int_equal(prof.copy_ps_per_byte, 0);
	assert_int_equal(prof.tx_clean_pkt_ns, 400);
	assert_int_equal(prof.ctx_switch_ns, 3000);
	/* "profiles/NAME" is accepted too */
	assert_int_equal(profile_load(&prof, "profiles/piii-933-e1000", err, sizeof(err)), 0);
}

static const char costs[] =
	"[cost]\n"
	"irq-entry = 1us\nisr = 1us\nreg-read = 1us\nrx-pkt = 1us\nnetif-rx = 1us\n"
	"backlog-pkt = 1us\nnapi-poll = 1us\nsoftirq-entry = 1us\ndma-fixed = 1us\n"
	"dma-per-byte = 2.5ns\nfwd-pkt = 1us\ncopy-per-byte = 1ps\ntx-clean-pkt = 1us\n"
	"skb-alloc = 0ns\nremote-free = 0ns\nxmit-locked = 0ns\n"
	"ctx-switch = 1us\nidle-exit = 0ns\nlocal-deliver = 1us\nsyscall = 1us\n";

static void test_profile_errors(void **state)
{
	(void)state;
	assert_int_equal(profile_load_text(&prof, costs, "dir/mine.ini", err, sizeof(err)), 0);
	assert_string_equal(prof.name, "mine");
	assert_string_equal(prof.description, "");
	assert_int_equal(prof.dma_ps_per_byte, 2500);
	assert_int_equal(prof.copy_ps_per_byte, 1);
	assert_int_equal(profile_load_text(&prof, "[cost]\nirq-entry = 1us\nisr = 2us\n", "p.ini",
	                                   err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "p.ini:1: [cost] is missing keys: reg-read, rx-pkt, netif-rx, "
	                         "backlog-pkt, napi-poll, softirq-entry, dma-fixed, dma-per-byte, "
	                         "fwd-pkt, copy-per-byte, tx-clean-pkt, skb-alloc, remote-free, "
	                         "xmit-locked, ctx-switch, idle-exit, local-deliver, "
	                         "syscall (every cost is required)");
	assert_int_equal(profile_load_text(&prof, "[profile]\nname = x\n", "p.ini", err,
	                                   sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "p.ini: no [cost] section; a profile sets every cost: "
	                            "irq-entry, isr,"));
	assert_int_equal(profile_load_text(&prof, "[cost]\nirq-entry = 1500\n", "p.ini", err,
	                                   sizeof(err)), -EINVAL);
	assert_string_equal(err, "p.ini:2: irq-entry = 1500: missing unit; write e.g. 1500ns "
	                         "(units: ns, us, ms, s)");
	assert_int_equal(profile_load_text(&prof, "[cost]\ndma-per-byte = 0.5ps\n", "p.ini", err,
	                                   sizeof(err)), -EINVAL);
	assert_string_equal(err, "p.ini:2: dma-per-byte = 0.5ps: not a whole number of "
	                         "picoseconds (accepted 0..1us)");
	assert_int_equal(profile_load_text(&prof, "[cost]\nirq-entyr = 1us\n", "p.ini", err,
	                                   sizeof(err)), -EINVAL);
	assert_string_equal(err, "p.ini:2: unknown key 'irq-entyr' in [cost]; did you mean "
	                         "'irq-entry'?");
	assert_int_equal(profile_load_text(&prof, "[costs]\n", "p.ini", err, sizeof(err)),
	                 -EINVAL);
	assert_string_equal(err, "p.ini:1: unknown section [costs]; did you mean [cost]?");
}

static void test_scenario_profile(void **state)
{
	const char *sets[] = { "host.profile=nosuch" };

	(void)state;
	assert_int_equal(load_sets("[nic eth0]\n", sets, 1), -ENOENT);
	assert_non_null(strstr(err, "--set host.profile=nosuch: profile = nosuch: no built-in "
	                            "profile 'nosuch' and no file 'nosuch'; built-in profiles: "));
	assert_non_null(strstr(err, "piii-933-e1000"));
	assert_int_equal(load("[host]\n\nprofile = nosuch\n[nic eth0]\n"), -ENOENT);
	assert_non_null(strstr(err, "t.ini:3: profile = nosuch: no built-in profile"));
}

/* --- files and built-ins ------------------------------------------------- */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_files(void **state)
{
	char dir[] = "/tmp/rxlab-test-scn-XXXXXX";
	char path[256], ppath[256], msg[512], set[300];
	const char *sets[] = { set };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/router.ini", dir);
	snprintf(ppath, sizeof(ppath), "%s/my.ini", dir);

	/* a file by path; the name is its basename */
	write_file(path, "[nic eth0]\nrx-ring = 0\n");
	assert_int_equal(scenario_load(&sc, path, NULL, 0, err, sizeof(err)), -EINVAL);
	snprintf(msg, sizeof(msg), "%s:2: rx-ring = 0 is out of range: accepted 1..65536 "
	         "descriptors", path);
	assert_string_equal(err, msg);
	write_file(path, "[nic eth0]\n");
	assert_int_equal(scenario_load(&sc, path, NULL, 0, err, sizeof(err)), 0);
	assert_string_equal(sc.name, "router");

	/* a profile given as a file path */
	write_file(ppath, costs);
	snprintf(set, sizeof(set), "host.profile=%s", ppath);
	assert_int_equal(scenario_load(&sc, path, sets, 1, err, sizeof(err)), 0);
	assert_string_equal(sc.profile.name, "my");
	assert_int_equal(sc.profile.dma_ps_per_byte, 2500);
	write_file(ppath, "[cost]\nisr = 1\n");
	assert_int_equal(scenario_load(&sc, path, sets, 1, err, sizeof(err)), -EINVAL);
	snprintf(msg, sizeof(msg), "%s:2: isr = 1: missing unit; write e.g. 1ms (units: ns, us, "
	         "ms, s)", ppath);
	assert_string_equal(err, msg);

	/* empty file, directory */
	write_file(path, "");
	assert_int_equal(scenario_load(&sc, path, NULL, 0, err, sizeof(err)), -ENODATA);
	snprintf(msg, sizeof(msg), "%s: file is empty", path);
	assert_string_equal(err, msg);
	assert_int_equal(scenario_load(&sc, dir, NULL, 0, err, sizeof(err)), -EISDIR);
	snprintf(msg, sizeof(msg), "%s: is a directory, not a file", dir);
	assert_string_equal(err, msg);
	/* a profile path that is a directory: the message says who named it */
	snprintf(set, sizeof(set), "host.profile=%s", dir);
	assert_int_equal(scenario_load_text(&sc, "[nic eth0]\n", "t.ini", sets, 1, err,
	                                    sizeof(err)), -EISDIR);
	snprintf(msg, sizeof(msg), "--set host.profile=%s: profile = %s: %s: is a directory, not "
	         "a file", dir, dir, dir);
	assert_string_equal(err, msg);

	/* unreadable (root reads anything, so only checked for others) */
	write_file(path, "[nic eth0]\n");
	if (geteuid() != 0) {
		chmod(path, 0);
		assert_int_equal(scenario_load(&sc, path, NULL, 0, err, sizeof(err)), -EACCES);
		snprintf(msg, sizeof(msg), "%s: cannot read: Permission denied", path);
		assert_string_equal(err, msg);
	}
	unlink(path);
	unlink(ppath);
	rmdir(dir);

	/* neither a file nor a built-in */
	assert_int_equal(scenario_load(&sc, "nosuch-xyzzy", NULL, 0, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "no such file or built-in scenario 'nosuch-xyzzy'; try 'rxlab "
	                         "scenarios'");
	/* a profile is not a scenario */
	assert_int_equal(scenario_load(&sc, "profiles/piii-933-e1000", NULL, 0, err, sizeof(err)),
	                 -ENOENT);
}

/* Every built-in scenario must load: they are what `rxlab` runs with no
 * files at all. */
static void test_builtin_scenarios_load(void **state)
{
	(void)state;
	for (const struct builtin_file *f = builtin_files; f->name; f++) {
		if (strncmp(f->name, "profiles/", 9) == 0)
			continue;
		if (scenario_load(&sc, f->name, NULL, 0, err, sizeof(err)) != 0)
			print_error("built-in '%s': %s\n", f->name, err);
		assert_int_equal(scenario_load(&sc, f->name, NULL, 0, err, sizeof(err)), 0);
		assert_string_equal(sc.name, f->name);
	}
	for (const struct builtin_file *f = builtin_files; f->name; f++) {
		if (strncmp(f->name, "profiles/", 9) != 0)
			continue;
		if (profile_load(&prof, f->name + 9, err, sizeof(err)) != 0)
			print_error("built-in '%s': %s\n", f->name, err);
		assert_int_equal(profile_load(&prof, f->name + 9, err, sizeof(err)), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_traffic_defaults),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_section_names),
		cmocka_unit_test(test_value_errors),
		cmocka_unit_test(test_set_plain),
		cmocka_unit_test(test_set_named_and_single),
		cmocka_unit_test(test_set_creates),
		cmocka_unit_test(test_set_errors),
		cmocka_unit_test(test_cross_checks),
		cmocka_unit_test(test_coalescing_check),
		cmocka_unit_test(test_builtin_profile),
		cmocka_unit_test(test_profile_errors),
		cmocka_unit_test(test_scenario_profile),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_builtin_scenarios_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
