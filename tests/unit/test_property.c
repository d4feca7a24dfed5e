/* test_property.c - property-based test of the simulator (issue #8):
 * random valid scenarios, drawn from a fixed seed, must run to completion
 * and keep the invariants; a handful of fixed extreme cases must too.
 *
 * Roadmap.
 *   1. prng: splitmix64 of our own, so that the drawn scenarios do not move
 *      when src/core/rng.c changes.  Every scenario i is drawn from its own
 *      stream (seed, i), so one can be re-drawn alone.
 *   2. draw_*: a scenario is nothing but a list of --set strings applied to
 *      an empty [host] section, exactly what `rxlab run` takes, so a failure
 *      prints a command line that reproduces it.
 *   3. run_once(): the properties, computed here from the structs after
 *      sim_run() and independently of sim_check_invariants():
 *        - sim_run() returns 0 and the engine ends at the duration;
 *        - every queue within its capacity (ring, FIFO, TX ring, qdisc,
 *          backlog, socket);
 *        - per CPU the five buckets add up to the accounted time, which is
 *          the duration (after sim_run's final settle);
 *        - the accounting identity of sim.c check_accounting(), plus the
 *          per-port identities behind it (entered = link drops + overruns +
 *          FIFO + RX-OK; RX-OK = taken + in the ring; entered = frames the
 *          port's sources offered);
 *        - frames go where the routes say (no delivery from a routed port,
 *          no forwarding onto a port nothing routes to);
 *        - time never goes back, seen from the queues: DMA completions in
 *          the ring, arrivals in the FIFO and departures in the TX ring are
 *          in order, and no latency is negative (hist_add clamps at 0);
 *        - a second run of the same scenario gives the same counters, and
 *          that run takes the reference paths the fast ones replaced
 *          (use_reference_paths()), so it checks them too: the interrupt
 *          look-ahead's kept walk (nic.c lookahead) against the walk from
 *          scratch (lookahead_walk), in every coalescing mode drawn; the
 *          engine's keyed events replaced in place against its lazy
 *          deletion (engine.h; events compared as handled - stale);
 *          irq-cpu = float's bitmaps against its scan of every CPU (cpu.h);
 *          and every frame dropped at a full ring and FIFO counted one by
 *          one (the fast RX path counts them in bulk or in closed form:
 *          nic.c drop_run, drop_jump).
 *   4. A watchdog turns a run that never ends into a failure that prints
 *      the scenario: issue #8 asks that every legal input finish.  It
 *      counts the process's CPU time (ITIMER_VIRTUAL), not wall time: on a
 *      loaded machine a run that needs 7 s of CPU took over 30 s of wall
 *      time (SIGALRM failed it in Debug builds).
 *   5. Fixed extreme cases (test_1pps_1s ... test_busy_poll_under_bsd_poll),
 *      each a router eth0 -> eth1 plus --sets, checked the same way; the
 *      last four and the idle-poll hour are bugs this test found, kept as
 *      regression cases.
 *
 * Environment: RXLAB_PROPERTY_N (scenarios per run; default 1000, 300 under
 * AddressSanitizer), RXLAB_PROPERTY_SEED (default PROPERTY_SEED),
 * RXLAB_PROPERTY_ONLY=i (only scenario i, to reproduce one), RXLAB_PROPERTY_VERBOSE
 * (print every scenario before it runs: for a crash that kills the process).
 *
 * Profiles drawn: the three built-ins, a zero-cost profile (every cost 0)
 * and a very slow one (piii-933-e1000 x 1000, capped at the loader's
 * limits of 1 ms per occurrence and 1 us per byte), both written to a
 * temporary directory by the group setup.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "model/scenario_load.h"
#include "sim/results.h"
#include "sim/sim.h"

#define PROPERTY_SEED 0x8a5cd789635d2dffull /* arbitrary; printed on every run */
/* RUN_TIMEOUT_S: the watchdog, in seconds of CPU time of one run */

#if defined(__SANITIZE_ADDRESS__)
#define PROPERTY_N_DEFAULT 300
#define RUN_TIMEOUT_S 120
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROPERTY_N_DEFAULT 300
#define RUN_TIMEOUT_S 120
#endif
#endif
#ifndef PROPERTY_N_DEFAULT
#define PROPERTY_N_DEFAULT 1000
#define RUN_TIMEOUT_S 30
#endif

/* Frames offered per drawn run at most (rate x duration, all sources):
 * keeps one run in the milliseconds. */
#define FRAME_BUDGET 200000.0

/* ---- prng ----------------------------------------------------------------- */

struct prng {
	uint64_t s;
};

