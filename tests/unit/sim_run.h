/* sim_run.h - the one helper the simulator tests that use the public API
 * (rxlab/sim.h) share: load a scenario, run it, fail the test with the
 * library's message if either step fails.  Include after <cmocka.h> and
 * "rxlab/sim.h". */
#ifndef RXLAB_TESTS_SIM_RUN_H
#define RXLAB_TESTS_SIM_RUN_H

/* Run @scn (freed here) into @r; a NULL @scn is a load that failed with @err. */
static inline void sim_run_loaded(struct rxl_scenario *scn, char *err, size_t errlen,
				  struct results *r)
{
	if (!scn)
		fail_msg("load: %s", err);
	if (rxl_sim_run(scn, NULL, r, err, errlen))
		fail_msg("run: %s", err);
	rxl_scenario_free(scn);
}

/* Scenario text @ini (named @origin in messages) with @n overrides @sets. */
static inline void sim_run_text(const char *ini, const char *origin, const char *const *sets,
				size_t n, struct results *r)
{
	char err[512] = "";

	sim_run_loaded(rxl_scenario_load_text(ini, origin, sets, n, err, sizeof(err)), err,
		       sizeof(err), r);
}

/* Built-in scenario or file @name with @n overrides @sets. */
static inline void sim_run_named(const char *name, const char *const *sets, size_t n,
				 struct results *r)
{
	char err[512] = "";

	sim_run_loaded(rxl_scenario_load(name, sets, n, err, sizeof(err)), err, sizeof(err), r);
}

#endif
