/* test_policy.c - moderation policies a program writes (rxlab/policy.h):
 * the registry, adaptive-rx = policy:NAME in the loader and the simulator,
 * replay_policy(), and mode dim with [policy] in the live loop.
 *
 * The toy policies are test doubles with exactly known decisions:
 *   fix-poll   the first on_poll_done SETs 50 us / 64 frames, later KEEP
 *   fix-irq    the same from on_irq
 *   frames-irq the first on_irq SETs 0 us / 8 frames, later KEEP
 *   win4       every 4th on_poll_done decides: SET rx-usecs = packets of
 *              the window (at least 1 us), so a replay's rows can be computed
 *              by hand
 *   zero       SETs 0 us / 0 frames: a policy bug
 *   steps      the first three on_poll_done SET 50 us / 64 frames twice,
 *              then 20 us / 16 frames; later KEEP (registered by its test)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/scenario_load.h"
#include "replay/policy.h"
#include "report/sim_report.h"
#include "rxlab/live.h"
#include "rxlab/policy.h"
#include "rxlab/sim.h"

/* ---- toy policies ---- */

struct fix {
	bool done;
};

static void fix_init(void *state, const struct rxl_policy_settings *start,
		     const struct rxl_policy_sample *now)
{
	(void)start;
	(void)now;
	((struct fix *)state)->done = false;
}

static struct rxl_policy_decision fix_decide(void *state, const struct rxl_policy_settings *cur,
					     const struct rxl_policy_sample *s)
{
	struct fix *f = state;

	(void)cur;
	(void)s;
	if (f->done)
		return rxl_policy_keep();
	f->done = true;
	return rxl_policy_set(50, 64);
}

static const struct rxl_policy_ops fix_poll = {
	.name = "fix-poll", .description = "50 us / 64 frames from the first poll on",
	.state_bytes = sizeof(struct fix), .init = fix_init, .on_poll_done = fix_decide,
};

static const struct rxl_policy_ops fix_irq = {
	.name = "fix-irq", .description = "50 us / 64 frames from the first interrupt on",
	.state_bytes = sizeof(struct fix), .init = fix_init, .on_irq = fix_decide,
};

static struct rxl_policy_decision frames_decide(void *state,
						const struct rxl_policy_settings *cur,
						const struct rxl_policy_sample *s)
{
	struct fix *f = state;

	(void)cur;
	(void)s;
	if (f->done)
		return rxl_policy_keep();
	f->done = true;
	return rxl_policy_set(0, 8);
}

static const struct rxl_policy_ops frames_irq = {
	.name = "frames-irq", .description = "0 us / 8 frames from the first interrupt on",
	.state_bytes = sizeof(struct fix), .init = fix_init, .on_irq = frames_decide,
};

struct win {
	struct rxl_policy_sample start;
	unsigned calls;
};

static void win_init(void *state, const struct rxl_policy_settings *start,
		     const struct rxl_policy_sample *now)
{
	struct win *w = state;

	(void)start;
	w->start = *now;
	w->calls = 0;
}

static struct rxl_policy_decision win_decide(void *state, const struct rxl_policy_settings *cur,
					     const struct rxl_policy_sample *s)
{
	struct win *w = state;
	uint64_t pkts = s->packets - w->start.packets;

	(void)cur;
	if (++w->calls % 4)
		return rxl_policy_measuring();
	w->start = *s;
	if (pkts == 0)
		return rxl_policy_keep();
	return rxl_policy_set((uint32_t)pkts, 1);
}

static const struct rxl_policy_ops win4 = {
	.name = "win4", .description = "rx-usecs = packets of each window of 4 polls",
	.state_bytes = sizeof(struct win), .init = win_init, .on_poll_done = win_decide,
};

static struct rxl_policy_decision zero_decide(void *state, const struct rxl_policy_settings *cur,
					      const struct rxl_policy_sample *s)
{
	(void)state;
	(void)cur;
	(void)s;
	return rxl_policy_set(0, 0);
}

static const struct rxl_policy_ops zero = {
	.name = "zero", .description = "a bug", .init = fix_init, .state_bytes = 1,
	.on_poll_done = zero_decide,
};