static uint64_t pr_next(struct prng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static struct prng pr_stream(uint64_t seed, uint64_t stream)
{
	struct prng r = { seed ^ (stream * 0xd1342543de82ef95ull) };

	pr_next(&r);
	return r;
}

/* Uniform in [lo, hi]. */
static uint64_t pr_range(struct prng *r, uint64_t lo, uint64_t hi)
{
	return lo + pr_next(r) % (hi - lo + 1);
}

static int pr_pct(struct prng *r, unsigned pct)
{
	return pr_next(r) % 100 < pct;
}

/* Log-uniform in [lo, hi], lo >= 1: small and large values equally likely
 * per decade, which is what extreme-but-legal input needs. */
static uint64_t pr_log(struct prng *r, uint64_t lo, uint64_t hi)
{
	double u = (double)(pr_next(r) >> 11) / 9007199254740992.0;
	double v = exp(log((double)lo) + u * (log((double)hi + 1) - log((double)lo)));
	uint64_t x = (uint64_t)v;

	return x < lo ? lo : x > hi ? hi : x;
}

/* ---- scenarios as --set lists ------------------------------------------- */

#define MAX_SETS 200
#define SET_LEN 112

/* Every drawn scenario starts from this text. */
static const char BASE_INI[] = "[host]\n";

struct draw {
	char set[MAX_SETS][SET_LEN];
	const char *ptr[MAX_SETS];
	size_t n;
	char label[64];
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void add(struct draw *d, const char *fmt, ...)
{
	va_list ap;

	assert_true(d->n < MAX_SETS);
	va_start(ap, fmt);
	vsnprintf(d->set[d->n], SET_LEN, fmt, ap);
	va_end(ap);
	d->ptr[d->n] = d->set[d->n];
	d->n++;
}

static void add_list(struct draw *d, const char *const *sets, size_t n)
{
	for (size_t i = 0; i < n; i++)
		add(d, "%s", sets[i]);
}

/* Temporary profiles (group setup). */
static char tmp_dir[64];
static char zero_path[128], slow_path[128], idle_path[128];

static const char *const COST_KEYS[] = {
	"irq-entry", "isr", "reg-read", "rx-pkt", "netif-rx", "backlog-pkt", "napi-poll",
	"softirq-entry", "dma-fixed", "dma-per-byte", "fwd-pkt", "copy-per-byte",
	"tx-clean-pkt", "skb-alloc", "remote-free", "xmit-locked", "ctx-switch", "idle-exit",
	"local-deliver", "syscall",
};
/* piii-933-e1000 x 1000 in ns (per-byte: ps x 1000 = ns), capped at 1 ms
 * per occurrence and 1 us per byte (src/model/profile_load.h); idle-exit,
 * 0 there, is 20 us so that the path runs. */
static const char *const SLOW_COSTS[] = {
	"1ms", "1ms", "1ms", "900us", "500us", "300us", "400us",
	"300us", "500us", "1us", "1ms", "0ps",
	"400us", "700us", "1ms", "300us", "1ms", "20us", "1ms", "1ms",
};

_Static_assert(sizeof(SLOW_COSTS) == sizeof(COST_KEYS), "a slow cost for every key");

/* prop-idle: every cost 500 ns (per byte 1 ps) but idle-exit, a remote
 * wake-up of 5 us (sched-wake), and three idle states whose exits matter. */
static const char *idle_profile_text(void)
{
	static char text[1400];
	size_t o = (size_t)snprintf(text, sizeof(text), "[profile]\nname = prop-idle\n[cost]\n");

	for (size_t i = 0; i < sizeof(COST_KEYS) / sizeof(COST_KEYS[0]); i++)
		if (strcmp(COST_KEYS[i], "idle-exit") != 0)
			o += (size_t)snprintf(text + o, sizeof(text) - o, "%s = %s\n", COST_KEYS[i],
					      strstr(COST_KEYS[i], "per-byte") ? "1ps" : "500ns");
	snprintf(text + o, sizeof(text) - o, "sched-wake = 5us\n[cstates]\nPOLL = 0 0\n"
		 "C1 = 2us 2us\nC6 = 100us 300us\n");
	return text;
}

static const char *profile_text(const char *path)
{
	static char text[1024];
	int slow = strcmp(path, slow_path) == 0;
	size_t o;

	if (strcmp(path, idle_path) == 0)
		return idle_profile_text();
	o = (size_t)snprintf(text, sizeof(text), "[profile]\nname = %s\n[cost]\n",
			     slow ? "prop-slow" : "prop-zero");
	for (size_t i = 0; i < sizeof(COST_KEYS) / sizeof(COST_KEYS[0]); i++)
		o += (size_t)snprintf(text + o, sizeof(text) - o, "%s = %s\n", COST_KEYS[i],
				      slow ? SLOW_COSTS[i]
				      : strstr(COST_KEYS[i], "per-byte") ? "0ps" : "0ns");
	return text;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* The reproducer of @d, for failure messages and the watchdog. */
static void describe(const struct draw *d, uint64_t seed, char *buf, size_t len)
{
	size_t o = 0;

#define PUT(...) (o += o < len ? (size_t)snprintf(buf + o, len - o, __VA_ARGS__) : 0)
	PUT("scenario %s (property seed 0x%016" PRIx64 ")\nreproduce:\n"
	    "  printf '[host]\\n' > /tmp/p.ini\n  rxlab run /tmp/p.ini", d->label, seed);
	for (size_t i = 0; i < d->n; i++)
		PUT(" --set '%s'", d->set[i]);
	for (size_t i = 0; i < d->n; i++) {
		const char *v = strchr(d->set[i], '=') + 1;

		if (strncmp(d->set[i], "host.profile=", 13) == 0 &&
		    (strcmp(v, zero_path) == 0 || strcmp(v, slow_path) == 0 ||
		     strcmp(v, idle_path) == 0))
			PUT("\nwith %s holding:\n%s", v, profile_text(v));
	}
#undef PUT
	if (o >= len)
		buf[len - 1] = '\0';
}

/* ---- the generator ------------------------------------------------------- */

struct gen {
	struct prng r;
	uint32_t cpus, n_nics;
	uint64_t speed[3];
	int64_t duration_ns;
	double rate_sum;      /* offered frames per second, all sources */
	uint32_t n_src;
};

static const char *const RXPATHS[] = { "classic", "isr-while", "isr-loop", "napi", "bsd-poll" };
static const struct { const char *text; uint64_t bps; } SPEEDS[] = {
	{ "10Mbit", 10000000ull },     { "100Mbit", 100000000ull },
	{ "1Gbit", 1000000000ull },    { "10Gbit", 10000000000ull },
	{ "25Gbit", 25000000000ull },  { "40Gbit", 40000000000ull },
	{ "100Gbit", 100000000000ull },
};
#define N_SPEEDS (sizeof(SPEEDS) / sizeof(SPEEDS[0]))

static void draw_host(struct gen *g, struct draw *d, uint64_t i)
{
	uint32_t hz = 1000;
	const char *path = RXPATHS[pr_range(&g->r, 0, 4)];

	g->cpus = i == 3 ? 64 : (uint32_t)pr_range(&g->r, 1, 4);
	add(d, "host.cpus=%u", g->cpus);
	add(d, "host.rxpath=%s", path);
	switch (pr_range(&g->r, 0, 4)) {
	case 0: add(d, "host.profile=piii-933-e1000"); break;
	case 1: add(d, "host.profile=celeron-450-admtek"); break;
	case 2: add(d, "host.profile=duron-600-pnic"); break;
	case 3: add(d, "host.profile=%s", zero_path); break;
	default: add(d, "host.profile=%s", slow_path); break;
	}
	if (pr_pct(&g->r, 30)) {
		static const uint32_t hzs[] = { 100, 250, 300, 1000, 10000 };

		hz = hzs[pr_range(&g->r, 0, 4)];
		add(d, "host.hz=%u", hz);
	}
	if (pr_pct(&g->r, 30))
		add(d, "host.netdev_budget=%" PRIu64, pr_log(&g->r, 1, 1000));
	if (pr_pct(&g->r, 20))
		add(d, "host.netdev_budget_usecs=%" PRIu64 "ns", pr_log(&g->r, 1000, 10000000));
	if (pr_pct(&g->r, 30))
		add(d, "host.netdev_max_backlog=%" PRIu64, pr_log(&g->r, 1, 20000));
	if (pr_pct(&g->r, 20))
		add(d, "host.dev_weight=%" PRIu64, pr_log(&g->r, 1, 1024));
	if (pr_pct(&g->r, 20))
		add(d, "host.napi_weight=%" PRIu64, pr_range(&g->r, 1, 64));
	if (strcmp(path, "bsd-poll") == 0) {
		uint64_t burst_max = pr_range(&g->r, 10, 1000);

		add(d, "host.kern.polling.burst_max=%" PRIu64, burst_max);
		add(d, "host.kern.polling.each_burst=%" PRIu64, pr_range(&g->r, 1, burst_max));
		add(d, "host.kern.polling.user_frac=%" PRIu64, pr_range(&g->r, 0, 99));
		add(d, "host.kern.polling.reg_frac=%" PRIu64, pr_range(&g->r, 1, hz));
		add(d, "host.kern.polling.idle_poll=%" PRIu64, pr_range(&g->r, 0, 1));
	}
	if (pr_pct(&g->r, 30)) {
		add(d, "host.skb-recycle=on");
		add(d, "host.skb-recycle-max=%" PRIu64, pr_log(&g->r, 1, 4096));
	}
}

/* rx-usecs/rx-frames style pair that coal_params_check() accepts. */
static void draw_coal(struct gen *g, struct draw *d, const char *nic, const char *dir)
{
	uint64_t usecs_ns = pr_pct(&g->r, 40) ? 0 : pr_log(&g->r, 1000, 2000000);
	uint64_t frames = usecs_ns == 0 ? (pr_pct(&g->r, 40) ? 1 : pr_range(&g->r, 1, 128))
					: pr_range(&g->r, 0, 128);

	add(d, "nic.%s.%s-usecs=%" PRIu64 "ns", nic, dir, usecs_ns);
	add(d, "nic.%s.%s-frames=%" PRIu64, nic, dir, frames);
	if (pr_pct(&g->r, 20))
		add(d, "nic.%s.%s-usecs-irq=%" PRIu64 "ns", nic, dir, pr_log(&g->r, 1, 1000000));
	if (pr_pct(&g->r, 20))
		add(d, "nic.%s.%s-frames-irq=%" PRIu64, nic, dir, pr_range(&g->r, 0, 256));
	if (pr_pct(&g->r, 50))
		add(d, "nic.%s.cqe-mode-%s=%s", nic, dir, pr_pct(&g->r, 50) ? "on" : "off");
}

static void draw_adaptive(struct gen *g, struct draw *d, const char *nic)
{
	uint64_t lo, hi;

	switch (pr_range(&g->r, 0, 4)) {
	case 0:
		add(d, "nic.%s.adaptive-rx=dim", nic);
		add(d, "nic.%s.dim-work-delay=%" PRIu64 "ns", nic, pr_range(&g->r, 0, 1000000));
		add(d, "nic.%s.dim-start-profile=%" PRIu64, nic, pr_range(&g->r, 0, 4));
		return;
	case 1:
		lo = pr_log(&g->r, 1, 10000000);
		hi = pr_log(&g->r, lo, 20000000);
		add(d, "nic.%s.adaptive-rx=pkt-rate", nic);
		add(d, "nic.%s.pkt-rate-low=%" PRIu64 "pps", nic, lo);
		add(d, "nic.%s.pkt-rate-high=%" PRIu64 "pps", nic, hi);
		add(d, "nic.%s.rx-usecs-low=%" PRIu64 "ns", nic, pr_range(&g->r, 0, 100) * 1000);
		add(d, "nic.%s.rx-frames-low=%" PRIu64, nic, pr_range(&g->r, 1, 64));
		add(d, "nic.%s.rx-usecs-high=%" PRIu64 "ns", nic, pr_range(&g->r, 1, 500) * 1000);
		add(d, "nic.%s.rx-frames-high=%" PRIu64, nic, pr_range(&g->r, 0, 256));
		add(d, "nic.%s.sample-interval=%" PRIu64 "ns", nic, pr_log(&g->r, 1000000, 20000000));
		/* the middle set must not be 0/0 either */
		add(d, "nic.%s.rx-frames=%" PRIu64, nic, pr_range(&g->r, 1, 64));
		return;
	default:
		return; /* off */
	}
}

static void draw_nic(struct gen *g, struct draw *d, uint64_t i, uint32_t k)
{
	char nic[16];
	size_t sp = pr_range(&g->r, 0, N_SPEEDS - 1);

	snprintf(nic, sizeof(nic), "eth%u", k);
	g->speed[k] = SPEEDS[sp].bps;
	add(d, "nic.%s.speed=%s", nic, SPEEDS[sp].text);
	add(d, "nic.%s.rx-ring=%" PRIu64, nic, i == 5 && k == 0 ? 65536 : pr_log(&g->r, 1, 4096));
	add(d, "nic.%s.tx-ring=%" PRIu64, nic, pr_log(&g->r, 1, 4096));
	if (pr_pct(&g->r, 50))
		add(d, "nic.%s.rx-fifo=%" PRIu64, nic, pr_log(&g->r, 2048, 1 << 20));
	if (pr_pct(&g->r, 40))
		add(d, "nic.%s.txqueuelen=%" PRIu64, nic,
		    pr_pct(&g->r, 20) ? 0 : pr_log(&g->r, 1, 10000));
	draw_coal(g, d, nic, "rx");
	draw_coal(g, d, nic, "tx");
	if (pr_pct(&g->r, 20))
		add(d, "nic.%s.min-irq-interval=%" PRIu64 "ns", nic, pr_log(&g->r, 1, 500000));
	add(d, "nic.%s.tx-clean=%s", nic, pr_pct(&g->r, 50) ? "irq" : "xmit");
	if (pr_pct(&g->r, 30))
		add(d, "nic.%s.tx-clean-thresh=%" PRIu64, nic, pr_log(&g->r, 1, 4096));
	if (pr_pct(&g->r, 20))
		add(d, "nic.%s.irq-cpu=float", nic);
	else
		add(d, "nic.%s.irq-cpu=%" PRIu64, nic, pr_range(&g->r, 0, g->cpus - 1));
	if (pr_pct(&g->r, 30))
		add(d, "nic.%s.link-queue=%" PRIu64 "ns", nic,
		    pr_pct(&g->r, 30) ? 0 : pr_log(&g->r, 1, 10000000));
	if (pr_pct(&g->r, 30)) {
		if (!pr_pct(&g->r, 10))
			add(d, "nic.%s.napi_defer_hard_irqs=%" PRIu64, nic, pr_range(&g->r, 1, 10));
		if (!pr_pct(&g->r, 10))
			add(d, "nic.%s.gro_flush_timeout=%" PRIu64 "ns", nic,
			    pr_log(&g->r, 1000, 200000));
	}
	if (pr_pct(&g->r, 20))
		add(d, "nic.%s.threaded=on", nic);
	draw_adaptive(g, d, nic);
	if (pr_pct(&g->r, 40)) {
		static const uint64_t itr[] = { 0, 1, 3, 4 };
		uint64_t v = pr_pct(&g->r, 70) ? itr[pr_range(&g->r, 0, 3)]
					       : pr_range(&g->r, 100, 100000);

		add(d, "nic.%s.InterruptThrottleRate=%" PRIu64, nic, v);
	}
	if (pr_pct(&g->r, 10)) {
		add(d, "nic.%s.RxIntDelay=%" PRIu64, nic, pr_range(&g->r, 0, 200));
		add(d, "nic.%s.RxAbsIntDelay=%" PRIu64, nic, pr_range(&g->r, 0, 400));
	}
	if (pr_pct(&g->r, 10)) {
		add(d, "nic.%s.TxIntDelay=%" PRIu64, nic, pr_range(&g->r, 0, 200));
		add(d, "nic.%s.TxAbsIntDelay=%" PRIu64, nic, pr_range(&g->r, 0, 400));
	}
	if (pr_pct(&g->r, 15))
		add(d, "nic.%s.irq-suspend-timeout=%" PRIu64 "ns", nic, pr_log(&g->r, 1000, 1000000));
}

static void draw_routes(struct gen *g, struct draw *d)
{
	for (uint32_t k = 0; k < g->n_nics; k++) {
		uint64_t to;

		if (!pr_pct(&g->r, 55))
			continue;
		to = pr_range(&g->r, 0, g->n_nics - 1);
		if (to == k && g->n_nics > 1 && !pr_pct(&g->r, 15))
			to = (k + 1) % g->n_nics;
		add(d, "route.eth%u=eth%" PRIu64, k, to);
	}
}

/* Frames per second a port of @bps carries for @bytes frames. */
static double line_pps(uint64_t bps, uint64_t bytes)
{
	return (double)bps / ((double)(bytes + 20) * 8);
}

static void draw_traffic(struct gen *g, struct draw *d)
{
	uint64_t n_src = pr_pct(&g->r, 5) ? 0 : pr_range(&g->r, 1, 4);

	g->n_src = (uint32_t)n_src;
	for (uint64_t j = 0; j < n_src; j++) {
		uint32_t port = (uint32_t)pr_range(&g->r, 0, g->n_nics - 1);
		uint64_t size = pr_pct(&g->r, 40)   ? 64
				: pr_pct(&g->r, 30) ? 1500
				: pr_pct(&g->r, 20) ? 9000
						    : pr_range(&g->r, 64, 9000);
		double max = 2 * line_pps(g->speed[port], size);
		uint64_t rate = pr_log(&g->r, 1, max < 1 ? 1 : (uint64_t)max);
		static const char *const pat[] = { "constant", "poisson", "on-off" };
		uint64_t p = pr_range(&g->r, 0, 2);

		add(d, "traffic.t%" PRIu64 ".port=eth%u", j, port);
		add(d, "traffic.t%" PRIu64 ".pattern=%s", j, pat[p]);
		add(d, "traffic.t%" PRIu64 ".rate=%" PRIu64 "pps", j, rate);
		add(d, "traffic.t%" PRIu64 ".frame-size=%" PRIu64, j, size);
		if (pr_pct(&g->r, 20))
			add(d, "traffic.t%" PRIu64 ".count=%" PRIu64, j, pr_log(&g->r, 1, 10000));
		if (pr_pct(&g->r, 20))
			add(d, "traffic.t%" PRIu64 ".start=%" PRIu64 "ns", j,
			    pr_range(&g->r, 0, (uint64_t)g->duration_ns));
		if (p == 2) {
			add(d, "traffic.t%" PRIu64 ".on=%" PRIu64 "ns", j, pr_log(&g->r, 1000, 5000000));
			add(d, "traffic.t%" PRIu64 ".off=%" PRIu64 "ns", j,
			    pr_pct(&g->r, 10) ? 0 : pr_log(&g->r, 1, 5000000));
		}
		g->rate_sum += (double)rate;
	}
}

/* An epoll server over the drawn sink: workers on CPUs of the host, the
 * spreading, the timeout and the service-time distribution drawn too. */
static void draw_server(struct draw *d, struct gen *g)
{
	static const char *const dist[] = { "fixed", "exp", "lognormal:0.7" };
	uint64_t n = pr_range(&g->r, 1, 2 * g->cpus);

	add(d, "apps.server=epoll");
	add(d, "apps.server-threads=%" PRIu64, n);
	if (n > g->cpus || pr_pct(&g->r, 40)) {
		char list[256] = "";
		size_t o = 0;

		for (uint64_t i = 0; i < n && o + 8 < sizeof(list); i++)
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%" PRIu64, i ? "," : "",
					      pr_range(&g->r, 0, g->cpus - 1));
		add(d, "apps.server-cpus=%s", list);
	}
	add(d, "apps.server-spread=%s", pr_pct(&g->r, 50) ? "napi" : "rr");
	if (pr_pct(&g->r, 30))
		add(d, "apps.epoll-timeout=%" PRIu64 "ns", pr_log(&g->r, 1000, 10000000));
	if (pr_pct(&g->r, 50)) {
		add(d, "apps.server-work=%" PRIu64 "ns", pr_log(&g->r, 1, 50000));
		add(d, "apps.server-work-dist=%s", dist[pr_range(&g->r, 0, 2)]);
	}
}

static void draw_apps(struct gen *g, struct draw *d)
{
	if (pr_pct(&g->r, 50)) {
		add(d, "apps.cpu-hogs=%" PRIu64, pr_range(&g->r, 1, 3));
		add(d, "apps.hog-cpu=%" PRIu64, pr_range(&g->r, 0, g->cpus - 1));
	}
	if (pr_pct(&g->r, 20)) {
		add(d, "apps.ping=on");
		add(d, "apps.ping-cpu=%" PRIu64, pr_range(&g->r, 0, g->cpus - 1));
		add(d, "apps.ping-count=%" PRIu64, pr_log(&g->r, 1, 100000));
		add(d, "apps.ping-size=%" PRIu64, pr_range(&g->r, 0, 1500));
		add(d, "apps.ping-work=%" PRIu64 "ns", pr_log(&g->r, 1, 100000));
	}
	if (pr_pct(&g->r, 15)) {
		add(d, "apps.netperf=%" PRIu64, pr_range(&g->r, 1, 12));
		add(d, "apps.netperf-send-size=%" PRIu64, pr_log(&g->r, 1, 65536));
		add(d, "apps.netperf-recv-size=%" PRIu64, pr_log(&g->r, 1, 131072));
		add(d, "apps.netperf-window=%" PRIu64, pr_log(&g->r, 1, 262144));
		add(d, "apps.netperf-mss=%" PRIu64, pr_log(&g->r, 1, 65483));
		add(d, "apps.netperf-work=%" PRIu64 "ns", pr_log(&g->r, 1, 100000));
		if (pr_pct(&g->r, 50))
			add(d, "host.sched_migration_cost=%" PRIu64 "ns", pr_log(&g->r, 1, 10000000));
	}
	if (!pr_pct(&g->r, 45))
		return;
	add(d, "apps.sink=on");
	add(d, "apps.sink-cpu=%" PRIu64, pr_range(&g->r, 0, g->cpus - 1));
	if (pr_pct(&g->r, 30))
		add(d, "apps.sink-work=%" PRIu64 "ns", pr_log(&g->r, 1, 20000));
	if (pr_pct(&g->r, 30))
		add(d, "apps.rcvbuf=%" PRIu64, pr_log(&g->r, 2048, 1 << 20));
	if (pr_pct(&g->r, 35))
		add(d, "apps.reply-size=%" PRIu64, pr_range(&g->r, 64, 1500));
	if (pr_pct(&g->r, 35))
		add(d, "apps.busy_poll=%" PRIu64 "ns", pr_log(&g->r, 1000, 100000));
	if (pr_pct(&g->r, 40))
		add(d, "apps.prefer_busy_poll=on");
	if (pr_pct(&g->r, 30))
		add(d, "apps.busy_poll_budget=%" PRIu64, pr_range(&g->r, 0, 64));
	if (pr_pct(&g->r, 30))
		add(d, "apps.sink-batch=%" PRIu64, pr_range(&g->r, 1, 64));
	if (pr_pct(&g->r, 30))
		add(d, "apps.ack-every=%" PRIu64, pr_range(&g->r, 1, 4));
	if (pr_pct(&g->r, 30))
		draw_server(d, g);
}

/* The seeds' kernels and drivers: 2.6.12's O(1) scheduler and receive
 * core, e100's poll exit, Olsson's e1000 TX interrupt (a count beside the
 * TIDV timer) with TX cleaned in the hard IRQ. */
static void draw_era(struct prng *r, const struct gen *g0, struct draw *d)
{
	if (pr_pct(r, 20))
		add(d, "host.scheduler=o1");
	if (pr_pct(r, 15))
		add(d, "host.rxcore=2.6");
	for (uint32_t k = 0; k < g0->n_nics; k++) {
		if (pr_pct(r, 15))
			add(d, "nic.eth%u.poll-exit=idle", k);
		if (pr_pct(r, 15)) {
			add(d, "nic.eth%u.tx-clean=hardirq", k);
			add(d, "nic.eth%u.TxIntDelay=%" PRIu64, k, pr_range(r, 0, 128));
			add(d, "nic.eth%u.tx-frames=%" PRIu64, k, pr_range(r, 1, 100));
		}
	}
}

/* Multi-queue ports, from a stream of their own so that the rest of a
 * scenario is what it was before ports had queues: queue counts (one port
 * of scenario 7 has 64), vector placement, indirection tables, per-queue
 * NAPI settings, RPS over every CPU, flows and their popularity, a
 * closed-loop client on a port of its own, wake-up placement on idle CPUs. */
static void draw_queues(const struct gen *g0, struct draw *d, uint64_t seed, uint64_t i)
{
	struct prng r = pr_stream(seed ^ 0x51ee5c0ffee0000ull, i);

	for (uint32_t k = 0; k < g0->n_nics; k++) {
		uint64_t n;

		if (!pr_pct(&r, 50))
			continue;
		n = i == 7 && k == 0 ? 64 : pr_range(&r, 2, 8);
		add(d, "nic.eth%u.combined=%" PRIu64, k, n);
		if (pr_pct(&r, 30))
			add(d, "nic.eth%u.irq-affinity=%s", k, pr_pct(&r, 50) ? "spread" : "0");
		if (pr_pct(&r, 25))
			add(d, "nic.eth%u.indir=equal %" PRIu64, k, pr_range(&r, 1, n));
		else if (pr_pct(&r, 20)) { /* w 0 1 0 1 ...: every other queue idle */
			char list[256];
			int o = snprintf(list, sizeof(list), "weight %" PRIu64, pr_range(&r, 1, 4));

			for (uint64_t q = 1; q < n; q++)
				o += snprintf(list + o, sizeof(list) - (size_t)o, " %u", (unsigned)(q & 1));
			add(d, "nic.eth%u.indir=%s", k, list);
		}
		if (pr_pct(&r, 15))
			add(d, "nic.eth%u.indir-size=%" PRIu64, k, pr_range(&r, n, 512));
		if (pr_pct(&r, 20))
			add(d, "nic.eth%u.rx-flow-hash=sd", k);
		if (pr_pct(&r, 20))
			add(d, "nic.eth%u.rps-cpus=0-%u", k, g0->cpus - 1);
		if (pr_pct(&r, 20)) { /* queue 0 defers, the others do not */
			char list[256] = "";

			for (uint64_t q = 0; q < n; q++)
				strcat(list, q ? " 0" : "3");
			add(d, "nic.eth%u.napi_defer_hard_irqs=%s", k, list);
			add(d, "nic.eth%u.gro_flush_timeout=%" PRIu64 "ns", k, pr_log(&r, 1000, 200000));
		}
	}
	if (pr_pct(&r, 15)) { /* a closed-loop client on a port of its own */
		add(d, "nic.ethc.combined=%" PRIu64, pr_range(&r, 1, 4));
		add(d, "nic.ethc.speed=%s", pr_pct(&r, 50) ? "1Gbit" : "10Gbit");
		add(d, "traffic.closed.port=ethc");
		add(d, "traffic.closed.pattern=closed");
		add(d, "traffic.closed.flows=%" PRIu64, pr_log(&r, 1, 64));
		add(d, "traffic.closed.depth=%" PRIu64, pr_range(&r, 1, 8));
		add(d, "traffic.closed.client-delay=%" PRIu64 "ns", pr_log(&r, 1, 100000));
		add(d, "traffic.closed.client-rto=%" PRIu64 "ns", pr_log(&r, 1000, 10000000));
		add(d, "apps.sink=on");
		add(d, "apps.reply-size=%" PRIu64, pr_range(&r, 64, 1500));
	}
	if (pr_pct(&r, 20))
		add(d, "host.sched_wake_idle=on");
	for (uint32_t j = 0; j < g0->n_src; j++) {
		if (pr_pct(&r, 60))
			add(d, "traffic.t%u.flows=%" PRIu64, j, pr_log(&r, 1, 20000));
		if (pr_pct(&r, 30))
			add(d, "traffic.t%u.flow-popularity=zipf:%" PRIu64 ".%03" PRIu64, j,
			    pr_range(&r, 0, 3), pr_range(&r, 1, 999));
	}
	if (pr_pct(&r, 20)) { /* idle states, their governors and remote wake-ups */
		static const char *const gov[] = { "menu", "teo", "poll" };

		add(d, "host.profile=%s", idle_path);
		add(d, "host.idle=%s", gov[pr_range(&r, 0, 2)]);
		if (pr_pct(&r, 30))
			add(d, "host.max-cstate=%" PRIu64, pr_range(&r, 0, 2));
		if (pr_pct(&r, 40)) { /* kthreads woken across CPUs, some busy polling */
			add(d, "nic.eth0.threaded=%s", pr_pct(&r, 25) ? "busy-poll" : "enabled");
			add(d, "nic.eth0.threaded-cpus=all");
			add(d, "host.sched_wake_idle=on");
		}
	}
	draw_era(&r, g0, d);
}

/* Scenario @i of the run seeded @seed; @queues: with multi-queue ports
 * (draw_queues), else as scenarios were drawn before ports had queues. */
static void draw_scenario(struct draw *d, uint64_t seed, uint64_t i, bool queues)
{
	struct gen g = { .r = pr_stream(seed, i) };
	int64_t cap_ns;

	memset(d, 0, sizeof(*d));
	snprintf(d->label, sizeof(d->label), "#%" PRIu64, i);
	g.duration_ns = (int64_t)pr_log(&g.r, 1000, 50000000);
	draw_host(&g, d, i);
	g.n_nics = (uint32_t)pr_range(&g.r, 1, 3);
	for (uint32_t k = 0; k < g.n_nics; k++)
		draw_nic(&g, d, i, k);
	draw_routes(&g, d);
	draw_traffic(&g, d);
	draw_apps(&g, d);
	if (pr_pct(&g.r, 20))
		add(d, "run.timeslice=%" PRIu64 "ns", pr_log(&g.r, 100000, 10000000));
	if (pr_pct(&g.r, 10))
		add(d, "run.vmstat-interval=%" PRIu64 "ns", pr_log(&g.r, 1000, 100000000));
	add(d, "run.seed=%" PRIu64, pr_next(&g.r));
	/* cheap runs: at most FRAME_BUDGET frames offered */
	cap_ns = g.rate_sum > 0 ? (int64_t)(FRAME_BUDGET / g.rate_sum * 1e9) : INT64_MAX;
	if (g.duration_ns > cap_ns)
		g.duration_ns = cap_ns < 1000 ? 1000 : cap_ns;
	add(d, "run.duration=%" PRId64 "ns", g.duration_ns);
	if (pr_pct(&g.r, 50))
		add(d, "run.warmup=%" PRIu64 "ns", pr_range(&g.r, 0, (uint64_t)g.duration_ns - 1));
	if (queues)
		draw_queues(&g, d, seed, i);
}

/* ---- running and checking ------------------------------------------------ */

/* What a run must reproduce exactly (determinism). */
struct fingerprint {
	int64_t now;
	uint64_t events;
	struct nic_counters nic[SIM_MAX_QUEUES]; /* per queue */
	uint64_t acct[SCN_MAX_CPUS][ACCT_N];
	uint64_t cs[SCN_MAX_CPUS];
	struct softnet_counters sn[SCN_MAX_CPUS];
	uint64_t lat_n;
	int64_t lat_min, lat_max;
	double lat_sum;
	int64_t thread_ns[SIM_MAX_THREADS];
	uint64_t held;
};

static const char *const NIC_COUNTER_NAMES[] = {
	"entered", "link_drop", "rx_ok", "rx_ovr", "rx_drp", "rx_taken", "rx_bytes", "tx_ok",
	"tx_drp", "delivered", "sock_drop", "tx_replies", "tx_bytes", "tx_acks", "acks_gen", "irqs", "rx_irqs",
	"tx_irqs", "tx_cleaned", "polls", "poll_pkts", "gro_segs", "gro_skbs", "gro_skb_segs",
};
_Static_assert(sizeof(struct nic_counters) == sizeof(NIC_COUNTER_NAMES) / sizeof(char *) * 8,
	       "NIC_COUNTER_NAMES must list struct nic_counters in order");

static const char *const ACCT_NAMES[ACCT_N] = { "user", "system", "hardirq", "softirq", "idle" };

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Queued frames in order of @field (t_evt or t_arr): time does not go back. */
static int queue_in_order(const struct pktq *q, int by_evt)
{
	for (uint32_t j = 1; j < q->count; j++) {
		const struct pkt *a = pktq_at(q, j - 1), *b = pktq_at(q, j);

		if ((by_evt ? b->t_evt < a->t_evt : b->t_arr < a->t_arr))
			return -1;
	}
	return 0;
}

static int check_nic_queues(const struct sim *s, const struct nic *n, char *why, size_t len)
{
	const struct scn_nic *cfg = n->cfg;

	if (n->ring.count > cfg->rx_ring || n->ring_used > cfg->rx_ring ||
	    n->ring.count > n->ring_used)
		return bad(why, len, "%s: RX ring %u frames, %u descriptors used, rx-ring %u",
			   cfg->name, n->ring.count, n->ring_used, cfg->rx_ring);
	if (n->fifo_bytes > cfg->rx_fifo_bytes)
		return bad(why, len, "%s: RX FIFO %u bytes > rx-fifo %u", cfg->name, n->fifo_bytes,
			   cfg->rx_fifo_bytes);
	if (n->txr.count > cfg->tx_ring || n->departed > n->txr.count)
		return bad(why, len, "%s: TX ring %u (departed %u) > tx-ring %u", cfg->name,
			   n->txr.count, n->departed, cfg->tx_ring);
	if (n->qdisc.count > cfg->txqueuelen)
		return bad(why, len, "%s: qdisc %u > txqueuelen %u", cfg->name, n->qdisc.count,
			   cfg->txqueuelen);
	if (n->notified > n->ring.count)
		return bad(why, len, "%s: %u completions notified of %u in the ring", cfg->name,
			   n->notified, n->ring.count);
	if (queue_in_order(&n->ring, 1) || queue_in_order(&n->fifo, 0) ||
	    queue_in_order(&n->txr, 1))
		return bad(why, len, "%s: a queue is out of time order (ring/FIFO/TX ring)",
			   cfg->name);
	(void)s;
	return 0;
}

/* Per port: where its frames are (nic.c link_step, rx_accept, nic_rx_take). */
static int check_nic_counters(const struct sim *s, const struct nic *n, char *why, size_t len)
{
	const struct nic_counters *c = &n->c;
	const struct scenario *scn = s->scn;
	uint64_t offered = 0, limit = 0, unlimited = 0, routed_here = 0;

	if (c->entered != c->link_drop + c->rx_ovr + n->fifo.count + c->rx_ok)
		return bad(why, len, "%s: entered %" PRIu64 " != link_drop %" PRIu64
			   " + rx_ovr %" PRIu64 " + FIFO %u + rx_ok %" PRIu64, n->cfg->name,
			   c->entered, c->link_drop, c->rx_ovr, n->fifo.count, c->rx_ok);
	if (c->rx_ok != c->rx_taken + n->ring.count)
		return bad(why, len, "%s: rx_ok %" PRIu64 " != taken %" PRIu64 " + ring %u",
			   n->cfg->name, c->rx_ok, c->rx_taken, n->ring.count);
	if (n->qid == 0) { /* the port's sources against all its queues */
		const struct port *pt = &s->port[n->port];
		uint64_t entered = 0;

		for (uint16_t j = 0; j < pt->n_src; j++) {
			const struct source *src = &s->src[pt->src[j]];

			offered += src->k;
			limit += src->cfg->count;
			unlimited |= src->cfg->count == 0;
		}
		for (uint16_t q = 0; q < pt->n_q; q++)
			entered += s->nic[pt->first + q].c.entered + s->nic[pt->first + q].inq.count;
		if (offered != entered)
			return bad(why, len, "%s: sources offered %" PRIu64 ", port resolved %" PRIu64
				   " (entered + in the queues' inq)", n->cfg->name, offered, entered);
		if (!unlimited && entered > limit)
			return bad(why, len, "%s: resolved %" PRIu64 " > traffic count %" PRIu64,
				   n->cfg->name, entered, limit);
	}
	if (c->tx_replies > c->tx_ok)
		return bad(why, len, "%s: tx_replies %" PRIu64 " > tx_ok %" PRIu64, n->cfg->name,
			   c->tx_replies, c->tx_ok);
	for (uint16_t j = 0; j < s->n_nics; j++)
		routed_here += s->nic[j].out == (int16_t)n->id;
	if (!routed_here && c->tx_ok != c->tx_replies + c->tx_acks)
		return bad(why, len, "%s: %" PRIu64 " frames forwarded out of a port no route "
			   "leads to", n->cfg->name, c->tx_ok - c->tx_replies - c->tx_acks);
	if (c->tx_acks > c->acks_gen)
		return bad(why, len, "%s: %" PRIu64 " ACKs sent, %" PRIu64 " generated",
			   n->cfg->name, c->tx_acks, c->acks_gen);
	if (n->out >= 0 && (c->delivered || c->sock_drop))
		return bad(why, len, "%s: routed, yet %" PRIu64 " delivered, %" PRIu64
			   " socket drops", n->cfg->name, c->delivered, c->sock_drop);
	if (!scn->apps.sink && (c->sock_drop || c->tx_replies))
		return bad(why, len, "%s: no sink, yet sock_drop %" PRIu64 " tx_replies %" PRIu64,
			   n->cfg->name, c->sock_drop, c->tx_replies);
	if (scn->apps.sink && scn->apps.reply_bytes && c->delivered)
		return bad(why, len, "%s: a server counts replies, yet delivered = %" PRIu64,
			   n->cfg->name, c->delivered);
	if (scn->host.rxpath == RXPATH_BSD_POLL && c->irqs)
		return bad(why, len, "%s: bsd-poll keeps interrupts off, yet %" PRIu64 " irqs",
			   n->cfg->name, c->irqs);
	return 0;
}

/* Loopback frames (ping, netperf) in CPU @i's backlog. */
static uint32_t loopback_in_backlog(const struct sim *s, uint16_t i)
{
	const struct pktq *q = &s->cpu[i].backlog;
	uint32_t n = 0;

	for (uint32_t k = 0; k < q->count; k++) {
		const struct pkt *p = pktq_at(q, k);

		n += p->reply >= PKT_PING_REQ;
	}
	return n;
}

/* netperf: every byte sent is read, queued at netserver, or on its way
 * (a segment in a backlog); the window holds; ACKs never exceed data. */
static int check_netperf(const struct sim *s, char *why, size_t len)
{
	for (uint32_t c = 0; c < s->np.n; c++) {
		const struct np_conn *k = &s->np.c[c];
		uint64_t wire = 0, acks = 0;
		uint32_t reading = k->rcv_step == NR_READ ? k->reading : 0;
		uint32_t building = k->snd_step == NS_XMIT ? k->snd_seg : 0;

		for (uint16_t i = 0; i < s->n_cpus; i++) {
			const struct pktq *q = &s->cpu[i].backlog;

			for (uint32_t j = 0; j < q->count; j++) {
				const struct pkt *p = pktq_at(q, j);

				if (pkt_is_netperf(p) && p->in_nic == c)
					*(p->reply == PKT_NP_DATA ? &wire : &acks) += p->len;
			}
		}
		if (k->sent != k->bytes + k->unread + reading + wire)
			return bad(why, len, "netperf/%u: sent %" PRIu64 " != read %" PRIu64 " + queued %u"
				   " + being read %u + in backlogs %" PRIu64, c, k->sent, k->bytes,
				   k->unread, reading, wire);
		if (k->unacked > s->scn->apps.netperf_window || acks > k->unacked ||
		    k->sent - k->acked != (uint64_t)k->unacked - building)
			return bad(why, len, "netperf/%u: unacked %u window %u, ACKs in backlogs %" PRIu64
				   ", sent %" PRIu64 " acked %" PRIu64, c, k->unacked,
				   s->scn->apps.netperf_window, acks, k->sent, k->acked);
	}
	return 0;
}

/* sim.c check_accounting(), recomputed: every frame that entered is in one
 * terminal counter or still queued.  A server's request ends as its reply
 * (tx_ok or tx_drp of the reply), so it is never counted as delivered. */
static int check_identity(const struct sim *s, uint64_t *held_out, char *why, size_t len)
{
	uint64_t in = 0, out = 0, held = 0;

	for (uint16_t i = 0; i < s->n_nics; i++) {
		const struct nic *n = &s->nic[i];
		const struct nic_counters *c = &n->c;

		in += c->entered + c->acks_gen;
		out += c->link_drop + c->rx_ovr + c->rx_drp + c->tx_drp + c->tx_ok + c->delivered +
		       c->sock_drop;
		held += n->fifo.count + n->ring.count + n->qdisc.count + (n->txr.count - n->departed);
	}
	for (uint16_t i = 0; i < s->n_cpus; i++)
		held += s->cpu[i].backlog.count;
	held += rps_in_flight(s);
	held -= s->ping.queued + s->np.queued; /* loopback frames are not NIC frames */
	held += sock_in_flight(s);
	*held_out = held;
	/* ping: one echo outstanding at a time, each reply from a request */
	if (s->ping.received > s->ping.echoed || s->ping.echoed > s->ping.sent ||
	    s->ping.sent - s->ping.received > 1 || s->ping.lost > 1 ||
	    s->ping.received > s->scn->apps.ping_count)
		return bad(why, len, "ping: sent %" PRIu64 " echoed %" PRIu64 " received %" PRIu64
			   " lost %" PRIu64, s->ping.sent, s->ping.echoed, s->ping.received,
			   s->ping.lost);
	if (in != out + held)
		return bad(why, len, "accounting: entered %" PRIu64 " != terminal %" PRIu64
			   " + queued %" PRIu64, in, out, held);
	return 0;
}

static bool user_kind(enum thread_kind k)
{
	return k == THR_HOG || k == THR_SINK || k == THR_PING || k == THR_NETPERF ||
	       k == THR_NETSERVER;
}

/* Thread time against CPU time over the CPUs in [lo, hi]: threads that
 * roam (netperf) are checked over the whole machine, the rest per CPU. */
static int check_thread_time(const struct sim *s, uint16_t lo, uint16_t hi, char *why,
			     size_t len)
{
	int64_t end = s->scn->run.duration_ns;
	uint64_t user = 0, thr = 0, user_thr = 0;

	for (uint16_t i = lo; i <= hi; i++)
		user += s->cpu[i].acct[ACCT_USER];
	for (uint16_t t = 0; t < s->n_threads; t++) {
		const struct thread *th = &s->thr[t];

		if (lo == hi && th->cpu != lo)
			continue;
		if (th->cpu_ns < 0)
			return bad(why, len, "thread %s: cpu_ns %" PRId64 " < 0", th->name, th->cpu_ns);
		thr += (uint64_t)th->cpu_ns;
		if (user_kind(th->kind))
			user_thr += (uint64_t)th->cpu_ns;
	}
	if (thr > (uint64_t)end * (uint64_t)(hi - lo + 1))
		return bad(why, len, "cpus %u-%u: their threads ran %" PRIu64 " ns in %" PRId64 " ns",
			   lo, hi, thr, end);
	if (user > user_thr)
		return bad(why, len, "cpus %u-%u: user time %" PRIu64 " > application thread time %"
			   PRIu64, lo, hi, user, user_thr);
	return 0;
}

static int check_cpus(const struct sim *s, char *why, size_t len)
{
	const struct scenario *scn = s->scn;
	int64_t end = scn->run.duration_ns;

	for (uint16_t i = 0; i < s->n_cpus; i++) {
		const struct cpu *c = &s->cpu[i];
		uint64_t sum = 0;

		for (int k = 0; k < ACCT_N; k++)
			sum += c->acct[k];
		if ((int64_t)sum != c->acct_t || c->acct_t != end)
			return bad(why, len, "cpu%u: buckets sum to %" PRIu64 " ns, accounted to %" PRId64
				   ", duration %" PRId64 " (user %" PRIu64 " system %" PRIu64
				   " hardirq %" PRIu64 " softirq %" PRIu64 " idle %" PRIu64 ")",
				   i, sum, c->acct_t, end, c->acct[0], c->acct[1], c->acct[2],
				   c->acct[3], c->acct[4]);
		if (c->backlog.count > scn->host.netdev_max_backlog)
			return bad(why, len, "cpu%u: backlog %u > netdev_max_backlog %u", i,
				   c->backlog.count, scn->host.netdev_max_backlog);
		/* RPS queues NIC frames on backlogs on purpose */
		if ((scn->host.rxpath == RXPATH_NAPI || scn->host.rxpath == RXPATH_BSD_POLL) &&
		    !s->rps && c->backlog.count > loopback_in_backlog(s, i))
			return bad(why, len, "cpu%u: %u frames in the backlog on a polling path", i,
				   c->backlog.count);
		if (!s->n_roam && check_thread_time(s, i, i, why, len))
			return -1;
	}
	return s->n_roam ? check_thread_time(s, 0, (uint16_t)(s->n_cpus - 1), why, len) : 0;
}

static void fingerprint(const struct sim *s, uint64_t held, struct fingerprint *f)
{
	memset(f, 0, sizeof(*f));
	f->now = s->eng.now;
	f->events = s->eng.handled - s->eng.stale; /* stale: the slow path's */
#ifdef PROPERTY_ARRIVAL_WAKES
	f->events = 0; /* test_arrival_wakes.c: the wakes left out are events */
#endif
	for (uint16_t i = 0; i < s->n_nics; i++)
		f->nic[i] = s->nic[i].c;
	for (uint16_t i = 0; i < s->n_cpus; i++) {
		memcpy(f->acct[i], s->cpu[i].acct, sizeof(f->acct[i]));
		f->cs[i] = s->cpu[i].cs;
		f->sn[i] = s->cpu[i].sn;
	}
	f->lat_n = s->lat.n;
	f->lat_min = s->lat.min;
	f->lat_max = s->lat.max;
	f->lat_sum = s->lat.sum;
	for (uint16_t i = 0; i < s->n_threads; i++)
		f->thread_ns[i] = s->thr[i].cpu_ns;
	f->held = held;
}

static int compare(const struct fingerprint *a, const struct fingerprint *b, char *why,
		   size_t len)
{
	if (a->now != b->now || a->events != b->events)
		return bad(why, len, "fast and reference runs differ (or not deterministic): t %" PRId64 "/%" PRId64 ", events %" PRIu64
			   "/%" PRIu64, a->now, b->now, a->events, b->events);
	for (int i = 0; i < SIM_MAX_QUEUES; i++) {
		const uint64_t *x = (const uint64_t *)&a->nic[i], *y = (const uint64_t *)&b->nic[i];

		for (size_t k = 0; k < sizeof(NIC_COUNTER_NAMES) / sizeof(char *); k++)
			if (x[k] != y[k])
				return bad(why, len, "fast and reference runs differ (or not deterministic): queue %d %s %" PRIu64 " then %"
					   PRIu64, i, NIC_COUNTER_NAMES[k], x[k], y[k]);
	}
	for (int i = 0; i < SCN_MAX_CPUS; i++)
		for (int k = 0; k < ACCT_N; k++)
			if (a->acct[i][k] != b->acct[i][k])
				return bad(why, len, "fast and reference runs differ (or not deterministic): cpu%d %s %" PRIu64 " then %"
					   PRIu64, i, ACCT_NAMES[k], a->acct[i][k], b->acct[i][k]);
	if (memcmp(a, b, sizeof(*a)) != 0)
		return bad(why, len, "fast and reference runs differ (or not deterministic): softnet, context switch, latency or "
			   "thread counters differ");
	return 0;
}

struct outcome {
	struct fingerprint fp;
	uint64_t entered, events;
};

/* The watchdog's view of the run in progress. */
static char current[16384];

static void on_alarm(int sig)
{
	static const char msg[] = "\ntest_property: a run did not finish within "
				  "its CPU time; the scenario:\n";
	ssize_t rc;

	(void)sig;
	rc = write(2, msg, sizeof(msg) - 1);
	rc = write(2, current, strlen(current));
	rc = write(2, "\n", 1);
	(void)rc;
	_exit(3);
}

/* Arm (@cpu_s > 0) or disarm (0) the watchdog: SIGVTALRM after @cpu_s
 * seconds of user CPU time of this process. */
static void watchdog(unsigned cpu_s)
{
	struct itimerval it = { .it_value = { .tv_sec = cpu_s } };

	setitimer(ITIMER_VIRTUAL, &it, NULL);
}

/* The slow paths kept as references for fast ones, for the second run. */
static void use_reference_paths(struct sim *s)
{
#ifdef PROPERTY_ARRIVAL_WAKES
	for (uint16_t i = 0; i < s->n_nics; i++)
		s->nic[i].wake_ref = true; /* test_arrival_wakes.c: only this one */
	return;
#endif
	for (uint16_t i = 0; i < s->n_nics; i++)
		s->nic[i].walk_ref = true; /* coalescing look-ahead: walk from scratch */
	s->eng.lazy = true; /* events: lazy deletion, not keyed replace (engine.h) */
	s->sched.float_scan = true; /* irq-cpu = float: scan every CPU (cpu.h) */
	for (uint16_t i = 0; i < s->n_ports; i++) {
		s->port[i].drop_src = NULL; /* RX: every frame by itself (RXLAB_RX_PERFRAME=1) */
		s->port[i].const_src = NULL; /* and each through the peek */
	}
}

/* Load, run and check @d once (@reference: on the reference paths); fills
 * @o.  0, or -1 with @why. */
static int run_once(const struct draw *d, bool reference, struct outcome *o, char *why,
		    size_t len)
{
	struct scenario *scn = calloc(1, sizeof(*scn));
	struct sim *s = calloc(1, sizeof(*s));
	char err[512] = "";
	uint64_t held = 0;
	int rc = -1;

	assert_non_null(scn);
	assert_non_null(s);
	if (scenario_load_text(scn, BASE_INI, "prop.ini", d->ptr, d->n, err, sizeof(err))) {
		bad(why, len, "generator bug: scenario_load_text() rejected it: %s", err);
		free(scn);
		free(s);
		return -1;
	}
	if (sim_init(s, scn)) {
		bad(why, len, "sim_init(): %s", s->fatal);
		goto out;
	}
	if (reference)
		use_reference_paths(s);
	watchdog(RUN_TIMEOUT_S);
	rc = sim_run(s);
	watchdog(0);
	if (rc || s->fatal[0]) {
		rc = bad(why, len, "sim_run() = %d: %s", rc, s->fatal);
		goto out;
	}
	rc = -1;
	if (s->eng.now != scn->run.duration_ns) {
		bad(why, len, "engine ended at %" PRId64 " ns, duration %" PRId64, s->eng.now,
		    scn->run.duration_ns);
		goto out;
	}
	for (uint16_t i = 0; i < s->n_nics; i++)
		if (check_nic_queues(s, &s->nic[i], why, len) ||
		    check_nic_counters(s, &s->nic[i], why, len))
			goto out;
	for (uint16_t i = 0; i < s->sock.n; i++) {
		const struct sock *k = &s->sock.w[i];

		if (k->q.count <= k->q.cap && k->bytes <= s->scn->apps.rcvbuf)
			continue;
		bad(why, len, "socket %u: %u datagrams, %" PRIu64 " bytes > rcvbuf %u", i,
		    k->q.count, k->bytes, s->scn->apps.rcvbuf);
		goto out;
	}
	if (check_cpus(s, why, len) || check_identity(s, &held, why, len) ||
	    check_netperf(s, why, len))
		goto out;
	if (s->lat.n && s->lat.min <= 0 && scn->profile.dma_fixed_ns > 0) {
		bad(why, len, "a latency of %" PRId64 " ns (time went back?)", s->lat.min);
		goto out;
	}
	fingerprint(s, held, &o->fp);
	o->events = s->eng.handled - s->eng.stale;
	o->entered = 0;
	for (uint16_t i = 0; i < s->n_nics; i++)
		o->entered += s->nic[i].c.entered;
	rc = 0;
out:
	sim_free(s);
	free(s);
	free(scn);
	return rc;
}

/* Run @d twice, the second time on the reference paths, check both runs
 * and that they agree.  Fails the test with the reproducer. */
static void run_and_check(const struct draw *d, uint64_t seed, struct outcome *o)
{
	static struct outcome again;
	char why[1024] = "";

	describe(d, seed, current, sizeof(current));
	if (getenv("RXLAB_PROPERTY_VERBOSE"))
		fprintf(stderr, "%s\n", current);
	if (run_once(d, false, o, why, sizeof(why)) == 0 &&
	    run_once(d, true, &again, why, sizeof(why)) == 0 &&
	    compare(&o->fp, &again.fp, why, sizeof(why)) == 0)
		return;
	fprintf(stderr, "%s\n%s\n", why, current); /* print_error() truncates */
	fflush(stderr);
	fail_msg("%s: %s", d->label, why);
}

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : def;
}

/* ---- drawn scenarios that found bugs -------------------------------------- */

/* Scenarios of other seeds than the default that failed once, kept as
 * regression cases: (3, 92) lost a NAPI hrtimer expiry that merged into
 * the same timer's IRQ still queued (the watchdog ran once for two
 * expiries); (0x8a5cd789635d2dff, 173) had a busy poll release another
 * port's NAPI than the one it claimed. */
static void test_drawn_regressions(void **state)
{
	static const uint64_t cases[][2] = { { 3, 92 }, { 0x8a5cd789635d2dffull, 173 } };
	static struct draw d;
	static struct outcome o;

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		draw_scenario(&d, cases[k][0], cases[k][1], false);
		run_and_check(&d, cases[k][0], &o);
	}
}

