/* policy_livelock.c - a moderation policy of one's own, run in the simulator.
 *
 * Registers "step" (include/rxlab/policy.h) and runs the livelock sweep
 * (scenarios/livelock.ini: offered rate x classic / napi) twice per point:
 * with the scenario's static settings on eth0 (rx-usecs 0, rx-frames 1: no
 * moderation) and with adaptive-rx = policy:step.  Prints, per offered
 * rate, forwarded packets/s and interrupts/s of both.
 *
 *   policy_livelock                      the default rates
 *   policy_livelock 100kpps 400kpps      these rates
 *
 * "step" walks a ladder of five (rx-usecs, rx-frames) rungs, one rung per
 * window of 16 interrupts: up when the window averaged more than 2 packets
 * per interrupt (the load is batching by itself: moderation costs little
 * latency and saves interrupts), down below 1.25 (packets come one at a
 * time: moderation would only delay them).
 *
 * Built on the public headers alone: rxlab/policy.h for the policy,
 * rxlab/sim.h for the runs (rxlab_sim).
 */
#include <stdio.h>

#include "rxlab/policy.h"
#include "rxlab/sim.h"

/* ---- the policy ---- */

#define STEP_WINDOW_EVENTS 16
#define STEP_UP_X100 200      /* packets per interrupt x 100 above which to step up */
#define STEP_DOWN_X100 125    /* ... below which to step down */

static const struct rxl_policy_settings ladder[] = {
	{ 0, 1 }, { 10, 16 }, { 25, 32 }, { 50, 64 }, { 100, 64 },
};
#define RUNGS (sizeof(ladder) / sizeof(ladder[0]))

struct step {
	unsigned rung;
	struct rxl_policy_sample start;   /* the window's first sample */
};

static void step_init(void *state, const struct rxl_policy_settings *start,
		      const struct rxl_policy_sample *now)
{
	struct step *st = state;

	(void)start; /* the ladder starts at its bottom rung, the scenario's own */
	st->rung = 0;
	st->start = *now;
}

static struct rxl_policy_decision step_poll_done(void *state,
						 const struct rxl_policy_settings *cur,
						 const struct rxl_policy_sample *s)
{
	struct step *st = state;
	uint64_t events = s->events - st->start.events;
	uint64_t ppi_x100;
	unsigned was = st->rung;

	(void)cur;
	if (events < STEP_WINDOW_EVENTS)
		return rxl_policy_measuring();
	ppi_x100 = (s->packets - st->start.packets) * 100 / events;
	st->start = *s;
	if (ppi_x100 > STEP_UP_X100 && st->rung + 1 < RUNGS)
		st->rung++;
	else if (ppi_x100 < STEP_DOWN_X100 && st->rung > 0)
		st->rung--;
	if (st->rung == was)
		return rxl_policy_keep();
	return rxl_policy_set(ladder[st->rung].rx_usecs, ladder[st->rung].rx_frames);
}

static const struct rxl_policy_ops step_ops = {
	.name = "step",
	.description = "one rung of rx-usecs/rx-frames up above 2 packets per interrupt, "
		       "down below 1.25",
	.state_bytes = sizeof(struct step),
	.init = step_init,
	.on_poll_done = step_poll_done,
};

/* ---- the sweep ---- */

static int run(const char *rxpath, const char *rate, const char *adaptive,
	       struct results *r)
{
	char set[3][64], err[512];
	const char *sets[3] = { set[0], set[1], set[2] };
	struct rxl_scenario *scn;
	int rc = -1;

	snprintf(set[0], sizeof(set[0]), "host.rxpath=%s", rxpath);
	snprintf(set[1], sizeof(set[1]), "traffic.rate=%s", rate);
	snprintf(set[2], sizeof(set[2]), "nic.eth0.adaptive-rx=%s", adaptive);
	scn = rxl_scenario_load("livelock", sets, 3, err, sizeof(err));
	if (scn)
		rc = rxl_sim_run(scn, NULL, r, err, sizeof(err));
	rxl_scenario_free(scn);
	if (rc)
		fprintf(stderr, "policy_livelock: %s\n", err);
	return rc;
}

static int point(const char *rxpath, const char *rate)
{
	struct results fixed, step;

	if (run(rxpath, rate, "off", &fixed))
		return -1;
	if (run(rxpath, rate, "policy:step", &step)) {
		results_free(&fixed);
		return -1;
	}
	printf("%-8s %10.0f %12.0f %12.0f %12.0f %12.0f\n", rxpath, fixed.offered_pps,
	       fixed.forwarded_pps, fixed.irqs_per_s, step.forwarded_pps, step.irqs_per_s);
	results_free(&fixed);
	results_free(&step);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const def_rates[] = { "50kpps", "100kpps", "200kpps", "300kpps",
						 "400kpps", "800kpps" };
	static const char *const rxpaths[] = { "classic", "napi" };
	const char *const *rates = argc > 1 ? (const char *const *)argv + 1 : def_rates;
	size_t n_rates = argc > 1 ? (size_t)argc - 1 : sizeof(def_rates) / sizeof(def_rates[0]);
	const char *why;

	if (rxl_policy_register(&step_ops, &why)) {
		fprintf(stderr, "policy_livelock: policy %s: %s\n", step_ops.name, why);
		return 1;
	}
	printf("%-8s %10s %12s %12s %12s %12s\n", "rxpath", "offered/s", "static-fwd/s",
	       "static-irq/s", "step-fwd/s", "step-irq/s");
	for (size_t p = 0; p < 2; p++)
		for (size_t i = 0; i < n_rates; i++)
			if (point(rxpaths[p], rates[i]))
				return 1;
	return 0;
}