static struct rxl_policy_decision steps_decide(void *state,
					       const struct rxl_policy_settings *cur,
					       const struct rxl_policy_sample *s)
{
	struct win *w = state;

	(void)cur;
	(void)s;
	switch (++w->calls) {
	case 1:
	case 2:
		return rxl_policy_set(50, 64);
	case 3:
		return rxl_policy_set(20, 16);
	}
	return rxl_policy_keep();
}

static const struct rxl_policy_ops steps = {
	.name = "steps", .description = "50 us / 64 frames twice, then 20 us / 16 frames",
	.state_bytes = sizeof(struct win), .init = win_init, .on_poll_done = steps_decide,
};

static int setup(void **state)
{
	(void)state;
	rxl_policy_registry_clear();
	assert_int_equal(rxl_policy_register(&fix_poll, NULL), 0);
	assert_int_equal(rxl_policy_register(&fix_irq, NULL), 0);
	assert_int_equal(rxl_policy_register(&win4, NULL), 0);
	assert_int_equal(rxl_policy_register(&zero, NULL), 0);
	assert_int_equal(rxl_policy_register(&frames_irq, NULL), 0);
	return 0;
}

/* ---- the registry ---- */

static void expect_refused(const struct rxl_policy_ops *ops, int rc, const char *want)
{
	const char *why = NULL;
	int got = rxl_policy_register(ops, &why);

	if (got != rc || !why || strcmp(why, want))
		fail_msg("register %s: got %d '%s', want %d '%s'",
			 ops && ops->name ? ops->name : "-", got, why ? why : "(null)", rc, want);
}

static void test_registry_find_and_list(void **state)
{
	(void)state;
	assert_int_equal(rxl_policy_count(), 5);
	assert_ptr_equal(rxl_policy_find("win4"), &win4);
	assert_ptr_equal(rxl_policy_at(0), &fix_poll);
	assert_ptr_equal(rxl_policy_at(4), &frames_irq);
	assert_null(rxl_policy_at(5));
	assert_null(rxl_policy_find("win"));
	assert_null(rxl_policy_find("win44"));
	assert_null(rxl_policy_find(""));
}

static void test_registry_refusals(void **state)
{
	struct rxl_policy_ops o = fix_poll;

	(void)state;
	expect_refused(&fix_poll, -EEXIST, "a policy of that name is already registered");
	for (size_t i = 0; i < 4; i++) {
		static const char *const builtin[] = { "off", "dim", "pkt-rate", "policy" };

		o.name = builtin[i];
		expect_refused(&o, -EINVAL, "the name is a built-in adaptive-rx value "
			       "(off, dim, pkt-rate, policy)");
	}
	o.name = "has:colon";
	expect_refused(&o, -EINVAL, "name must be 1..31 characters from A-Z a-z 0-9 _ . -");
	o.name = "";
	expect_refused(&o, -EINVAL, "name must be 1..31 characters from A-Z a-z 0-9 _ . -");
	o.name = "abcdefghijabcdefghijabcdefghij12"; /* 32 characters */
	expect_refused(&o, -EINVAL, "name must be 1..31 characters from A-Z a-z 0-9 _ . -");
	o.name = "new";
	o.init = NULL;
	expect_refused(&o, -EINVAL, "init is required");
	o.init = fix_init;
	o.on_poll_done = NULL;
	expect_refused(&o, -EINVAL, "on_irq or on_poll_done is required");
	o.on_poll_done = fix_decide;
	o.state_bytes = RXL_POLICY_STATE_MAX + 1;
	expect_refused(&o, -EINVAL, "state_bytes is above RXL_POLICY_STATE_MAX (1024)");
	assert_int_equal(rxl_policy_count(), 5);
}

