/* opts.h - the one option parser of every rxlab command (glibc getopt_long).
 *
 * A command describes its options in a table and gets each one, in command
 * line order, through callbacks; the parser never prints an error itself
 * (getopt_long's messages are off), so every command keeps its own words.
 * What it accepts, for every command alike:
 *   --name VALUE, --name=VALUE   an option with a value (the value may
 *                                start with '-': "--set -x" gives "-x")
 *   --name                       an option without one
 *   --help, -h                   print the command's usage on stdout
 *   --version                    print rxlab's version on stdout (cli/version.h)
 *   --                           the rest are arguments, even "-x"
 * Everything else that starts with '-' is an error (CLI_UNKNOWN): another
 * single-dash word, an unknown or abbreviated long name (getopt_long would
 * take "--sh" for "--shard"; rxlab never did), "--flag=VALUE" for an option
 * without a value.  A plain "-" is an argument where the command says so
 * (stdin), else CLI_UNKNOWN.  Arguments and options may be mixed in any
 * order and are reported in that order (RETURN_IN_ORDER: argv is not
 * permuted), so the first error in the line is the one reported.
 */
#ifndef RXLAB_CLI_OPTS_H
#define RXLAB_CLI_OPTS_H

#include <stdbool.h>

/* One option: @name with its dashes ("--set"), whether it takes a value. */
struct cli_opt {
	const char *name;
	bool value;
};

enum cli_error {
	CLI_UNKNOWN,	/* not an option of the command (also "-" unless dash_is_arg) */
	CLI_MISSING,	/* an option that takes a value is the last word */
};

/* A command's options and what to do with them.  Each callback returns 0
 * to go on, or the command's exit status (after its message) to stop. */
struct cli_spec {
	const struct cli_opt *opts;	/* ends with { NULL, false }; at most CLI_MAX_OPTS */
	const char *usage;		/* printed by --help / -h; NULL: they (and
					 * --version) are unknown */
	bool dash_is_arg;		/* "-" is an argument (standard input) */
	/* @name as in the table ("--set"); @val NULL for an option without value */
	int (*on_opt)(void *ctx, const char *name, const char *val);
	int (*on_arg)(void *ctx, const char *arg);
	/* @word: the command-line word at fault, as the user wrote it */
	int (*on_error)(void *ctx, enum cli_error e, const char *word);
};

#define CLI_MAX_OPTS 40
#define CLI_HELP (-1)

/* Parse @argv[1..@argc) (argv[0] is the command's name) under @s, handing
 * @ctx to the callbacks.  Returns 0 when every word was taken, CLI_HELP
 * after printing the usage for --help or the version for --version (the
 * command then exits 0), or the
 * first non-zero status a callback returned. */
int cli_parse(const struct cli_spec *s, void *ctx, int argc, char **argv);

/* The exit status for cli_parse()'s result @rc when it is not 0. */
static inline int cli_status(int rc)
{
	return rc == CLI_HELP ? 0 : rc;
}

#endif