/* ---- the random scenarios ------------------------------------------------ */

static void test_random_scenarios(void **state)
{
	uint64_t seed = env_u64("RXLAB_PROPERTY_SEED", PROPERTY_SEED);
	uint64_t n = env_u64("RXLAB_PROPERTY_N", PROPERTY_N_DEFAULT);
	const char *only = getenv("RXLAB_PROPERTY_ONLY");
	uint64_t first = only && *only ? strtoull(only, NULL, 0) : 0;
	uint64_t last = only && *only ? first + 1 : n;
	uint64_t frames = 0, events = 0, max_events = 0;
	static struct draw d;
	static struct outcome o;

	(void)state;
	print_message("property seed 0x%016" PRIx64 ", scenarios %" PRIu64 "..%" PRIu64
		      " (RXLAB_PROPERTY_SEED, RXLAB_PROPERTY_N, RXLAB_PROPERTY_ONLY)\n",
		      seed, first, last > first ? last - 1 : first);
	for (uint64_t i = first; i < last; i++) {
		draw_scenario(&d, seed, i, true);
		run_and_check(&d, seed, &o);
		if (getenv("RXLAB_PROPERTY_VERBOSE"))
			fprintf(stderr, "%s: %" PRIu64 " frames, %" PRIu64 " events\n", d.label,
				o.entered, o.events);
		frames += o.entered;
		events += o.events;
		if (o.events > max_events)
			max_events = o.events;
	}
	print_message("%" PRIu64 " scenarios: %" PRIu64 " frames, %" PRIu64 " events (most in one "
		      "run %" PRIu64 ")\n", last - first, frames, events, max_events);
}