static void test_registry_full(void **state)
{
	static char names[RXL_POLICY_MAX][8];
	static struct rxl_policy_ops ops[RXL_POLICY_MAX];

	(void)state;
	for (size_t i = 0; rxl_policy_count() < RXL_POLICY_MAX; i++) {
		snprintf(names[i], sizeof(names[i]), "p%zu", i);
		ops[i] = fix_poll;
		ops[i].name = names[i];
		assert_int_equal(rxl_policy_register(&ops[i], NULL), 0);
	}
	ops[RXL_POLICY_MAX - 1] = fix_poll;
	ops[RXL_POLICY_MAX - 1].name = "one-more";
	expect_refused(&ops[RXL_POLICY_MAX - 1], -ENOSPC,
		       "the registry is full (RXL_POLICY_MAX = 16 policies)");
	assert_null(rxl_policy_find("one-more"));
	rxl_policy_registry_clear();
	assert_int_equal(rxl_policy_count(), 0);
	assert_null(rxl_policy_find("fix-poll"));
}

/* ---- the loader ---- */

static const char *const livelock_text =
	"[nic eth0]\nrx-usecs = 0\nrx-frames = 1\n[nic eth1]\n[traffic]\nport = eth0\n"
	"rate = 200kpps\n[route]\neth0 = eth1\n[run]\nduration = 100ms\nwarmup = 20ms\n";

static int load(struct scenario *s, const char *set, char *err, size_t errlen)
{
	const char *sets[1] = { set };

	return scenario_load_text(s, livelock_text, "pol.ini", sets, set ? 1 : 0, err, errlen);
}

static void expect_load_error(const char *set, const char *want)
{
	struct scenario *s = malloc(sizeof(*s));
	char err[1024] = "";

	assert_non_null(s);
	if (load(s, set, err, sizeof(err)) == 0 || strcmp(err, want))
		fail_msg("--set %s\n got: %s\nwant: %s", set, err, want);
	free(s);
}

static void test_load_policy_key(void **state)
{
	struct scenario *s = malloc(sizeof(*s));
	char err[512];

	(void)state;
	assert_non_null(s);
	assert_int_equal(load(s, "nic.eth0.adaptive-rx=policy:win4", err, sizeof(err)), 0);
	assert_int_equal(s->nic[0].adaptive_rx, ADAPTIVE_POLICY);
	assert_string_equal(s->nic[0].adaptive_policy, "win4");
	assert_int_equal(s->nic[1].adaptive_rx, ADAPTIVE_OFF);
	free(s);
	expect_load_error("nic.eth0.adaptive-rx=policy:win5",
			  "--set nic.eth0.adaptive-rx=policy:win5: adaptive-rx = policy:win5: no "
			  "policy 'win5' is registered; registered: fix-poll, fix-irq, win4, zero, "
			  "frames-irq");
	expect_load_error("nic.eth0.adaptive-rx=policy",
			  "--set nic.eth0.adaptive-rx=policy: adaptive-rx = policy: name the "
			  "policy, policy:NAME; registered: fix-poll, fix-irq, win4, zero, "
			  "frames-irq");
	expect_load_error("nic.eth0.adaptive-rx=policy:",
			  "--set nic.eth0.adaptive-rx=policy:: adaptive-rx = policy:: name the "
			  "policy, policy:NAME; registered: fix-poll, fix-irq, win4, zero, "
			  "frames-irq");
	/* not a policy spelling: the enum's own message, unchanged */
	expect_load_error("nic.eth0.adaptive-rx=policies",
			  "--set nic.eth0.adaptive-rx=policies: adaptive-rx = policies: accepted "
			  "off, dim, pkt-rate");
	rxl_policy_registry_clear();
	expect_load_error("nic.eth0.adaptive-rx=policy:win4",
			  "--set nic.eth0.adaptive-rx=policy:win4: adaptive-rx = policy:win4: no "
			  "policy 'win4' is registered; none is registered (a program registers "
			  "its own with rxl_policy_register(), docs/policies.md)");
}

/* The report's coalesce table names the policy as the key spells it. */
static void test_report_names_policy(void **state)
{
	struct scenario *s = malloc(sizeof(*s));
	struct table *t;
	char err[512], *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(s);
	assert_int_equal(load(s, "nic.eth0.adaptive-rx=policy:win4", err, sizeof(err)), 0);
	t = coalesce_table(s);
	f = open_memstream(&out, &len);
	table_print(t, f, OUT_CSV);
	fclose(f);
	if (!strstr(out, "\neth0,policy:win4,0.000,1,") || !strstr(out, "\neth1,off,"))
		fail_msg("coalesce table:\n%s", out);
	free(out);
	table_free(t);
	free(s);
}

