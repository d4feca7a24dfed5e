/* live_args.h - the command line of `rxlab live [MODE...] [options]`
 * into the modes to run and the job every mode shares. */
#ifndef RXLAB_CLI_LIVE_ARGS_H
#define RXLAB_CLI_LIVE_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "live/live_run.h"
#include "live/timeline.h"
#include "report/table.h"

struct live_opts {
	enum rxl_mode modes[RXL_MODE_COUNT];
	size_t n_modes;
	struct live_job job;		/* template for every mode */
	const char *sets[LIVE_MAX_SETS];
	enum out_format fmt;
	bool compare_sim, duration_given;
	bool allow_host_iface;		/* --allow-host-iface */
	bool profile_given;
	bool rate_max;			/* --rate max */
	const char *profile;
	struct timeline tl;		/* --pattern csv:/pcap: */
};

/* Parse @argv[1..@argc) (argv[0] is "live") into @o, whose job holds
 * live_job_default() and whose fmt and profile hold their defaults.  Every
 * check that needs no test bed runs here (loop keys, device knobs, the
 * timeline file, the sender's settings, the --profile file), so a typo
 * fails before anything is built.  0, CLI_HELP (cli/opts.h) after the
 * usage, or 2 after a message ("rxlab live: ..."). */
int live_parse_args(struct live_opts *o, int argc, char **argv);

#endif