/* ---- the drop paths --------------------------------------------------- */

/* Drop the drawn traffic of @d (every traffic.* set). */
static void drop_traffic(struct draw *d)
{
	size_t k = 0;

	for (size_t i = 0; i < d->n; i++) {
		if (strncmp(d->set[i], "traffic.", 8) == 0)
			continue;
		if (k != i)
			memcpy(d->set[k], d->set[i], SET_LEN);
		d->ptr[k] = d->set[k];
		k++;
	}
	d->n = k;
}

/* @x rounded down to 3 significant digits, at least 1. */
static uint64_t round3(double x)
{
	uint64_t v = x < 1 ? 1 : (uint64_t)x, m = 1;

	while (v / m >= 1000)
		m *= 10;
	return v / m * m;
}

/* One source alone on eth0 in place of the drawn traffic: a constant (or
 * stream) source at a round fraction of the line rate has a short period,
 * which the RX path jumps over in closed form while the queue can take
 * nothing (src/sim/nic.c, drop_jump()); random rates rarely have one.
 * Near the line rate the link waits within a period, just above it the
 * waits grow (no period: link drops). */
static void draw_lone_source(struct prng *r, struct draw *d)
{
	static const char *const speed[] = { "100Mbit", "1Gbit", "10Gbit", "100Gbit" };
	static const uint64_t bps[] = { 100000000, 1000000000, 10000000000, 100000000000 };
	static const char *const pat[] = { "constant", "constant", "constant", "stream",
					   "poisson", "on-off" };
	uint64_t sp = pr_range(r, 0, 3), p = pr_range(r, 0, 5);
	uint64_t size = p == 3 ? pr_range(r, 128, 1518) : pr_pct(r, 60) ? 64 : pr_range(r, 64, 1518);
	uint64_t milli = pr_pct(r, 30) ? pr_range(r, 990, 1010) : pr_range(r, 500, 1200);
	uint64_t rate = round3(line_pps(bps[sp], size) * (double)milli / 1000);
	uint64_t dur_ns = 100000000000000ull / rate; /* 100,000 frames */

	drop_traffic(d);
	add(d, "nic.eth0.speed=%s", speed[sp]);
	add(d, "traffic.t0.port=eth0");
	add(d, "traffic.t0.pattern=%s", pat[p]);
	add(d, "traffic.t0.frame-size=%" PRIu64, size);
	add(d, "traffic.t0.rate=%" PRIu64 "pps", rate);
	if (p == 5)
		add(d, "traffic.t0.on=%" PRIu64 "ns", pr_log(r, 1000, 1000000));
	if (pr_pct(r, 40))
		add(d, "traffic.t0.flows=%" PRIu64, pr_log(r, 2, 1000));
	if (pr_pct(r, 20))
		add(d, "traffic.t0.count=%" PRIu64, pr_log(r, 1, 300000));
	if (pr_pct(r, 20))
		add(d, "traffic.t0.start=%" PRIu64 "ns", pr_log(r, 1, 1000000));
	if (pr_pct(r, 30))
		add(d, "nic.eth0.link-queue=%" PRIu64 "ns", pr_log(r, 1, 100000));
	add(d, "run.duration=%" PRIu64 "ns", dur_ns < 50000000 ? dur_ns : 50000000);
	add(d, "run.warmup=0");
}