/* ---- the simulator ---- */

/* Run the test scenario with @set through the public simulator API; 0
 * with @r filled, or -1 with @err. */
static int sim_with(const char *set, struct results *r, char *err, size_t errlen)
{
	const char *sets[1] = { set };
	struct rxl_scenario *scn = rxl_scenario_load_text(livelock_text, "pol.ini", sets,
							  set ? 1 : 0, err, errlen);
	int rc = scn ? rxl_sim_run(scn, NULL, r, err, errlen) : -1;

	rxl_scenario_free(scn);
	return rc ? -1 : 0;
}

/* At 200 kpps the unmoderated NAPI port takes tens of thousands of RX
 * interrupts a second; 50 us of rx-usecs allow at most 20000 (one per
 * rx-usecs), whichever op set them, and nothing is lost either way. */
static void test_sim_policy_moderates(void **state)
{
	static const char *const sets[] = { "nic.eth0.adaptive-rx=policy:fix-poll",
					    "nic.eth0.adaptive-rx=policy:fix-irq" };
	struct results base, r;
	char err[512];

	(void)state;
	assert_int_equal(sim_with(NULL, &base, err, sizeof(err)), 0);
	assert_true(base.nic[0].c.rx_irqs * 1.0 / base.window_s > 40000);
	for (size_t i = 0; i < 2; i++) {
		if (sim_with(sets[i], &r, err, sizeof(err)))
			fail_msg("%s: %s", sets[i], err);
		if (!(r.nic[0].c.rx_irqs * 1.0 / r.window_s <= 20000))
			fail_msg("%s: %.0f RX interrupts/s", sets[i],
				 r.nic[0].c.rx_irqs * 1.0 / r.window_s);
		assert_true(r.forwarded_pps >= 0.99 * base.forwarded_pps);
		results_free(&r);
	}
	results_free(&base);
}

/* The same run twice gives the same counters (the policy is pure). */
static void test_sim_policy_deterministic(void **state)
{
	struct results a, b;
	char err[512];

	(void)state;
	assert_int_equal(sim_with("nic.eth0.adaptive-rx=policy:win4", &a, err, sizeof(err)), 0);
	assert_int_equal(sim_with("nic.eth0.adaptive-rx=policy:win4", &b, err, sizeof(err)), 0);
	assert_memory_equal(&a.nic[0].c, &b.nic[0].c, sizeof(a.nic[0].c));
	assert_true(a.nic[0].c.rx_irqs != 0);
	results_free(&a);
	results_free(&b);
}

/* A policy's changes are moderation changes like DIM's: one point per SET
 * that changes the engine (the repeated 50 us / 64 is none), in order,
 * with the values written, and the report's moderation table names the
 * controller "policy". */
