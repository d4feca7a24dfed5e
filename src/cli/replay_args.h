/* replay_args.h - the command line of `rxlab replay KIND [OPTIONS] FILE`
 * (replay/replay.h; the options and their units are docs/replay.md). */
#ifndef RXLAB_CLI_REPLAY_ARGS_H
#define RXLAB_CLI_REPLAY_ARGS_H

#include <stddef.h>

#include "replay/replay.h"

/* Parse the options of @o->kind and the one input file name into @o (set
 * by replay_opts_default() first) and *@file; argv[0] is the first
 * argument after the kind.  0; 1 after printing the usage for --help; or
 * -1 with a one-line message in @err ("missing value after --weight",
 * "unknown option --x for 'replay dim' (see docs/replay.md)", a value out
 * of range, no file or two). */
int replay_parse_args(struct replay_opts *o, int argc, char **argv, const char **file,
		      char *err, size_t errlen);

#endif
