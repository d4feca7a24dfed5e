/* fuzz_plot.c - libFuzzer target for the figure scripts (report/plot.h) and
 * the gnuplot literals in them (report/plot_text.h).
 *
 * Input: any bytes, cut at NUL bytes into fields: the title, two column
 * keys, then the offered load and the two text cells of each of four rows.
 * The property: plot_write() of those results either refuses them with a
 * message, or writes scripts that pass plot_text_check_script() (every
 * string single-quoted, printable UTF-8 and closed on its line; no
 * backquote, double quote, @, $, !, ; or ( outside a string) and data
 * files with no control byte but line breaks; and the literal of the whole
 * input (up to its first NUL) reads back, as gnuplot reads it, as the text
 * cleaned.  No crash, leak or undefined behaviour on the way.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1 /* open_memstream, mkdtemp */
#endif
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/plot.h"
#include "report/plot_text.h"
#include "report/sim_report.h"
#include "sim/results.h"

#define FIELDS 15

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *in_memory(const char *text, void (*fn)(FILE *, const char *), size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	if (!f)
		abort();
	fn(f, text);
	fclose(f);
	return out;
}

/* quote(text) is ' clean(text), each ' doubled, ' and nothing else. */
static void check_literal(const char *text)
{
	size_t qlen, clen, k = 0;
	char *q = in_memory(text, plot_text_quote, &qlen), *c = in_memory(text, plot_text_clean, &clen);
	char why[160];

	if (qlen < 2 || q[0] != '\'' || q[qlen - 1] != '\'' ||
	    !plot_text_check_script(q, qlen, why, sizeof(why)))
		abort();
	for (size_t i = 1; i + 1 < qlen; i++, k++) {
		if (k >= clen || q[i] != c[k] || (q[i] == '\'' && q[++i] != '\''))
			abort();
	}
	if (k != clen)
		abort();
	free(q);
	free(c);
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		abort();
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Check (when @check) and remove every file of @dir. */
static void sweep_dir(const char *dir, int check)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[4200], why[160];
		size_t n = strlen(e->d_name), len;
		char *buf;

		if (!strncmp(e->d_name, ".rxlab-plot", 11))
			abort();   /* the staging directory is always removed */
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "data"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		buf = check ? read_file(path, &len) : NULL;
		if (buf && n > 3 && !strcmp(e->d_name + n - 3, ".gp") &&
		    !plot_text_check_script(buf, len, why, sizeof(why))) {
			fprintf(stderr, "%s: %s\n", path, why);
			abort();
		}
		for (size_t i = 0; buf && n > 4 && !strcmp(e->d_name + n - 4, ".dat") && i < len; i++)
			if ((unsigned char)buf[i] < 0x20 && buf[i] != '\n')
				abort();
		free(buf);
		unlink(path);
	}
	closedir(d);
}

static void results(struct rowfile *rf, const char *const *field)
{
	const char *keys[RESULTS_CDF_N + 8], *cell[RESULTS_CDF_N + 8];
	size_t n = 0;

	rowfile_init(rf, OUT_CSV);
	keys[n++] = "offered_pps";
	keys[n++] = "forwarded_pps";
	keys[n++] = "pkts_per_irq";
	keys[n++] = "lat_p999_us";
	for (size_t q = 0; q < RESULTS_CDF_N; q++)
		keys[n++] = metrics_cdf_key(q);
	keys[n++] = field[1];
	keys[n++] = field[2];
	rowfile_set_keys(rf, keys, n);
	for (int r = 0; r < 4; r++) {
		for (size_t c = 1; c < n - 2; c++)
			cell[c] = c % 3 ? "12.5" : NULL;
		cell[0] = field[3 + 3 * r];
		cell[n - 2] = field[4 + 3 * r];
		cell[n - 1] = field[5 + 3 * r];
		rowfile_add(rf, NULL, cell);
	}
}

/* In the working directory: run.sh runs each target in a scratch one (and
 * libFuzzer leaves by _Exit after -max_total_time, without atexit). */
static char dir[] = "fuzz_plot.XXXXXX";

static void remove_dir(void)
{
	char data_dir[sizeof(dir) + 8];

	snprintf(data_dir, sizeof(data_dir), "%s/data", dir);
	sweep_dir(data_dir, 0);
	sweep_dir(dir, 0);
	rmdir(data_dir);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int made;
	char *text = malloc(size + 1), err[512], data_dir[sizeof(dir) + 8];
	const char *field[FIELDS];
	struct rowfile rf;
	size_t f = 0;

	if (!text || (!made && (!mkdtemp(dir) || atexit(remove_dir))))
		abort();
	made = 1;
	memcpy(text, data, size);
	text[size] = '\0';
	check_literal(text);
	for (size_t i = 0; i <= size && f < FIELDS; i += strlen(text + i) + 1)
		field[f++] = text + i;
	while (f < FIELDS)
		field[f++] = "";
	results(&rf, field);
	err[0] = '\0';
	if (plot_write(&rf, dir, field[0], err, sizeof(err)) && !err[0])
		abort();
	snprintf(data_dir, sizeof(data_dir), "%s/data", dir);
	sweep_dir(dir, 1);
	sweep_dir(data_dir, 1);
	rowfile_free(&rf);
	free(text);
	return 0;
}
