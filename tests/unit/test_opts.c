/* test_opts.c - the one option parser of every command (src/cli/opts.h):
 * what it hands each callback, in command-line order, for each form of
 * word.  Each case is a command line and the exact log of callbacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/opts.h"

struct log {
	char text[512];
	int stop_at_arg;	/* on_arg returns 7 for this argument (1-based), 0: never */
	int args;
};

static void add(struct log *l, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(l->text);

	snprintf(l->text + n, sizeof(l->text) - n, fmt, a, b ? b : "(null)");
}

static int on_opt(void *ctx, const char *name, const char *val)
{
	add(ctx, "opt %s=%s;", name, val);
	return 0;
}

static int on_arg(void *ctx, const char *arg)
{
	struct log *l = ctx;

	add(l, "arg %s%s;", arg, "");
	return ++l->args == l->stop_at_arg ? 7 : 0;
}

static int on_error(void *ctx, enum cli_error e, const char *word)
{
	add(ctx, "%s %s;", e == CLI_MISSING ? "missing" : "unknown", word);
	return 2;
}

static const struct cli_opt opts[] = {
	{ "--set", true }, { "--shard", true }, { "--show", false }, { NULL, false },
};

/* Parse the words of @line (split at spaces, "''" is an empty word) after
 * a command name; the log in @l, the result returned. */
static int parse(struct log *l, const char *usage, bool dash_is_arg, const char *line)
{
	const struct cli_spec s = { .opts = opts, .usage = usage, .dash_is_arg = dash_is_arg,
				    .on_opt = on_opt, .on_arg = on_arg, .on_error = on_error };
	static char buf[256];
	char *argv[32] = { "cmd" };
	int argc = 1;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *p = strtok(buf, " "); p && argc < 31; p = strtok(NULL, " "))
		argv[argc++] = strcmp(p, "''") ? p : "";
	memset(l->text, 0, sizeof(l->text));
	l->args = 0;
	return cli_parse(&s, l, argc, argv);
}

static void expect(const char *line, int rc, const char *log)
{
	struct log l = { .stop_at_arg = 0 };

	assert_int_equal(parse(&l, "usage\n", false, line), rc);
	assert_string_equal(l.text, log);
}

static void test_values(void **state)
{
	(void)state;
	expect("--set a=1 --set=b=2 --set -x --set=", 0,
	       "opt --set=a=1;opt --set=b=2;opt --set=-x;opt --set=;");
	expect("--show --shard 1/2", 0, "opt --show=(null);opt --shard=1/2;");
}

static void test_order(void **state)
{
	(void)state;
	expect("a --set x b '' c", 0, "arg a;opt --set=x;arg b;arg ;arg c;");
	expect("a --bogus b", 2, "arg a;unknown --bogus;");
}

static void test_errors(void **state)
{
	(void)state;
	expect("--sho", 2, "unknown --sho;");		/* an abbreviation of --show */
	expect("--se x", 2, "unknown --se;");		/* ... of --set, with a value */
	expect("--s", 2, "unknown --s;");		/* ambiguous */
	expect("--show=1", 2, "unknown --show=1;");	/* a flag given a value */
	expect("--bogus=1", 2, "unknown --bogus=1;");
	expect("x --set", 2, "arg x;missing --set;");
	expect("--sh", 2, "unknown --sh;");		/* ambiguous, last word */
	expect("-x", 2, "unknown -x;");
	expect("-xh", 2, "unknown -xh;");		/* one word, not a cluster */
	expect("---set", 2, "unknown ---set;");
	expect("--hel", 2, "unknown --hel;");
}

static void test_dash_and_rest(void **state)
{
	struct log l = { .stop_at_arg = 0 };

	(void)state;
	expect("-", 2, "unknown -;");
	assert_int_equal(parse(&l, "usage\n", true, "- a"), 0);
	assert_string_equal(l.text, "arg -;arg a;");
	expect("a -- --set -x -", 0, "arg a;arg --set;arg -x;arg -;");
	expect("--set -- b", 0, "opt --set=--;arg b;");	/* a value first */
}

static void test_help(void **state)
{
	struct log l = { .stop_at_arg = 0 };

	(void)state;
	expect("a --help --bogus", CLI_HELP, "arg a;");
	expect("-h", CLI_HELP, "");
	expect("--bogus --help", 2, "unknown --bogus;");
	assert_int_equal(parse(&l, NULL, false, "--help"), 2);	/* no usage: unknown */
	assert_string_equal(l.text, "unknown --help;");
	assert_int_equal(cli_status(CLI_HELP), 0);
	assert_int_equal(cli_status(2), 2);
}

/* A callback's status ends the parse; the next parse starts afresh. */
static void test_stop_and_again(void **state)
{
	struct log l = { .stop_at_arg = 2 };

	(void)state;
	assert_int_equal(parse(&l, "usage\n", false, "a b --set x c"), 7);
	assert_string_equal(l.text, "arg a;arg b;");
	expect("--set y d", 0, "opt --set=y;arg d;");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_dash_and_rest),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_stop_and_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