/* Drawn scenarios with their traffic replaced by draw_lone_source():
 * run_and_check() compares every counter with the per-frame path. */
static void test_drop_paths(void **state)
{
	uint64_t seed = env_u64("RXLAB_PROPERTY_SEED", PROPERTY_SEED) ^ 0xd7095ull;
	uint64_t n = env_u64("RXLAB_PROPERTY_N", PROPERTY_N_DEFAULT) / 4;
	static struct draw d;
	static struct outcome o;

	(void)state;
	for (uint64_t i = 0; i < n; i++) {
		struct prng r = pr_stream(seed, i);

		draw_scenario(&d, seed, i, true);
		draw_lone_source(&r, &d);
		run_and_check(&d, seed, &o);
	}
}

/* ---- fixed extreme cases ------------------------------------------------- */

/* A router eth0 -> eth1 with one constant source; @extra --sets on top. */
static void fixed(const char *label, const char *const *extra, size_t n, struct outcome *o)
{
	static const char *const base[] = {
		"nic.eth0.rx-usecs=0", "nic.eth0.rx-frames=1", "nic.eth1.tx-clean=xmit",
		"traffic.port=eth0", "route.eth0=eth1",
	};
	static struct draw d;

	memset(&d, 0, sizeof(d));
	snprintf(d.label, sizeof(d.label), "%s", label);
	add_list(&d, base, sizeof(base) / sizeof(base[0]));
	add_list(&d, extra, n);
	run_and_check(&d, 0, o);
}

