/* test_plot_text.c - user text in gnuplot scripts (src/cli/plot_text.c) and
 * the scripts plot writes from hostile results (src/cli/plot.c).
 *
 * The property: for any text (random bytes, biased to backquotes, $(, ', ",
 * \, line breaks, control bytes, bytes that are not UTF-8), the literal is
 * one single-quoted gnuplot string that reads back (as gnuplot reads it:
 * '' is one quote, nothing else is special) as the text with every byte that
 * is not printable UTF-8 as '?'; and every script plot_write() makes of
 * results holding such texts (in keys, cells and the title) has no
 * backquote and no double quote outside a single-quoted literal, as an
 * independent lexer here reads it, and passes plot_text_check_script().
 * The facts about gnuplot 5.4 behind this are in plot_text.h; the real
 * gnuplot runs on such files in tests/sim/plot_hostile.sh.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1	/* open_memstream, mkdtemp */
#endif

#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "report/plot.h"
#include "report/plot_text.h"
#include "report/sim_report.h"
#include "sim/results.h"
#include "rxlab/scenario.h"

#define SEED 0x9e3779b97f4a7c15ull
#define C_KEYS_MAX 32

static char *quoted(const char *text, void (*fn)(FILE *, const char *))
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	fn(f, text);
	fclose(f);
	return out;
}

static void expect_quote(const char *text, const char *want)
{
	char *got = quoted(text, plot_text_quote);

	assert_string_equal(got, want);
	free(got);
}

static void test_quote_examples(void **state)
{
	(void)state;
	expect_quote("", "''");
	expect_quote("napi", "'napi'");
	expect_quote("it's", "'it''s'");
	expect_quote("a`id`b $(id) \"q\" \\ @m !x ;", "'a`id`b $(id) \"q\" \\ @m !x ;'");
	expect_quote("x\\", "'x\\'");                      /* never ends a line */
	expect_quote("l1\nl2\r\t\x1b[0m\x7f", "'l1?l2???[0m?'");
	expect_quote("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\x88", "'\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\x88'");
	expect_quote("\xff\xfe", "'?\?'");                  /* not UTF-8 */
	expect_quote("\xc2\x85", "'?\?'");                 /* C1 control (NEL) */
	expect_quote("\xc0\xaf", "'?\?'");                  /* overlong '/' */
	expect_quote("\xed\xa0\x80", "'?\?\?'");             /* surrogate */
	expect_quote("\xf4\x90\x80\x80", "'?\?\?\?'");        /* above U+10FFFF */
	expect_quote("\xe2\x82", "'?\?'");                  /* cut short */
	expect_quote("\xe2\x82'", "'?\?'''");
}

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A random text of up to @max bytes, mostly the bytes that matter. */
static void random_text(uint64_t *s, char *buf, size_t max)
{
	static const char hot[] = "`'\"\\$()@!;#\n\r\t\x1b{}^_ ";
	size_t n = next(s) % max;

	for (size_t i = 0; i < n; i++) {
		uint64_t r = next(s);

		buf[i] = r % 3 ? hot[(r >> 8) % (sizeof(hot) - 1)] : (char)((r >> 8) % 255 + 1);
	}
	buf[n] = '\0';
}

/* The literal @q as gnuplot reads it: one quote, the text ('' is '), one
 * quote, nothing after; the text into @text. */
static void read_literal(const char *q, char *text)
{
	size_t k = 0;

	assert_int_equal(q[0], '\'');
	for (q++; !(q[0] == '\'' && q[1] != '\''); q++) {
		assert_true(q[0] != '\0' && q[0] != '\n');
		text[k++] = q[0];
		q += q[0] == '\'';
	}
	assert_int_equal(q[1], '\0');
	text[k] = '\0';
}

static void test_quote_property(void **state)
{
	uint64_t s = SEED;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		char text[64], back[256], why[160], script[512];
		char *q, *c;

		random_text(&s, text, sizeof(text));
		q = quoted(text, plot_text_quote);
		c = quoted(text, plot_text_clean);
		read_literal(q, back);
		assert_string_equal(back, c);
		for (const unsigned char *p = (const unsigned char *)c; *p; p++)
			assert_true(*p >= 0x20 && *p != 0x7f);
		snprintf(script, sizeof(script), "set title %s noenhanced\n", q);
		if (!plot_text_check_script(script, strlen(script), why, sizeof(why)))
			fail_msg("seed %llx, text %d: %s in %s", (unsigned long long)SEED, i, why, script);
		free(q);
		free(c);
	}
}