static void test_sim_policy_series(void **state)
{
	static const int64_t usecs_ns[] = { 50000, 20000 };
	static const uint32_t frames[] = { 64, 16 };
	struct report *rep;
	struct results r;
	char err[512], *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(rxl_policy_register(&steps, NULL), 0);
	if (sim_with("nic.eth0.adaptive-rx=policy:steps", &r, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(r.n_series, 2);
	assert_int_equal(r.series_lost, 0);
	for (uint32_t i = 0; i < r.n_series; i++) {
		const struct mod_point *p = &r.series[i];

		assert_int_equal(p->kind, MOD_POLICY);
		assert_int_equal(p->nic, 0);
		assert_int_equal(p->ix, 0);
		assert_int_equal(p->usecs_ns, usecs_ns[i]);
		assert_int_equal(p->frames, frames[i]);
		assert_true(p->t > (i ? r.series[i - 1].t : 0));
	}
	rep = run_report(&r, true);
	f = open_memstream(&out, &len);
	report_print(rep, f, OUT_CSV);
	fclose(f);
	if (!strstr(out, ",eth0,policy,0,50.000,64\n") || !strstr(out, ",eth0,policy,0,20.000,16\n"))
		fail_msg("report:\n%s", out);
	free(out);
	report_free(rep);
	results_free(&r);
}

static void test_sim_policy_bug_fails_the_run(void **state)
{
	struct results r;
	char err[512];

	(void)state;
	assert_int_equal(sim_with("nic.eth0.adaptive-rx=policy:zero", &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "[nic eth0] policy zero, on-poll-done at t="));
	assert_non_null(strstr(err, ": decided rx-usecs 0 and rx-frames 0 (at least one must be "
				    "non-zero)"));
}

/* ---- replay ---- */

static char *replay_csv(const char *name, enum rxl_policy_event ev,
			const struct rxl_policy_sample *smp, size_t n)
{
	struct rxl_policy_settings start = { 0, 1 };
	struct table *t;
	char err[512], *out = NULL;
	size_t len = 0;
	FILE *f;

	if (replay_policy(name, &start, ev, smp, n, &t, err, sizeof(err))) {
		assert_null(t);
		out = malloc(strlen(err) + 8);
		sprintf(out, "error: %s", err);
		return out;
	}
	f = open_memstream(&out, &len);
	table_print(t, f, OUT_CSV);
	fclose(f);
	table_free(t);
	return out;
}

static void expect_replay(const char *name, enum rxl_policy_event ev,
			  const struct rxl_policy_sample *smp, size_t n, const char *want)
{
	char *got = replay_csv(name, ev, smp, n);

	if (strcmp(got, want)) {
		print_error("--- got:\n%s\n--- want:\n%s\n", got, want);
		free(got);
		fail();
	}
	free(got);
}

/* win4: sample 0 is the origin; samples 1-4 are the first window (40
 * packets: SET 40 us), 5-8 the second (40 again: SET, no change); sample 9
 * has counters below sample 8's (a restart: init at 9, then fed), so the
 * third window is samples 9-12 and counts from sample 9: 6 packets. */
static void test_replay_rows(void **state)
{
	static const struct rxl_policy_sample smp[] = {
		{ 0, 100, 6400, 10 },
		{ 1000, 110, 7040, 11 },  { 2000, 120, 7680, 12 },
		{ 3000, 130, 8320, 13 },  { 4000, 140, 8960, 14 },
		{ 5000, 150, 9600, 15 },  { 6000, 160, 10240, 16 },
		{ 7000, 170, 10880, 17 }, { 8000, 180, 11520, 18 },
		{ 9000, 5, 320, 1 },      { 10000, 7, 448, 2 },
		{ 11000, 9, 576, 3 },     { 12000, 11, 704, 4 },
	};

	(void)state;
	expect_replay("win4", RXL_POLICY_ON_POLL_DONE, smp, sizeof(smp) / sizeof(smp[0]),
		      "time_ns,interval_ns,packets,bytes,events,verdict,rx_usecs,rx_frames,"
		      "changed,restarted\n"
		      "4000,4000,40,2560,4,set,40,1,yes,no\n"
		      "8000,4000,40,2560,4,set,40,1,no,no\n"
		      "12000,3000,6,384,3,set,6,1,yes,yes\n");
}

static void test_replay_errors(void **state)
{
	static const struct rxl_policy_sample back[] = { { 100, 0, 0, 0 }, { 90, 1, 64, 1 } };
	static const struct rxl_policy_sample two[] = { { 0, 0, 0, 0 }, { 10, 1, 64, 1 } };

	(void)state;
	expect_replay("win4", RXL_POLICY_ON_POLL_DONE, back, 2,
		      "error: sample 1: time_ns 90 is before sample 0's 100");
	expect_replay("win5", RXL_POLICY_ON_POLL_DONE, two, 2,
		      "error: no policy 'win5' is registered; registered: fix-poll, fix-irq, "
		      "win4, zero, frames-irq");
	expect_replay("win4", RXL_POLICY_ON_IRQ, two, 2, "error: policy win4 has no on-irq op");
	expect_replay("win4", RXL_POLICY_ON_POLL_DONE, two, 0,
		      "error: no samples: the first one is the policy's origin");
	expect_replay("zero", RXL_POLICY_ON_POLL_DONE, two, 2,
		      "error: sample 1: policy zero, on-poll-done: decided rx-usecs 0 and "
		      "rx-frames 0 (at least one must be non-zero)");
}

/* ---- the live loop ---- */

static void test_live_config_policy(void **state)
{
	struct rxl_config c;
	struct rxl_policy_ops bad = fix_irq;
	char err[256];

	(void)state;
	rxl_config_default(&c, RXL_MODE_DIM);
	assert_null(c.policy);
	assert_int_equal(rxl_config_set(&c, "policy", "fix-irq", err, sizeof(err)), 0);
	assert_ptr_equal(c.policy, &fix_irq);
	assert_int_equal(rxl_config_check(&c, err, sizeof(err)), 0);
	assert_int_equal(rxl_config_set(&c, "policy", "nope", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "policy: no policy 'nope' is registered; registered: fix-poll, "
				 "fix-irq, win4, zero, frames-irq");
	bad.init = NULL;
	c.policy = &bad;
	assert_int_equal(rxl_config_check(&c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "policy: init is required");
}

struct sink {
	struct rxl_loop *loop;
	uint64_t got, want;
};

static void on_batch(void *arg, const struct rxl_pkt *pkts, size_t n)
{
	struct sink *k = arg;

	(void)pkts;
	k->got += n;
	if (k->got >= k->want)
		rxl_stop(k->loop);
}

/* Mode dim with frames-irq over UDP on 127.0.0.1, budget 1: a poll stages
 * one packet and the loop has max(budget, rx-frames, each-burst) = 5
 * staging slots.  The engine starts at rx-usecs 0 / rx-frames 1, so the
 * first firing delivers one packet; its on_irq sets rx-frames 8, capped at
 * the 5 slots, and with no timer every later delivery is exactly 5 packets:
 * 101 packets (queued before the run, well inside the default socket
 * buffer) arrive in 1 + 20 deliveries, with one moderation change. */
static void test_live_dim_runs_policy(void **state)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int fd = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);
	struct rxl_config c;
	struct sink k = { .want = 101 };
	struct rxl_stats st;
	char err[256], buf[64] = { 0 };

	(void)state;
	assert_true(fd >= 0 && tx >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &alen), 0);
	rxl_config_default(&c, RXL_MODE_DIM);
	assert_int_equal(rxl_config_set(&c, "budget", "1", err, sizeof(err)), 0);
	assert_int_equal(rxl_config_set(&c, "rx-usecs", "0", err, sizeof(err)), 0);
	assert_int_equal(rxl_config_set(&c, "rx-frames", "1", err, sizeof(err)), 0);
	assert_int_equal(rxl_config_set(&c, "policy", "frames-irq", err, sizeof(err)), 0);
	k.loop = rxl_open_udp(fd, &c, on_batch, &k, err, sizeof(err));
	if (!k.loop)
		fail_msg("rxl_open_udp: %s", err);
	for (int i = 0; i < 101; i++)
		assert_int_equal(sendto(tx, buf, sizeof(buf), 0, (struct sockaddr *)&a, sizeof(a)),
				 (ssize_t)sizeof(buf));
	assert_int_equal(rxl_run(k.loop, 5000000000ull), 0);
	rxl_stats_get(k.loop, &st);
	rxl_close(k.loop);
	close(fd);
	close(tx);
	assert_int_equal(st.packets, 101);
	assert_int_equal(st.deliveries, 21);
	assert_int_equal(st.moderation_changes, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_registry_find_and_list, setup),
		cmocka_unit_test_setup(test_registry_refusals, setup),
		cmocka_unit_test_setup(test_registry_full, setup),
		cmocka_unit_test_setup(test_load_policy_key, setup),
		cmocka_unit_test_setup(test_report_names_policy, setup),
		cmocka_unit_test_setup(test_sim_policy_moderates, setup),
		cmocka_unit_test_setup(test_sim_policy_deterministic, setup),
		cmocka_unit_test_setup(test_sim_policy_series, setup),
		cmocka_unit_test_setup(test_sim_policy_bug_fails_the_run, setup),
		cmocka_unit_test_setup(test_replay_rows, setup),
		cmocka_unit_test_setup(test_replay_errors, setup),
		cmocka_unit_test_setup(test_live_config_policy, setup),
		cmocka_unit_test_setup(test_live_dim_runs_policy, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
