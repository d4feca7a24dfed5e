/* test_epoll_server.c - the epoll server: connection-to-worker spreading,
 * the server keys, service-time draws, and whole runs whose per-worker
 * answers are computed by hand. */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/scenario_load.h"
#include "model/units.h"
#include "model/server_keys.h"
#include "sim/apps/epoll_work.h"
#include "sim/results.h"
#include "sim/sim.h"

/* ---- spreading ---- */

static void test_spread_napi(void **state)
{
	(void)state;
	/* 4 queues, 2 workers: queue q goes to the worker serving its NAPI,
	 * q % 2, whatever the connection. */
	assert_int_equal(sock_worker_of(SPREAD_NAPI, 7, 0, 2), 0);
	assert_int_equal(sock_worker_of(SPREAD_NAPI, 7, 1, 2), 1);
	assert_int_equal(sock_worker_of(SPREAD_NAPI, 0, 2, 2), 0);
	assert_int_equal(sock_worker_of(SPREAD_NAPI, 3, 3, 2), 1);
	/* 2 queues, 4 workers: workers 2 and 3 get nothing. */
	for (uint16_t q = 0; q < 2; q++)
		for (uint32_t f = 0; f < 8; f++)
			assert_int_equal(sock_worker_of(SPREAD_NAPI, f, q, 4), q);
	/* 8 queues, 3 workers: round robin 0 1 2 0 1 2 0 1. */
	for (uint16_t q = 0; q < 8; q++)
		assert_int_equal(sock_worker_of(SPREAD_NAPI, 0, q, 3), q % 3);
}

static void test_spread_rr(void **state)
{
	(void)state;
	/* flow % workers, whatever the queue. */
	assert_int_equal(sock_worker_of(SPREAD_RR, 0, 3, 4), 0);
	assert_int_equal(sock_worker_of(SPREAD_RR, 5, 0, 4), 1);
	assert_int_equal(sock_worker_of(SPREAD_RR, 11, 1, 4), 3);
	assert_int_equal(sock_worker_of(SPREAD_RR, 255, 0, 256), 255);
	assert_int_equal(sock_worker_of(SPREAD_RR, 256, 0, 256), 0);
}

/* ---- keys ---- */

static void test_cpu_list(void **state)
{
	uint16_t c[16];
	char why[128];

	(void)state;
	assert_int_equal(unit_cpu_list("0-3, 8", 16, c, 16, why, sizeof(why)), 5);
	assert_int_equal(c[3], 3);
	assert_int_equal(c[4], 8);
	assert_int_equal(unit_cpu_list("4,2,0", 16, c, 16, why, sizeof(why)), 3);
	assert_int_equal(c[0], 4);
	assert_int_equal(c[2], 0);
	assert_int_equal(unit_cpu_list("0-16", 16, c, 16, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "accepted 0..15"));
	assert_int_equal(unit_cpu_list("3-1", 16, c, 16, why, sizeof(why)), -1);
	assert_int_equal(unit_cpu_list("0,,1", 16, c, 16, why, sizeof(why)), -1);
	assert_int_equal(unit_cpu_list("1,", 16, c, 16, why, sizeof(why)), -1);
	assert_int_equal(unit_cpu_list("x", 16, c, 16, why, sizeof(why)), -1);
	assert_int_equal(unit_cpu_list("-1", 16, c, 16, why, sizeof(why)), -1);
	assert_int_equal(unit_cpu_list("0-3", 16, c, 2, why, sizeof(why)), -1);
}

