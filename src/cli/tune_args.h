/* tune_args.h - the command line of `rxlab tune` (tune/tune.h) into a
 * struct tune_opts, on its own so that it can be fuzzed
 * (tests/fuzz/fuzz_tune.c). */
#ifndef RXLAB_CLI_TUNE_ARGS_H
#define RXLAB_CLI_TUNE_ARGS_H

#include "cli/tune_load_args.h"
#include "report/table.h"
#include "tune/tune_request.h"
#include "tune/verify.h"

struct tune_opts {
	struct tune_request req;         /* what is searched */
	const char *out_dir;             /* --out DIR (NULL: none) */
	enum out_format fmt;             /* --format */
	char seed_set[64];               /* "run.seed=N" of --seed, in req.user_sets */
	const char *tables[8];           /* --table NAME (front, best), repeatable */
	size_t n_tables;
	const char *tables_dir;          /* --out-dir DIR: DIR/front.csv, DIR/best.csv */
	struct tune_load_opts load;      /* --load, --load-points, --speeds, --max-loss */
	bool verify;                     /* --verify: measure the best two live (tune/verify.h) */
	bool allow_host_iface;           /* --allow-host-iface: --verify on such an --iface */
	struct verify_opts vopt;         /* --verify-duration, --verify-tolerance */
};

/* Defaults: those of tune_request_init(), a table, no --out. */
void tune_opts_init(struct tune_opts *o, size_t jobs);

/* Read the arguments after "tune" (@argv[0..@argc)) into @o
 * (initialised by tune_opts_init(); its strings point into @argv), so
 * that o->req is a request as tune_request.h says.  0; CLI_HELP
 * (cli/opts.h) after printing the usage for --help; or 2 after a message
 * on stderr ("rxlab: tune: ..." and, for a usage error, "try 'rxlab
 * help'"): an unknown option, a missing value, a bad goal or objective,
 * an empty or duplicated --policies list, an --iface name that fails
 * rxl_ifname_check(), no scenario or no goal; --speed or --base with a
 * scenario, a --speed that is not a number 0.001..1000; a bad --load,
 * --load-points, --speeds or --max-loss (cli/tune_load_args.h); a
 * --placement or a --per-queue that is not auto, on or off. */
int tune_opts_parse(struct tune_opts *o, int argc, char **argv);

#endif