#define FIXED(label, o, ...) fixed(label, (const char *const[]){ __VA_ARGS__ }, \
	sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *), o)

static const char *const PATH_SETS[] = {
	"host.rxpath=classic", "host.rxpath=isr-while", "host.rxpath=isr-loop",
	"host.rxpath=napi", "host.rxpath=bsd-poll",
};
#define N_PATHS (sizeof(PATH_SETS) / sizeof(PATH_SETS[0]))

/* 1 pps for 1 s: one frame at t = 0, then silence. */
static void test_1pps_1s(void **state)
{
	struct outcome o;

	(void)state;
	for (size_t p = 0; p < N_PATHS; p++) {
		FIXED("1pps-1s", &o, PATH_SETS[p], "traffic.rate=1pps", "run.duration=1s");
		assert_int_equal(o.entered, 1);
	}
}

/* 200 Mpps offered on 800 Gbit/s (line rate for 64 B: 1.19 Gpps) for 1, 10
 * and 100 us, on every path, with a real and the zero-cost profile. */
static void test_200mpps_800gbit(void **state)
{
	static const char *const durations[] = { "run.duration=1us", "run.duration=10us",
						  "run.duration=100us" };
	char prof[160];
	struct outcome o;

	(void)state;
	for (size_t p = 0; p < N_PATHS; p++)
		for (size_t t = 0; t < 3; t++)
			for (int z = 0; z < 2; z++) {
				snprintf(prof, sizeof(prof), "host.profile=%s",
					 z ? zero_path : "piii-933-e1000");
				FIXED("200Mpps-800Gbit", &o, PATH_SETS[p], durations[t], prof,
				      "nic.eth0.speed=800Gbit", "nic.eth1.speed=800Gbit",
				      "nic.eth0.rx-fifo=64MiB", "traffic.rate=200Mpps");
			}
}

