/* commands.h - the commands of rxlab, one file each (cmd_NAME.c), listed
 * in the table of main.c.
 *
 * A handler gets the command line from the command's name on (argv[0] is
 * "run", "sweep", ...; for the default job, the program's name), parses it
 * with the shared parser (cli/opts.h) into its library's request and calls
 * the library.  It returns the exit status: 0, 1 a check or a run failed
 * (validate's figures, a model error), 2 bad usage or input, 128 + N after
 * signal N (docs/cli.md).  Its usage text is what `rxlab CMD --help`
 * prints.
 */
#ifndef RXLAB_CLI_COMMANDS_H
#define RXLAB_CLI_COMMANDS_H

typedef int command_fn(int argc, char **argv);

command_fn cmd_run, cmd_sweep, cmd_merge, cmd_plot, cmd_compare, cmd_validate,
	cmd_seeds, cmd_replay, cmd_tune, cmd_live, cmd_scenarios, cmd_schemes, cmd_version,
	cmd_host;

extern const char default_usage[], run_usage[], sweep_usage[], merge_usage[], plot_usage[],
	compare_usage[], validate_usage[], seeds_usage[], replay_usage[], tune_usage[],
	live_usage[], scenarios_usage[], schemes_usage[], version_usage[],
	host_usage[];

/* The default job (cmd_default.c), whose one argument can only be a
 * command rxlab does not know, and a word in the place of the command
 * that is not one (argv[0]; its options are read first, their errors come
 * first, as they always did: cmd_help.c), and `rxlab help [NOSUCH]`
 * (NOSUCH: an unknown command).  @names lists the commands for
 * the message ("run, sweep, ... and help"). */
int cmd_default(int argc, char **argv, const char *names);
int cmd_help(int argc, char **argv, const char *names);
int cmd_unknown(int argc, char **argv, const char *names);

/* "rxlab: unknown command 'CMD'; the commands are NAMES" and the hint on
 * stderr; returns 2. */
int unknown_command(const char *cmd, const char *names);

#endif
