/* tune_args.h - the command line of `rxlab tune` (tune/tune.h) into a
 * struct tune_opts, on its own so that it can be fuzzed
 * (tests/fuzz/fuzz_tune.c). */
#ifndef RXLAB_CLI_TUNE_ARGS_H
#define RXLAB_CLI_TUNE_ARGS_H

#include "tune/tune_opts.h"

/* Read the arguments after "tune" (@argv[0..@argc)) into @o
 * (initialised by tune_opts_init(); its strings point into @argv).  0;
 * CLI_HELP (cli/opts.h) after printing the usage for --help; or 2 after a
 * message on stderr ("rxlab: tune: ..."): an unknown option, a missing
 * value, a bad goal or objective, an empty or duplicated --policies list,
 * an --iface name that fails rxl_ifname_check(), no scenario or no goal. */
int tune_opts_parse(struct tune_opts *o, int argc, char **argv);

#endif