/* Rings of 1 and 65536 descriptors, under overload (2 Mpps on 1 Gbit/s). */
static void test_ring_1_and_65536(void **state)
{
	struct outcome o;

	(void)state;
	for (size_t p = 0; p < N_PATHS; p++) {
		FIXED("ring-1", &o, PATH_SETS[p], "nic.eth0.rx-ring=1", "nic.eth1.tx-ring=1",
		      "traffic.rate=2Mpps", "run.duration=5ms");
		FIXED("ring-65536", &o, PATH_SETS[p], "nic.eth0.rx-ring=65536",
		      "nic.eth1.tx-ring=65536", "nic.eth0.rx-fifo=64MiB", "traffic.rate=2Mpps",
		      "run.duration=5ms");
	}
}

/* A constant source at 1.5 times the line rate of 1 Gbit/s over 64 flows
 * that RSS spreads over 4 queues, a link queue of 2 us: the link drops
 * every third frame, and each run ends with link drops in flight, whose
 * time is their offer, not their arrival (src/sim/nic.c,
 * link_fill_constant(), against the peek path of the reference run).
 * Eight ends, a few ns apart. */
static void test_link_drops_multiqueue(void **state)
{
	char dur[64];
	struct outcome o;

	(void)state;
	for (int k = 0; k < 8; k++) {
		snprintf(dur, sizeof(dur), "run.duration=%dns", 2000000 + 97 * k);
		FIXED("link-drops-4q", &o, "host.rxpath=napi", "host.cpus=4",
		      "nic.eth0.combined=4", "nic.eth0.link-queue=2us", "traffic.flows=64",
		      "traffic.rate=2232kpps", "run.warmup=0", dur);
	}
}

/* 64 CPUs: interrupts on the first, middle and last, threads spread out. */
static void test_64_cpus(void **state)
{
	struct outcome o;

	(void)state;
	for (size_t p = 0; p < N_PATHS; p++)
		FIXED("64-cpus", &o, PATH_SETS[p], "traffic.rate=500kpps", "host.cpus=64",
		      "nic.eth0.irq-cpu=63", "nic.eth1.irq-cpu=31", "nic.eth2.irq-cpu=0",
		      "nic.eth2.threaded=on", "traffic.t2.port=eth2", "traffic.t2.rate=300kpps",
		      "apps.cpu-hogs=3", "apps.hog-cpu=63", "apps.sink=on", "apps.sink-cpu=40",
		      "run.duration=5ms");
}

/* The shortest run, 1 us, on every path and profile. */
static void test_duration_1us(void **state)
{
	const char *profs[] = { "piii-933-e1000", "celeron-450-admtek", "duron-600-pnic",
				zero_path, slow_path };
	char prof[160];
	struct outcome o;

	(void)state;
	for (size_t p = 0; p < N_PATHS; p++)
		for (size_t k = 0; k < 5; k++) {
			snprintf(prof, sizeof(prof), "host.profile=%s", profs[k]);
			FIXED("1us", &o, PATH_SETS[p], prof, "traffic.rate=10Mpps",
			      "nic.eth0.speed=100Gbit", "run.duration=1us");
		}
}

/* One hour of simulated time at 1 pps: 3600 frames.  The cost must follow
 * the events, not the simulated time: on the interrupt-driven paths a few
 * events per frame and nothing per unit of time.  bsd-poll works per clock
 * tick by design: every 1/HZ a tick, and the POLL netisr calls the handlers
 * in chunks of each_burst frames until burst (which climbs to burst_max
 * when idle) is spent, frames or not, as FreeBSD's netisr_pollmore() does:
 * up to burst_max / each_burst chunks per tick (30 with the defaults, 11.5
 * million events for this hour).  So it runs at HZ 100 (360000 ticks) with
 * burst_max = each_burst = 10 (one chunk per tick) and its bound is per
 * tick. */
static void test_1_hour_at_1pps(void **state)
{
	const uint64_t ticks = 3600 * 100, per_tick = 8;
	struct outcome o;

	(void)state;
	for (size_t p = 0; p < N_PATHS; p++) {
		int bsd = strstr(PATH_SETS[p], "bsd-poll") != NULL;

		FIXED("1h-1pps", &o, PATH_SETS[p], "traffic.rate=1pps", "run.duration=1h",
		      "host.hz=100", "host.kern.polling.reg_frac=20",
		      "host.kern.polling.burst_max=10", "host.kern.polling.each_burst=10");
		assert_int_equal(o.entered, 3600);
		if (o.events > 20 * o.entered + (bsd ? ticks * per_tick : 100))
			fail_msg("%s: %" PRIu64 " events for %" PRIu64 " frames in 1 h",
				 PATH_SETS[p], o.events, o.entered);
		print_message("%s: 1 h at 1 pps: %" PRIu64 " events\n", PATH_SETS[p], o.events);
	}
	/* The idle-priority poller once ran a pass per napi-poll cost (1 ns
	 * with the zero-cost profile) when no frame would ever come again:
	 * about 4.5e9 events for this hour.  Now it sleeps to the end. */
	FIXED("1h-idle-poll", &o, "host.rxpath=bsd-poll", "host.kern.polling.idle_poll=1",
	      "traffic.rate=1pps", "traffic.count=10", "run.duration=1h", "host.hz=100",
	      "host.kern.polling.reg_frac=20", "host.kern.polling.burst_max=10",
	      "host.kern.polling.each_burst=10");
	assert_int_equal(o.entered, 10);
	if (o.events > ticks * per_tick)
		fail_msg("idle_poll: %" PRIu64 " events in 1 h", o.events);
	print_message("bsd-poll, idle_poll: 1 h: %" PRIu64 " events\n", o.events);
}