static const char RR[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 2\n"
	"[nic eth0]\n"
	"[traffic]\n"
	"port = eth0\n"
	"pattern = constant\n"
	"rate = 1kpps\n"
	"[apps]\n"
	"server = epoll\n"
	"reply-size = 64\n"
	"[run]\n"
	"duration = 1005ms\n"
	"warmup = 5ms\n";

static void expect_error(const char *set, const char *needle)
{
	struct scenario *scn = calloc(1, sizeof(*scn));
	const char *sets[] = { set };
	char err[512] = "";

	assert_non_null(scn);
	assert_int_not_equal(scenario_load_text(scn, RR, "rr.ini", sets, 1, err, sizeof(err)), 0);
	if (!strstr(err, needle))
		fail_msg("--set %s: '%s' lacks '%s'", set, err, needle);
	free(scn);
}

static void test_keys(void **state)
{
	struct scenario *scn = calloc(1, sizeof(*scn));
	const char *sets[] = { "apps.server-threads=2", "apps.server-cpus=1,0",
			       "apps.epoll-timeout=10ms", "apps.server-work-dist=lognormal:0.5" };
	char err[512] = "";

	(void)state;
	assert_non_null(scn);
	assert_int_equal(scenario_load_text(scn, RR, "rr.ini", sets, 4, err, sizeof(err)), 0);
	assert_true(scn->apps.sink);
	assert_int_equal(scn->apps.server_cpu[0], 1);
	assert_int_equal(scn->apps.server_cpu[1], 0);
	assert_int_equal(scn->apps.epoll_timeout_ns, 10000000);
	assert_int_equal(scn->apps.work_dist, WORK_LOGNORMAL);
	assert_true(scn->apps.work_sigma == 0.5);
	assert_int_equal(scenario_load_text(scn, RR, "rr.ini", NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(scn->apps.epoll_timeout_ns, -1);
	assert_int_equal(scn->apps.server_cpu[0], 0);
	free(scn);
	expect_error("apps.server-threads=3", "server-threads = 3 needs server-cpus");
	expect_error("apps.server-cpus=0,1", "names 2 CPUs, server-threads = 1");
	expect_error("apps.server-cpus=2", "CPU 2 is out of range: accepted 0..1");
	expect_error("apps.epoll-timeout=-2", "epoll-timeout");
	expect_error("apps.server-work-dist=lognormal:0", "accepted fixed, exp or lognormal:SIGMA");
	expect_error("apps.server-work-dist=gamma", "server-work-dist = gamma");
	expect_error("apps.server=thread", "server");
	expect_error("apps.server-threads=257", "server-threads");
}

/* server-cpus = all: no list to match, worker i starts on CPU i mod cpus
 * (5 workers on 2 CPUs: 0 1 0 1 0), and the workers roam. */
static void test_keys_roam(void **state)
{
	struct scenario *scn = calloc(1, sizeof(*scn));
	const char *sets[] = { "apps.server-threads=5", "apps.server-cpus=all" };
	char err[512] = "";

	(void)state;
	assert_non_null(scn);
	assert_int_equal(scenario_load_text(scn, RR, "rr.ini", sets, 2, err, sizeof(err)), 0);
	assert_true(server_keys_roam(&scn->apps));
	for (int i = 0; i < 5; i++)
		assert_int_equal(scn->apps.server_cpu[i], i % 2);
	assert_int_equal(scenario_load_text(scn, RR, "rr.ini", NULL, 0, err, sizeof(err)), 0);
	assert_false(server_keys_roam(&scn->apps));
	free(scn);
	expect_error("apps.server-cpus=al", "server-cpus = al");
}

static void test_keys_need_server(void **state)
{
	static const char SINK[] = "[host]\ncpus = 2\n[nic eth0]\n[traffic]\nrate = 1kpps\n"
				   "[apps]\nsink = on\n";
	struct scenario *scn = calloc(1, sizeof(*scn));
	const char *sets[] = { "apps.server-threads=2" };
	char err[512] = "";

	(void)state;
	assert_non_null(scn);
	assert_int_not_equal(scenario_load_text(scn, SINK, "s.ini", sets, 1, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "server-threads needs server = epoll"));
	free(scn);
}

/* ---- draws ---- */

static void test_det_exp(void **state)
{
	(void)state;
	assert_true(epoll_det_exp(0) == 1);
	assert_true(fabs(epoll_det_exp(1) / 2.718281828459045 - 1) < 1e-15);
	assert_true(fabs(epoll_det_exp(-3.5) / 0.0301973834223185 - 1) < 1e-14);
	assert_true(fabs(epoll_det_exp(20) / 485165195.4097903 - 1) < 1e-14);
}

/* The mean of N draws is server-work within 4 standard errors: exp has
 * sd = mean; lognormal:S has sd = mean * sqrt(e^(S^2) - 1). */
static void check_mean(uint32_t dist, double sigma, double sd_over_mean)
{
	struct scn_apps a = { .server = SERVER_EPOLL, .server_work_ns = 20000,
			      .work_dist = dist, .work_sigma = sigma };
	struct rng r;
	double sum = 0;
	const int n = 100000;

	rng_seed(&r, 1, SOCK_WORK_STREAM);
	for (int i = 0; i < n; i++)
		sum += (double)epoll_work_ns(&a, &r);
	if (fabs(sum / n - 20000) > 4 * 20000 * sd_over_mean / sqrt(n))
		fail_msg("dist %u: mean %.1f ns, expected 20000", dist, sum / n);
}

static void test_work_draws(void **state)
{
	struct scn_apps a = { .server = SERVER_EPOLL, .server_work_ns = 20000,
			      .work_dist = WORK_FIXED };
	struct rng r, r0;

	(void)state;
	rng_seed(&r, 1, SOCK_WORK_STREAM);
	r0 = r;
	/* fixed: the value, and no draw from the stream */
	assert_int_equal(epoll_work_ns(&a, &r), 20000);
	assert_memory_equal(&r, &r0, sizeof(r));
	a.server = SERVER_NONE;
	assert_int_equal(epoll_work_ns(&a, &r), 0);
	check_mean(WORK_EXP, 0, 1);
	check_mean(WORK_LOGNORMAL, 0.5, sqrt(epoll_det_exp(0.25) - 1));
}

/* ---- whole runs ---- */

struct run {
	struct scenario scn;
	struct sim sim;
	struct results r;
};

static struct run *run_sets(const char *ini, const char *const *sets, size_t n_sets)
{
	struct run *x = calloc(1, sizeof(*x));
	char err[512] = "";

	assert_non_null(x);
	if (scenario_load_text(&x->scn, ini, "t.ini", sets, n_sets, err, sizeof(err)))
		fail_msg("scenario_load_text(): %s", err);
	if (sim_init(&x->sim, &x->scn) || sim_run(&x->sim))
		fail_msg("sim: %s", x->sim.fatal);
	if (results_collect(&x->r, &x->sim))
		fail_msg("results_collect() failed");
	return x;
}
#define RUN(ini, ...) run_sets(ini, (const char *const[]){ __VA_ARGS__ }, \
	sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *))

static void run_free(struct run *x)
{
	results_free(&x->r);
	sim_free(&x->sim);
	free(x);
}

/* At 1 kpps constant every request finds an idle server, so every
 * latency is the same path plus its service time: server-work = 20 us
 * fixed adds exactly 20 us to each, hence to the mean. */
static void test_fixed_work_exact(void **state)
{
	struct run *a = RUN(RR, "apps.server-work=0");
	struct run *b = RUN(RR, "apps.server-work=20us");

	(void)state;
	assert_true(a->r.lat_samples >= 999);
	assert_int_equal(a->r.lat_samples, b->r.lat_samples);
	if (fabs(b->r.lat_mean_us - a->r.lat_mean_us - 20.0) > 1e-6)
		fail_msg("mean latency %.6f -> %.6f us", a->r.lat_mean_us, b->r.lat_mean_us);
	assert_true(a->r.lat_p50_us < a->r.lat_max_us + 1e-9);
	assert_true(fabs(b->r.lat_max_us - a->r.lat_max_us - 20.0) < 1e-6);
	/* ... and exactly 20 us of CPU per query */
	assert_int_equal(a->r.server.w[0].served, b->r.server.w[0].served);
	if (fabs(b->r.server.cpu_ns_per_query - a->r.server.cpu_ns_per_query - 20000) > 1e-3)
		fail_msg("CPU per query %.3f -> %.3f ns", a->r.server.cpu_ns_per_query,
			 b->r.server.cpu_ns_per_query);
	/* piii-933-e1000 gives ghz = 0.933: cycles = ns * 933 / 1000 */
	assert_int_equal(b->r.server.cycles_per_query,
			 (uint64_t)b->r.server.cpu_ns_per_query * b->sim.prof->mhz / 1000);
	run_free(a);
	run_free(b);
}

/* Four ports (one queue each, so four NAPIs) at 10, 20, 30 and 40 kpps
 * constant, two workers spread by NAPI id: worker 0 serves eth0 and eth2
 * (40k/s), worker 1 eth1 and eth3 (60k/s).  A 100 ms window can cut one
 * request per port at each edge: +-4 requests, 40/s, per worker. */
static const char FOUR[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 2\n"
	"[nic eth0]\n[nic eth1]\n[nic eth2]\n[nic eth3]\n"
	"[traffic a]\nport = eth0\npattern = constant\nrate = 10kpps\n"
	"[traffic b]\nport = eth1\npattern = constant\nrate = 20kpps\n"
	"[traffic c]\nport = eth2\npattern = constant\nrate = 30kpps\n"
	"[traffic d]\nport = eth3\npattern = constant\nrate = 40kpps\n"
	"[apps]\n"
	"server = epoll\n"
	"server-threads = 2\n"
	"reply-size = 64\n"
	"[run]\n"
	"duration = 105ms\n"
	"warmup = 5ms\n";

static void test_napi_spread_run(void **state)
{
	struct run *x = RUN(FOUR, "apps.server-spread=napi");
	const struct server_result *v = &x->r.server;

	(void)state;
	assert_int_equal(v->n_workers, 2);
	assert_int_equal(v->w[0].cpu, 0);
	assert_int_equal(v->w[1].cpu, 1);
	assert_string_equal(v->w[1].name, "epoll-worker/1");
	if (fabs(v->w[0].served_pps - 40000) > 40 || fabs(v->w[1].served_pps - 60000) > 40)
		fail_msg("served %.0f and %.0f /s", v->w[0].served_pps, v->w[1].served_pps);
	assert_true(fabs(v->served_pps - x->r.replied_pps) < 1e-6);
	assert_true(v->w[1].cpu_pct > 0 && v->server_cpu_pct < 200);
	run_free(x);
}

/* rr spreads by connection: every source today is one connection, flow 0,
 * so worker 0 serves all 100k/s and worker 1 none. */
static void test_rr_spread_run(void **state)
{
	struct run *x = RUN(FOUR, "apps.server-spread=rr");
	const struct server_result *v = &x->r.server;

	(void)state;
	assert_true(fabs(v->w[0].served_pps - 100000) <= 80);
	assert_int_equal(v->w[1].served, 0);
	run_free(x);
}

/* One port with queues (combined = 4), 64 flows at 20 kpps: the
 * indirection table decides the queue, the queue the worker.  All of it on
 * queue 2 goes to worker 2 % 2 = 0; all on queue 1 to worker 1; two queues
 * spread over four workers leave workers 2 and 3 without connections. */
static const char MQ[] =
	"[host]\nprofile = piii-933-e1000\ncpus = 4\n"
	"[nic eth0]\ncombined = 4\n"
	"[traffic]\nport = eth0\npattern = constant\nrate = 20kpps\nflows = 64\n"
	"[apps]\nserver = epoll\nserver-threads = 2\nreply-size = 64\n"
	"[run]\nduration = 105ms\nwarmup = 5ms\n";

static void test_queue_spread_run(void **state)
{
	struct run *x = RUN(MQ, "nic.eth0.indir=weight 0 0 1 0");
	struct run *y = RUN(MQ, "nic.eth0.indir=weight 0 1 0 0");
	struct run *z = RUN(MQ, "nic.eth0.combined=2", "apps.server-threads=4");

	(void)state;
	/* +-2 requests at the window's edges: 20/s */
	assert_true(fabs(x->r.server.w[0].served_pps - 20000) <= 20);
	assert_int_equal(x->r.server.w[1].served, 0);
	assert_true(fabs(y->r.server.w[1].served_pps - 20000) <= 20);
	assert_int_equal(y->r.server.w[0].served, 0);
	assert_true(z->r.server.w[0].served > 0 && z->r.server.w[1].served > 0);
	assert_int_equal(z->r.server.w[2].served + z->r.server.w[3].served, 0);
	assert_true(fabs(z->r.server.served_pps - 20000) <= 20);
	run_free(x);
	run_free(y);
	run_free(z);
}

/* epoll-timeout = 100 us at 1 kpps: after each request the worker sleeps,
 * and each timeout costs a wake-up (ctx-switch 3 us) and one more
 * epoll_wait (syscall 1 us) before the next 100 us sleep, so a 1 ms gap
 * less the ~12 us request holds floor(988 / 104) = 9 timeouts.  Without a
 * timeout there are none. */
static void test_epoll_timeout(void **state)
{
	struct run *x = RUN(RR, "apps.epoll-timeout=100us");
	struct run *y = RUN(RR, "apps.epoll-timeout=-1");
	const struct worker_result *w = &x->r.server.w[0];

	(void)state;
	if (w->epoll_timeouts != 9 * w->served)
		fail_msg("%" PRIu64 " timeouts for %" PRIu64 " requests", w->epoll_timeouts,
			 w->served);
	assert_int_equal(y->r.server.w[0].epoll_timeouts, 0);
	assert_int_equal(w->served, y->r.server.w[0].served);
	run_free(x);
	run_free(y);
}

/* A cpu-hog on CPU 0 with the one worker, 1000 requests/s, and
 * sched_wake_idle.  Pinned (server-cpus = 0), the worker preempts the hog
 * at each request on CPU 0: two switches a request (hog -> worker ->
 * hog), 2000 in the 1 s window, none on CPU 1.  Unpinned (server-cpus =
 * all) it starts on CPU 0 too (0 mod 2), but its first wake-up finds CPU 0
 * running the hog and places it on CPU 1, which has no thread then and at
 * every later request: one switch a request there (idle -> worker; going
 * idle is not one), 1000, and none on CPU 0. */
static void test_roam_run(void **state)
{
	struct run *p = RUN(RR, "apps.cpu-hogs=1", "host.sched_wake_idle=on", "apps.server-cpus=0");
	struct run *a = RUN(RR, "apps.cpu-hogs=1", "host.sched_wake_idle=on",
			    "apps.server-cpus=all");

	(void)state;
	assert_int_equal(p->r.server.w[0].cpu, 0);
	assert_int_equal(a->r.server.w[0].cpu, 1);
	assert_int_equal(p->r.server.w[0].served, 1000);
	assert_int_equal(a->r.server.w[0].served, 1000);
	assert_int_equal(p->r.cpu[0].cs, 2000);
	assert_int_equal(p->r.cpu[1].cs, 0);
	assert_int_equal(a->r.cpu[0].cs, 0);
	assert_int_equal(a->r.cpu[1].cs, 1000);
	run_free(p);
	run_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread_napi),      cmocka_unit_test(test_spread_rr),
		cmocka_unit_test(test_cpu_list),         cmocka_unit_test(test_keys),
		cmocka_unit_test(test_keys_need_server), cmocka_unit_test(test_det_exp),
		cmocka_unit_test(test_work_draws),       cmocka_unit_test(test_fixed_work_exact),
		cmocka_unit_test(test_napi_spread_run),  cmocka_unit_test(test_rr_spread_run),
		cmocka_unit_test(test_epoll_timeout),    cmocka_unit_test(test_queue_spread_run),
		cmocka_unit_test(test_keys_roam),        cmocka_unit_test(test_roam_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
