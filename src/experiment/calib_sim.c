/* calib_sim.c - the test bed's napi run in the simulator, for live
 * calibrate's fit (calib_sim.h).  The sets are those `rxlab live
 * --compare-sim` gives a threaded napi run (experiment/live_sim.c). */
#include "experiment/calib_sim.h"

#include <stdio.h>
#include <stdlib.h>

#include "live/live_run.h"
#include "model/profile_load.h"
#include "model/scenario_load.h"
#include "sim/results.h"
#include "sim/sim.h"

/* scenario_load() and its own profile, then the draft one in its place
 * (the scenario's host.profile is only resolved to be replaced). */
static int load(struct scenario *scn, const char *profile_text, double rate_pps, uint32_t defer,
		int64_t gro_ns, char *err, size_t errlen)
{
	char buf[6][64];
	const char *sets[] = { buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], "host.idle=menu",
			       "host.profile=veth-host", "run.duration=1s", "run.warmup=50ms" };
	struct profile p;

	snprintf(buf[0], sizeof(buf[0]), "traffic.rate=%.0fpps", rate_pps > 1 ? rate_pps : 1);
	snprintf(buf[1], sizeof(buf[1]), "nic.eth0.threaded=on");
	snprintf(buf[2], sizeof(buf[2]), "nic.eth0.threaded-prio=%d", LIVE_FIFO_PRIO);
	snprintf(buf[3], sizeof(buf[3]), "apps.sink-prio=%d", LIVE_FIFO_PRIO);
	snprintf(buf[4], sizeof(buf[4]), "nic.eth0.napi_defer_hard_irqs=%u", defer);
	snprintf(buf[5], sizeof(buf[5]), "nic.eth0.gro_flush_timeout=%lldns", (long long)gro_ns);
	if (profile_load_text(&p, profile_text, "calibrate", err, errlen))
		return -1;
	if (scenario_load(scn, "live-veth", sets, sizeof(sets) / sizeof(sets[0]), err, errlen))
		return -1;
	scn->profile = p;
	return 0;
}

int calib_sim_busy(const char *profile_text, double rate_pps, uint32_t defer, int64_t gro_ns,
		   double *busy_pct, char *err, size_t errlen)
{
	struct scenario *scn = calloc(1, sizeof(*scn));
	struct sim *s = calloc(1, sizeof(*s));
	struct results r;
	int rc = -1;

	if (!scn || !s) {
		snprintf(err, errlen, "out of memory");
	} else if (load(scn, profile_text, rate_pps, defer, gro_ns, err, errlen) == 0) {
		if (sim_init(s, scn) || sim_run(s)) {
			snprintf(err, errlen, "simulator: %s", s->fatal);
		} else if (results_collect(&r, s)) {
			snprintf(err, errlen, "simulator: results: out of memory");
		} else {
			*busy_pct = 100.0 - r.cpu_pct[ACCT_IDLE];
			results_free(&r);
			rc = 0;
		}
		sim_free(s);
	}
	free(s);
	free(scn);
	return rc;
}
