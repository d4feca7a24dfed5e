/* main.c - the rxlab command line: the table of commands and the one
 * dispatch.  Each command is a file of its own (cmd_NAME.c, commands.h)
 * and parses its options with the shared parser (opts.h).
 *
 *   rxlab [OPTIONS]            the receive-livelock experiment (default job)
 *   rxlab COMMAND [OPTIONS]    a command of the table below
 *   rxlab help [COMMAND]       the usage of rxlab, or of COMMAND
 *   rxlab version, --version   the version (cli/version.h)
 *
 * Exit status (docs/cli.md, the man page's EXIT STATUS): 0 success, 1 a
 * check failed (validate's figures) or a run failed (model error, gnuplot),
 * 2 bad usage or input, or output that could not be written, 128 + N after
 * signal N.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "io/outfile.h"

struct command {
	const char *name;
	const char *summary;	/* one line, for `rxlab help COMMAND` */
	command_fn *run;
	const char *usage;	/* `rxlab COMMAND --help` prints the same */
	bool unlisted;		/* not named by the "unknown command" message */
};

/* In the order the "unknown command" message names them. */
static const struct command commands[] = {
	{ "run", "run one scenario (INI file or built-in name)", cmd_run, run_usage, false },
	{ "sweep", "run the cartesian product of --vary values", cmd_sweep, sweep_usage, false },
	{ "merge", "join the shards of a sweep into one file", cmd_merge, merge_usage, false },
	{ "plot", "draw a sweep's figures with gnuplot", cmd_plot, plot_usage, false },
	{ "compare", "every moderation scheme on a request/response server", cmd_compare,
	  compare_usage, false },
	{ "validate", "run the seed experiments beside their reported figures", cmd_validate,
	  validate_usage, false },
	{ "seeds", "list the seed experiments built in", cmd_seeds, seeds_usage, false },
	{ "replay", "run a core mechanism on recorded counters", cmd_replay, replay_usage, false },
	{ "tune", "search the moderation settings that meet latency goals", cmd_tune,
	  tune_usage, false },
	{ "live", "run receive modes of the live engine on real packets", cmd_live, live_usage,
	  false },
	{ "scenarios", "list built-in scenarios and host profiles", cmd_scenarios,
	  scenarios_usage, false },
	{ "schemes", "list the moderation schemes and compare's presets", cmd_schemes,
	  schemes_usage, false },
	{ "host", "read this machine's CPUs, sysctls and an interface into a scenario",
	  cmd_host, host_usage, false },
	/* NULL: cmd_help(), which takes the list of names */
	{ "help", "the usage of rxlab, or of one command", NULL, default_usage, false },
	/* unlisted: the message of tests/bad/unknown_command.expected stays
	 * as it was; rxlab help and the man page name it */
	{ "version", "the version of rxlab (also --version)", cmd_version, version_usage, true },
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* "run, sweep, ..., scenarios and help" (the listed commands) into @buf. */
static const char *names(char *buf, size_t len)
{
	size_t at = 0, n = 0, k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_COMMANDS; i++)
		n += !commands[i].unlisted;
	for (size_t i = 0; i < N_COMMANDS && at < len; i++) {
		if (commands[i].unlisted)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", k == 0 ? "" :
				       k + 1 == n ? " and " : ", ", commands[i].name);
		k++;
	}
	return buf;
}

static int dispatch(int argc, char **argv)
{
	const struct command *c;
	char list[512];

	if (argc < 2 || argv[1][0] == '-')
		return cmd_default(argc, argv, names(list, sizeof(list)));
	c = find(argv[1]);
	if (!c)
		return cmd_unknown(argc - 1, argv + 1, names(list, sizeof(list)));
	if (!c->run && argc == 3 && find(argv[2])) {
		c = find(argv[2]);
		printf("rxlab %s: %s\n\n%s", c->name, c->summary, c->usage);
		return 0;
	}
	if (!c->run)
		return cmd_help(argc - 1, argv + 1, names(list, sizeof(list)));
	return c->run(argc - 1, argv + 1);
}

/* Every command's standard output is checked here, once: what stdio still
 * holds is flushed, and a write that failed at any time (a full disk,
 * /dev/full, a closed descriptor) fails the command with its reason and
 * status 2, unless it already failed (docs/output-files.md). */
int main(int argc, char **argv)
{
	int rc = dispatch(argc, argv), e = outfile_stdout_error();

	errno = 0;
	if (!e && fclose(stdout) && errno != EBADF)	/* EBADF: `>&-`, nothing written */
		e = errno ? errno : EIO;
	if (e)
		fprintf(stderr, "rxlab: cannot write standard output: %s\n", strerror(e));
	return e && rc == 0 ? 2 : rc;
}