/* A clock interrupt that takes longer than its period (the very slow
 * profile: 1 ms of irq-entry at HZ 10000), with every NAPI timer on the
 * same CPU: interrupts pile up while one is serviced.  A source pending
 * twice merges (one pending bit), so the queue of waiting hard IRQs holds
 * at most one entry per source; it used to overflow cpu.irq_q. */
static void test_slow_profile_fast_clock(void **state)
{
	char prof[160];
	struct outcome o;

	(void)state;
	snprintf(prof, sizeof(prof), "host.profile=%s", slow_path);
	for (size_t p = 0; p < N_PATHS; p++)
		FIXED("slow-hz10000", &o, PATH_SETS[p], prof, "host.hz=10000",
		      "host.kern.polling.reg_frac=20", "nic.eth0.napi_defer_hard_irqs=3",
		      "nic.eth0.gro_flush_timeout=10us", "nic.eth1.napi_defer_hard_irqs=3",
		      "nic.eth1.gro_flush_timeout=10us", "nic.eth2.napi_defer_hard_irqs=3",
		      "nic.eth2.gro_flush_timeout=10us", "traffic.rate=1Mpps",
		      "traffic.t2.port=eth2", "traffic.t2.rate=1Mpps", "run.duration=20ms");
}

/* Zero-cost profile at and beyond line rate: every chunk takes 0 ns, so
 * any loop that waits for time to pass would never end (the watchdog
 * turns that into a failure).  Every path, with moderation off and on,
 * deferral, threaded NAPI, a busy-polling server. */
static void test_zero_cost_high_rate(void **state)
{
	static const char *const variants[][4] = {
		{ "traffic.rate=14880952pps", "nic.eth0.speed=10Gbit", "nic.eth1.speed=10Gbit",
		  "run.seed=1" },
		{ "traffic.rate=100Mpps", "nic.eth0.speed=100Gbit", "nic.eth0.rx-usecs=50",
		  "nic.eth0.rx-frames=0" },
		{ "nic.eth0.napi_defer_hard_irqs=2", "nic.eth0.gro_flush_timeout=20us",
		  "traffic.rate=3Mpps", "traffic.pattern=poisson" },
		{ "nic.eth0.threaded=on", "traffic.rate=3Mpps", "nic.eth0.adaptive-rx=dim",
		  "nic.eth0.InterruptThrottleRate=1" },
		{ "route.eth0=eth0", "apps.sink=on", "apps.busy_poll=50us",
		  "apps.prefer_busy_poll=on" },
		{ "apps.sink=on", "apps.reply-size=64", "apps.busy_poll=50us",
		  "traffic.port=eth1" },
		{ "apps.cpu-hogs=2", "host.kern.polling.idle_poll=1", "traffic.rate=2Mpps",
		  "nic.eth0.min-irq-interval=10us" },
	};
	char prof[160];
	struct outcome o;

	(void)state;
	snprintf(prof, sizeof(prof), "host.profile=%s", zero_path);
	for (size_t p = 0; p < N_PATHS; p++)
		for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
			FIXED("zero-cost", &o, PATH_SETS[p], prof, "traffic.rate=1Mpps",
			      "run.duration=2ms", variants[v][0], variants[v][1], variants[v][2],
			      variants[v][3]);
}

/* A thread whose own poll wakes another thread on its CPU: the FreeBSD
 * idle poller delivering to the sink.  The wake-up used to switch threads
 * under the poller, which then armed its next chunk with no thread
 * (c->cur = -1) and ended in s->thr[-1] (found by ASan).  Threaded NAPI
 * and ksoftirqd with the sink on their CPU take the same path. */
static void test_thread_wakes_from_its_own_poll(void **state)
{
	struct outcome o;

	(void)state;
	FIXED("idle-poll-wakes-sink", &o, "host.rxpath=bsd-poll", "host.kern.polling.idle_poll=1",
	      "traffic.port=eth1", "apps.sink=on", "traffic.rate=100kpps", "run.duration=20ms");
	FIXED("idle-poll-wakes-sink-4cpu", &o, "host.cpus=4", "host.rxpath=bsd-poll",
	      "host.kern.polling.idle_poll=1", "nic.eth1.irq-cpu=2", "traffic.rate=69pps",
	      "apps.sink=on", "traffic.port=eth1", "run.duration=1s");
	FIXED("napi-thread-wakes-sink", &o, "nic.eth1.threaded=on", "traffic.port=eth1",
	      "apps.sink=on", "apps.cpu-hogs=1", "traffic.rate=300kpps", "run.duration=20ms");
}

/* eth1's NAPI poll on CPU 1 forwards into eth0, whose TX ring (8) is full
 * and whose TX completion interrupt runs on CPU 0.  The poll chunk queues
 * frames on eth0's qdisc at its own per-frame times, ahead of CPU 0's now;
 * CPU 0's TX clean used to move them onto the wire at its now, before they
 * had arrived (a latency of -3.5 us, clamped to 0 by the histogram).  The
 * check in run_once() wants every latency > 0. */
static void test_qdisc_fed_from_another_cpu(void **state)
{
	struct outcome o;

	(void)state;
	FIXED("qdisc-cross-cpu", &o, "host.cpus=2", "nic.eth1.irq-cpu=1", "nic.eth0.tx-ring=8",
	      "nic.eth0.tx-clean=irq", "nic.eth1.rx-usecs=100us", "nic.eth1.rx-frames=32",
	      "route.eth1=eth0", "traffic.port=eth1", "traffic.rate=100kpps",
	      "run.duration=100ms");
}

/* SO_BUSY_POLL / SO_PREFER_BUSY_POLL under rxpath = bsd-poll: the busy
 * loop used to take the (Linux) NAPI and complete it, which re-armed the
 * port's interrupt; polling(4) keeps it off (571 interrupts in 5 ms here).
 * run_once() wants no interrupt on bsd-poll. */
static void test_busy_poll_under_bsd_poll(void **state)
{
	struct outcome o;

	(void)state;
	FIXED("bsd-poll-busy-poll", &o, "host.rxpath=bsd-poll", "host.kern.polling.idle_poll=1",
	      "traffic.port=eth1", "nic.eth1.rx-usecs=2us", "traffic.rate=200kpps",
	      "apps.sink=on", "apps.prefer_busy_poll=on", "apps.busy_poll=20us",
	      "nic.eth1.irq-suspend-timeout=100us", "run.duration=5ms");
}

/* TX coalescing with long rings at 10 GbE line rate, in every mode, on a
 * host that forwards it all and on one that cannot: the interrupt
 * look-ahead walks hundreds of known departures here, and the second run
 * of run_and_check() takes the reference walk (use_reference_paths()). */
static void test_tx_coalescing_both_ways(void **state)
{
	static const char *const modes[][5] = {
		{ "nic.eth1.tx-usecs=64us", "nic.eth1.tx-frames=0", "", "", "" },
		{ "nic.eth1.tx-usecs=8us", "nic.eth1.tx-frames=32", "nic.eth1.cqe-mode-tx=on", "", "" },
		{ "nic.eth1.TxIntDelay=8", "nic.eth1.TxAbsIntDelay=32", "", "", "" },
		{ "nic.eth1.TxIntDelay=16", "nic.eth1.tx-frames=16", "", "", "" },
		{ "nic.eth1.tx-usecs=20us", "nic.eth1.tx-frames=64", "nic.eth1.tx-usecs-irq=2us",
		  "nic.eth1.tx-frames-irq=4", "nic.eth1.min-irq-interval=5us" },
		{ "route.eth0=eth0", "nic.eth0.tx-clean=irq", "nic.eth0.tx-usecs=30us",
		  "nic.eth0.rx-usecs=10us", "nic.eth0.tx-ring=4096" },
	};
	char prof[160];
	struct outcome o;

	(void)state;
	snprintf(prof, sizeof(prof), "host.profile=%s", zero_path);
	for (int z = 0; z < 2; z++)
		for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
			FIXED("tx-coalescing", &o, "host.rxpath=napi", z ? prof : "host.rxpath=napi",
			      "nic.eth0.speed=10Gbit", "nic.eth1.speed=10Gbit",
			      "traffic.rate=14880952pps", "nic.eth1.tx-ring=4096",
			      "nic.eth1.tx-clean=irq", "run.duration=1ms", modes[m][0], modes[m][1],
			      modes[m][2][0] ? modes[m][2] : "run.seed=1",
			      modes[m][3][0] ? modes[m][3] : "run.seed=1",
			      modes[m][4][0] ? modes[m][4] : "run.seed=1");
}

/* ---- setup ------------------------------------------------------------- */

static int setup(void **state)
{
	(void)state;
	snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/rxlab-prop-XXXXXX");
	if (!mkdtemp(tmp_dir))
		return -1;
	snprintf(zero_path, sizeof(zero_path), "%s/prop-zero.ini", tmp_dir);
	snprintf(slow_path, sizeof(slow_path), "%s/prop-slow.ini", tmp_dir);
	snprintf(idle_path, sizeof(idle_path), "%s/prop-idle.ini", tmp_dir);
	if (write_file(zero_path, profile_text(zero_path)) ||
	    write_file(slow_path, profile_text(slow_path)) ||
	    write_file(idle_path, profile_text(idle_path)))
		return -1;
	signal(SIGVTALRM, on_alarm);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(zero_path);
	unlink(slow_path);
	unlink(idle_path);
	rmdir(tmp_dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_1pps_1s),
		cmocka_unit_test(test_200mpps_800gbit),
		cmocka_unit_test(test_ring_1_and_65536),
		cmocka_unit_test(test_link_drops_multiqueue),
		cmocka_unit_test(test_64_cpus),
		cmocka_unit_test(test_duration_1us),
		cmocka_unit_test(test_1_hour_at_1pps),
		cmocka_unit_test(test_zero_cost_high_rate),
		cmocka_unit_test(test_slow_profile_fast_clock),
		cmocka_unit_test(test_thread_wakes_from_its_own_poll),
		cmocka_unit_test(test_qdisc_fed_from_another_cpu),
		cmocka_unit_test(test_busy_poll_under_bsd_poll),
		cmocka_unit_test(test_tx_coalescing_both_ways),
		cmocka_unit_test(test_drawn_regressions),
		cmocka_unit_test(test_random_scenarios),
		cmocka_unit_test(test_drop_paths),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