static void expect_refused_n(const char *script, size_t len)
{
	char why[160] = "";

	assert_false(plot_text_check_script(script, len, why, sizeof(why)));
	assert_true(why[0] != '\0');
}

static void expect_refused(const char *script)
{
	char why[160] = "";

	assert_false(plot_text_check_script(script, strlen(script), why, sizeof(why)));
	assert_true(why[0] != '\0');
}

static void test_check_refuses(void **state)
{
	static const char good[] = "# x.gp - a figure (kpps)\nreset\nset datafile missing '?'\n"
				   "set xrange [0.8:1.25e+06]\nplot 'data/a.dat' using 1:2 title "
				   "'it''s `id`' noenhanced, \\\n  x with lines linecolor 'gray'\n";
	char why[160];

	(void)state;
	assert_true(plot_text_check_script(good, strlen(good), why, sizeof(why)));
	expect_refused("set title \"a\"\n");
	expect_refused("set title 'a' . `id`\n");
	expect_refused("set title 'open\n");
	expect_refused("set title 'a\nb'\n");
	expect_refused("set title 'a\\\nb'\n");
	expect_refused("set title '\xff'\n");
	expect_refused("set title '\x1b'\n");
	expect_refused("plot @m\n");
	expect_refused("!id\n");
	expect_refused("print system('id')\n");
	expect_refused("set title 'a'; x = 1\n");
	expect_refused("set output $x\n");
	expect_refused("set title 'a' \\ noenhanced\n");
	expect_refused("# `id`\n");
	expect_refused_n("x\0y\n", 4);
	/* a parenthesis: only a list of numbers closing a tics line */
	assert_true(plot_text_check_script("set xtics (2, 5, 10, 1e+06)\nset ytics (0.5)\n", 44,
					   why, sizeof(why)));
	expect_refused("plot sin(x)\n");
	expect_refused("set xtics (1, x)\n");
	expect_refused("set xtics (1, 2) x\n");
	expect_refused("set xtics (1, 2\n");
	expect_refused("set xtics (1, 2)");
	expect_refused("set xtics ('a' 1)\n");
	expect_refused("set ztics (1)\n");
	expect_refused("set xtics (1) (2)\n");
	expect_refused(" set xtics (1)\n");
}

/* ---- scripts of hostile results --------------------------------------------- */

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;

	assert_non_null(f);
	*len = 0;
	for (;;) {
		if (*len == cap)
			buf = realloc(buf, cap = cap * 2 + 4096);
		assert_non_null(buf);
		size_t n = fread(buf + *len, 1, cap - *len, f);
		if (n == 0)
			break;
		*len += n;
	}
	fclose(f);
	return buf;
}

/* An independent reading of a script: outside '...' (where '' is a quote)
 * and # comments, no backquote, double quote or '@'; no string spans lines. */
static void lex_script(const char *s, size_t len, const char *path)
{
	bool in = false, comment = false;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (in && c == '\'' && i + 1 < len && s[i + 1] == '\'')
			i++;
		else if (c == '\'' && !comment)
			in = !in;
		else if (c == '\n') {
			if (in)
				fail_msg("%s: a string spans a line at byte %zu", path, i);
			comment = false;
		} else if (!in && c == '#')
			comment = true;
		else if (!in && (c == '`' || (!comment && (c == '"' || c == '@'))))
			fail_msg("%s: '%c' outside a string at byte %zu", path, c, i);
	}
	assert_false(in);
}

static void check_scripts(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[4096], why[160];
		size_t len, l = strlen(e->d_name);
		char *buf;

		if (l < 4 || strcmp(e->d_name + l - 3, ".gp"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		buf = read_all(path, &len);
		lex_script(buf, len, path);
		if (!plot_text_check_script(buf, len, why, sizeof(why)))
			fail_msg("%s: %s", path, why);
		free(buf);
		n++;
	}
	closedir(d);
	assert_true(n >= 6);
}

static void rm_tree(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);   /* mkdtemp's name: no quote */
	assert_int_equal(system(cmd), 0);
}

