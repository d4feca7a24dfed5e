/* opts.c - the option parser of every command (see opts.h).
 *
 * getopt_long runs with "-:" (arguments returned in order as code 1, a
 * missing value as ':') and opterr 0.  It knows long options only: single-
 * dash words are screened before it sees them, so that "-xh" is one unknown
 * word rather than a cluster of short options.
 */
#include "cli/opts.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/version.h"

#define CODE0 256	/* getopt_long's code of opts[0]; help is CODE0 + n, version + n + 1 */

/* @word names @name exactly ("--set" or "--set=..."), not an abbreviation. */
static bool exact(const char *word, const char *name)
{
	size_t len = strcspn(word, "=");

	return strlen(name) == len && !strncmp(word, name, len);
}

/* --help or -h (@word): the usage, or an unknown option where there is none. */
static int help(const struct cli_spec *s, void *ctx, const char *word)
{
	if (!s->usage)
		return s->on_error(ctx, CLI_UNKNOWN, word);
	fputs(s->usage, stdout);
	return CLI_HELP;
}

/* --version (@word): as `rxlab version`, where --help is known. */
static int version(const struct cli_spec *s, void *ctx, const char *word)
{
	if (!s->usage)
		return s->on_error(ctx, CLI_UNKNOWN, word);
	version_print(stdout);
	return CLI_HELP;
}

/* The word of the option getopt_long just returned: the one before its
 * separate value, if it took one. */
static const char *option_word(char **argv, bool has_value)
{
	return has_value && optarg == argv[optind - 1] ? argv[optind - 2] : argv[optind - 1];
}

static int on_code(const struct cli_spec *s, void *ctx, size_t n, char **argv, int c)
{
	const char *word;

	if (c == 1)
		return !strcmp(optarg, "-") && !s->dash_is_arg ? s->on_error(ctx, CLI_UNKNOWN, optarg)
							       : s->on_arg(ctx, optarg);
	if (c == ':' && optopt >= CODE0 && (size_t)(optopt - CODE0) < n &&
	    exact(argv[optind - 1], s->opts[optopt - CODE0].name))
		return s->on_error(ctx, CLI_MISSING, argv[optind - 1]);
	if (c < CODE0)
		return s->on_error(ctx, CLI_UNKNOWN, argv[optind - 1]);
	if ((size_t)(c - CODE0) == n || (size_t)(c - CODE0) == n + 1) {
		word = argv[optind - 1];
		if (exact(word, "--help"))
			return help(s, ctx, word);
		return exact(word, "--version") ? version(s, ctx, word)
						: s->on_error(ctx, CLI_UNKNOWN, word);
	}
	word = option_word(argv, s->opts[c - CODE0].value);
	if (!exact(word, s->opts[c - CODE0].name))
		return s->on_error(ctx, CLI_UNKNOWN, word);
	return s->on_opt(ctx, s->opts[c - CODE0].name, s->opts[c - CODE0].value ? optarg : NULL);
}

/* The rest after "--": arguments, whatever they look like. */
static int rest(const struct cli_spec *s, void *ctx, int argc, char **argv)
{
	for (int i = optind; i < argc; i++) {
		int rc = s->on_arg(ctx, argv[i]);

		if (rc)
			return rc;
	}
	return 0;
}

int cli_parse(const struct cli_spec *s, void *ctx, int argc, char **argv)
{
	struct option lo[CLI_MAX_OPTS + 3];
	size_t n = 0;

	for (; s->opts[n].name && n < CLI_MAX_OPTS; n++)
		lo[n] = (struct option){ s->opts[n].name + 2,
					 s->opts[n].value ? required_argument : no_argument, NULL,
					 (int)(CODE0 + n) };
	lo[n] = (struct option){ "help", no_argument, NULL, (int)(CODE0 + n) };
	lo[n + 1] = (struct option){ "version", no_argument, NULL, (int)(CODE0 + n + 1) };
	lo[n + 2] = (struct option){ NULL, 0, NULL, 0 };
	optind = 0;	/* glibc: start afresh (every command, every fuzz input) */
	opterr = 0;
	for (;;) {
		int i = optind ? optind : 1, c, rc;

		if (i < argc && argv[i][0] == '-' && argv[i][1] && argv[i][1] != '-') {
			if (!strcmp(argv[i], "-h"))
				return help(s, ctx, argv[i]);
			return s->on_error(ctx, CLI_UNKNOWN, argv[i]);
		}
		c = getopt_long(argc, argv, "-:", lo, NULL);
		if (c == -1)
			return rest(s, ctx, argc, argv);
		rc = on_code(s, ctx, n, argv, c);
		if (rc)
			return rc;
	}
}
