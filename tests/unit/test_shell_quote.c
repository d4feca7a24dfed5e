/* test_shell_quote.c - sh_quote() (io/shell_quote.h): what it prints, and
 * that a POSIX shell reads every quoted word back unchanged.
 *
 * The round trip runs `sh -c 'printf %s WORD'` on random words (bytes
 * 1..255, seed printed), so it checks the shell's reading, not our idea
 * of it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/shell_quote.h"

static char *quoted(const char *word)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	assert_true(sh_quote(f, word) >= 0);
	fclose(f);
	return buf;
}

static void test_quote_forms(void **state)
{
	(void)state;
	assert_string_equal(quoted("eth0"), "eth0");
	assert_string_equal(quoted("/sys/class/net/eth0/gro_flush_timeout"),
			    "/sys/class/net/eth0/gro_flush_timeout");
	assert_string_equal(quoted("InterruptThrottleRate=8000"), "InterruptThrottleRate=8000");
	assert_string_equal(quoted(""), "''");
	assert_string_equal(quoted("eth0;touch x"), "'eth0;touch x'");
	assert_string_equal(quoted("it's"), "'it'\\''s'");
	assert_string_equal(quoted("$(id)"), "'$(id)'");
	assert_string_equal(quoted("`id`"), "'`id`'");
	assert_string_equal(quoted("~root"), "'~root'");
	assert_string_equal(quoted("=ls"), "'=ls'");
	assert_string_equal(quoted("a b"), "'a b'");
	assert_string_equal(quoted("a\nb"), "'a\nb'");
}

/* What `sh -c 'printf %s WORD'` prints, into @out (at most @cap bytes). */
static size_t shell_reads(const char *q, char *out, size_t cap)
{
	char *script = malloc(strlen(q) + 16);
	char *argv[] = { "sh", "-c", script, NULL };
	int pipefd[2], status;
	size_t n = 0;
	ssize_t k;
	pid_t pid;

	assert_non_null(script);
	sprintf(script, "printf %%s %s", q);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		execv("/bin/sh", argv);
		_exit(127);
	}
	close(pipefd[1]);
	while (n < cap && (k = read(pipefd[0], out + n, cap - n)) > 0)
		n += (size_t)k;
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	free(script);
	return n;
}

static void test_shell_round_trip(void **state)
{
	unsigned seed = 20261201;
	char word[64], got[256];

	(void)state;
	srandom(seed);
	print_message("shell round trip: srandom(%u)\n", seed);
	for (int i = 0; i < 300; i++) {
		size_t len = (size_t)(random() % 40), n;

		for (size_t k = 0; k < len; k++) /* any byte but NUL; a '%' is data for printf %s */
			word[k] = (char)(1 + random() % 255);
		word[len] = '\0';
		n = shell_reads(quoted(word), got, sizeof(got));
		if (n != len || memcmp(got, word, len)) {
			print_error("word %d (length %zu) came back as %zu bytes\n", i, len, n);
			fail();
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_forms),
		cmocka_unit_test(test_shell_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