/* Results of 2 series x 2 loads whose text cells, a key and the title are
 * random hostile texts. */
static void hostile_rows(struct rowfile *rf, uint64_t *s, char *title, size_t tlen)
{
	const char *keys[C_KEYS_MAX];
	char key[64], text[4][64];
	size_t n = 0;

	rowfile_init(rf, OUT_CSV);
	keys[n++] = "offered_pps";
	keys[n++] = "forwarded_pps";
	keys[n++] = "rx_irqs_per_s";
	keys[n++] = "pkts_per_irq";
	keys[n++] = "lat_p999_us";
	for (size_t q = 0; q < RESULTS_CDF_N; q++)
		keys[n++] = metrics_cdf_key(q);
	random_text(s, key, sizeof(key));
	keys[n++] = key;
	keys[n++] = "rxpath";
	rowfile_set_keys(rf, keys, n);
	for (int t = 0; t < 4; t++)
		random_text(s, text[t], sizeof(text[t]));
	for (int r = 0; r < 4; r++) {
		const char *cell[C_KEYS_MAX];
		char load[16];

		snprintf(load, sizeof(load), "%d", (r % 2 + 1) * 50000);
		for (size_t c = 0; c < n; c++)
			cell[c] = c < n - 2 ? (c == 0 ? load : "12.5") : text[(c == n - 1) * 2 + r / 2];
		rowfile_add(rf, NULL, cell);
	}
	random_text(s, title, tlen);
}

static void test_scripts_of_hostile_results(void **state)
{
	uint64_t s = SEED;

	(void)state;
	for (int i = 0; i < 60; i++) {
		char dir[] = "/tmp/test_plot_text.XXXXXX", title[64], err[512];
		struct rowfile rf;
		int rc;

		assert_non_null(mkdtemp(dir));
		hostile_rows(&rf, &s, title, sizeof(title));
		rc = plot_write(&rf, dir, title, err, sizeof(err));
		if (rc)
			fail_msg("seed %llx, results %d: exit %d: %s", (unsigned long long)SEED, i, rc,
				 err);
		check_scripts(dir);
		rowfile_free(&rf);
		rm_tree(dir);
	}
}

/* A symbolic link planted at a figure's name is replaced; its target is
 * not written. */
static void test_link_in_dir_not_followed(void **state)
{
	char dir[] = "/tmp/test_plot_text.XXXXXX", victim[4200], link[4200], err[512], *buf;
	uint64_t s = SEED;
	struct rowfile rf;
	struct stat st;
	FILE *f;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(link, sizeof(link), "%s/figs", dir);
	assert_int_equal(mkdir(link, 0700), 0);
	snprintf(link, sizeof(link), "%s/figs/throughput.gp", dir);
	f = fopen(victim, "w");
	assert_non_null(f);
	fputs("precious\n", f);
	fclose(f);
	assert_int_equal(symlink(victim, link), 0);
	hostile_rows(&rf, &s, err, 8);
	snprintf(link, sizeof(link), "%s/figs", dir);
	assert_int_equal(plot_write(&rf, link, "t", err, sizeof(err)), 0);
	buf = read_all(victim, &len);
	assert_true(len == 9 && !memcmp(buf, "precious\n", 9));
	free(buf);
	snprintf(link, sizeof(link), "%s/figs/throughput.gp", dir);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	rowfile_free(&rf);
	rm_tree(dir);
}

/* plot.c reaches the simulator's results, which call back into
 * cli/scenario_load.c: naming it here makes the static link pull it in. */
static int (*const volatile link_scenario_load)(const struct scenario *, const char *) =
	scenario_nic_index;

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_examples),
		cmocka_unit_test(test_quote_property),
		cmocka_unit_test(test_check_refuses),
		cmocka_unit_test(test_scripts_of_hostile_results),
		cmocka_unit_test(test_link_in_dir_not_followed),
	};

	(void)link_scenario_load;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
