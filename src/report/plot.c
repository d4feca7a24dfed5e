/* plot.c - gnuplot figures of a sweep (see plot.h).
 *
 * Roadmap: the columns of the figures; series (which rows make one line);
 * files (built in memory, written to a staging directory); data files;
 * scripts (every text through plot_text.h); the figure directory; running
 * gnuplot; `rxlab plot`.
 */
#define _POSIX_C_SOURCE 200809L
#include "report/plot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/plot_layout.h"
#include "report/plot_text.h"
#include "model/units.h"
#include "report/sim_report.h"
#include "rxlab/sim.h"

#define MAX_SERIES 64
#define MAX_CDF_LINES 6

/* Metric columns the figures use; -1 when the file lacks one. */
enum fig_col {
	C_OFFERED, C_FORWARDED, C_DELIVERED, C_RX_IRQS, C_PKTS_IRQ, C_HARDIRQ, C_SOFTIRQ,
	C_SYSTEM, C_USER, C_P50, C_P99, C_P999, C_N
};

static const char *const fig_keys[C_N] = {
	"offered_pps", "forwarded_pps", "delivered_pps", "rx_irqs_per_s", "pkts_per_irq",
	"cpu_hardirq_pct", "cpu_softirq_pct", "cpu_system_pct", "cpu_user_pct", "lat_p50_us",
	"lat_p99_us", "lat_p999_us",
};

struct series {
	char label[160];         /* legend: "napi", "rxpath=napi, rx-usecs=50us" */
	char file[64];           /* file name part: "napi", "napi_50us" */
	size_t *rows, n;         /* rows of rf, by offered load */
};

struct plot {
	const struct rowfile *rf;
	const char *dir, *title;
	int col[C_N], cdf[RESULTS_CDF_N];
	bool has_cdf, log_x;
	int x_col;               /* the x axis: -1 offered load, else an input column */
	enum unit_kind x_kind;   /* ... whose values are read as this kind */
	double x_scale;          /* x = value / x_scale (offered: pps / 1000) */
	char x_label[160];       /* "offered load (kpps)", "nic.eth0.rx-usecs (us)" */
	double x_lo, x_hi;       /* range of x */
	int series_col[16];      /* the input columns that tell the lines apart */
	size_t n_series_col;
	struct series s[MAX_SERIES];
	size_t n_s;
	char script[2 * MAX_SERIES + 4][160];   /* scripts written, in drawing order */
	size_t n_script;
	char *err;
	size_t errlen;
	char *buf;               /* the file being written (open_in) */
	size_t buf_len;
	int dir_fd, data_fd;     /* DIR and DIR/data; -1 until opened */
	int stage_fd;            /* the staging directory, DIR/stage (see "files") */
	char stage[64];
	bool ran;                /* gnuplot ran: its scripts are kept, whatever it did */
};

/* ---- values ---------------------------------------------------------------- */

static double cell_num(const struct plot *pl, size_t r, int col)
{
	const char *v = col >= 0 ? pl->rf->row[r].cell[col] : NULL;
	char *end;
	double x;

	if (!v)
		return NAN;
	x = strtod(v, &end);
	return *end ? NAN : x;
}

static const char *cell_str(const struct plot *pl, size_t r, int col)
{
	const char *v = pl->rf->row[r].cell[col];

	return v ? v : "";
}

/* Row @r's position on the x axis (NaN if its value does not read). */
static double x_of(const struct plot *pl, size_t r)
{
	uint64_t v;

	if (pl->x_col < 0)
		return cell_num(pl, r, pl->col[C_OFFERED]) / pl->x_scale;
	if (unit_parse(pl->x_kind, cell_str(pl, r, pl->x_col), &v, NULL, 0) != UNIT_OK)
		return NAN;
	return (double)v / pl->x_scale;
}

/* ---- series ---------------------------------------------------------------- */

static bool varies(const struct plot *pl, int col)
{
	for (size_t r = 1; r < pl->rf->nrows; r++)
		if (strcmp(cell_str(pl, r, col), cell_str(pl, 0, col)))
			return true;
	return false;
}

/* Rows keyed by the other varying inputs, for moves_load(). */
struct keyed {
	char *others;            /* the other inputs' values, joined by '\x1f' */
	const char *val;         /* this column's value */
	double offered;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->others, y->others);

	return c ? c : strcmp(x->val, y->val);
}

static char *others_key(const struct plot *pl, size_t r, const int *in, size_t n_in, int col)
{
	size_t len = 1;
	char *k;

	for (size_t i = 0; i < n_in; i++)
		len += strlen(cell_str(pl, r, in[i])) + 1;
	k = calloc(len, 1);
	for (size_t i = 0; k && i < n_in; i++)
		if (in[i] != col) {
			strcat(k, cell_str(pl, r, in[i]));
			strcat(k, "\x1f");
		}
	return k;
}

/* Column @col moves the offered load: two rows equal in every other varying
 * input @in[] but not in @col have different offered loads.  Sorted by the
 * other inputs, then by @col, such rows are neighbours. */
static bool moves_load(const struct plot *pl, const int *in, size_t n_in, int col)
{
	size_t n = pl->rf->nrows;
	struct keyed *k = calloc(n, sizeof(*k));
	bool moves = false;

	for (size_t r = 0; k && r < n; r++)
		k[r] = (struct keyed){ others_key(pl, r, in, n_in, col), cell_str(pl, r, col),
				       cell_num(pl, r, pl->col[C_OFFERED]) };
	for (size_t r = 0; k && r < n; r++)
		if (!k[r].others) {
			fprintf(stderr, "rxlab: out of memory\n");
			abort();
		}
	if (k)
		qsort(k, n, sizeof(*k), by_key);
	for (size_t r = 1; k && r < n && !moves; r++)
		moves = !strcmp(k[r].others, k[r - 1].others) && strcmp(k[r].val, k[r - 1].val) &&
			k[r].offered != k[r - 1].offered;
	for (size_t r = 0; k && r < n; r++)
		free(k[r].others);
	free(k);
	return moves;
}

/* The inputs that vary, other than those that move the load; without any,
 * the rxpath column when it varies (the default job's table). */
static void pick_series_cols(struct plot *pl)
{
	int in[16];
	size_t n_in = 0;

	for (size_t c = 0; c < pl->rf->ncols && n_in < 16; c++)
		if (!metrics_is_output(pl->rf->key[c]) && varies(pl, (int)c) && (int)c != pl->x_col)
			in[n_in++] = (int)c;
	for (size_t i = 0; i < n_in; i++)
		if (!moves_load(pl, in, n_in, in[i]))
			pl->series_col[pl->n_series_col++] = in[i];
	if (pl->n_series_col == 0) {
		int c = rowfile_col(pl->rf, "rxpath");

		if (c >= 0 && varies(pl, c))
			pl->series_col[pl->n_series_col++] = c;
	}
}

/* Column @c's values all read as @kind. */
static bool reads_as(const struct plot *pl, int c, enum unit_kind kind)
{
	uint64_t v;

	for (size_t r = 0; r < pl->rf->nrows; r++)
		if (unit_parse(kind, cell_str(pl, r, c), &v, NULL, 0) != UNIT_OK)
			return false;
	return true;
}

/* The x axis: the offered load; when that is the same on every row, the
 * first varying input whose values all read as one kind of quantity (a
 * sweep of rx-usecs at one rate is drawn against rx-usecs). */
static void choose_x(struct plot *pl)
{
	static const struct {
		enum unit_kind kind;
		double scale;
		const char *unit;
	} kinds[] = {
		{ UNIT_PPS, 1e3, " (kpps)" }, { UNIT_BPS, 1e6, " (Mbit/s)" },
		{ UNIT_TIME_NS, 1e3, " (us)" }, { UNIT_COUNT, 1, "" }, { UNIT_BYTES, 1, " (bytes)" },
	};

	pl->x_col = -1;
	pl->x_scale = 1e3;
	snprintf(pl->x_label, sizeof(pl->x_label), "offered load (kpps)");
	if (varies(pl, pl->col[C_OFFERED]))
		return;
	for (size_t c = 0; c < pl->rf->ncols; c++) {
		if (metrics_is_output(pl->rf->key[c]) || !varies(pl, (int)c))
			continue;
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (reads_as(pl, (int)c, kinds[k].kind)) {
				pl->x_col = (int)c;
				pl->x_kind = kinds[k].kind;
				pl->x_scale = kinds[k].scale;
				snprintf(pl->x_label, sizeof(pl->x_label), "%s%s", pl->rf->key[c],
					 kinds[k].unit);
				return;
			}
	}
}

static void series_names(const struct plot *pl, size_t r, char *label, size_t llen,
			  char *file, size_t flen)
{
	size_t lo = 0, fo = 0;

	label[0] = file[0] = '\0';
	for (size_t i = 0; i < pl->n_series_col; i++) {
		const char *key = pl->rf->key[pl->series_col[i]], *dot = strrchr(key, '.');
		const char *v = cell_str(pl, r, pl->series_col[i]);

		if (pl->n_series_col == 1)
			lo += (size_t)snprintf(label + lo, llen - lo, "%s", v);
		else
			lo += (size_t)snprintf(label + lo, llen - lo, "%s%s=%s", i ? ", " : "",
					       dot ? dot + 1 : key, v);
		lo = lo < llen ? lo : llen - 1;
		fo += (size_t)snprintf(file + fo, flen - fo, "%s%s", i ? "_" : "", v);
		fo = fo < flen ? fo : flen - 1;
	}
	for (char *p = file; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-", *p))
			*p = '_';
	if (file[0] == '.')	/* never a hidden file, never like the staging folder */
		file[0] = '_';
	if (!file[0]) {
		int c = rowfile_col(pl->rf, "rxpath");

		snprintf(file, flen, "all");
		snprintf(label, llen, "%s", c >= 0 ? cell_str(pl, r, c) : pl->title);
	}
}

/* Series files @a and @b would collide: the same name, or one's data the
 * other's CDF data (data/cdf-X.dat of series "X" and "cdf-X"). */
static bool same_files(const char *a, const char *b)
{
	return !strcmp(a, b) || (!strncmp(a, "cdf-", 4) && !strcmp(a + 4, b)) ||
	       (!strncmp(b, "cdf-", 4) && !strcmp(b + 4, a));
}

/* Make file names unique: "x", "x-2", "x-3". */
static void unique_file(struct plot *pl, struct series *s)
{
	char base[sizeof(s->file)];

	memcpy(base, s->file, sizeof(base));
	for (int n = 2;; n++) {
		bool taken = false;

		for (size_t i = 0; i < pl->n_s && !taken; i++)
			taken = &pl->s[i] != s && same_files(pl->s[i].file, s->file);
		if (!taken)
			return;
		snprintf(s->file, sizeof(s->file), "%.50s-%d", base, n);
	}
}

static const struct plot *sort_pl;

static int by_load(const void *a, const void *b)
{
	size_t ra = *(const size_t *)a, rb = *(const size_t *)b;
	double x = x_of(sort_pl, ra), y = x_of(sort_pl, rb);

	return x < y ? -1 : x > y ? 1 : ra < rb ? -1 : ra > rb;
}

static int group_series(struct plot *pl)
{
	char label[160], file[64];

	for (size_t r = 0; r < pl->rf->nrows; r++) {
		size_t i = 0;

		series_names(pl, r, label, sizeof(label), file, sizeof(file));
		while (i < pl->n_s && strcmp(pl->s[i].label, label))
			i++;
		if (i == MAX_SERIES) {
			snprintf(pl->err, pl->errlen, "more than %d lines per figure: vary fewer keys "
				 "besides the load", MAX_SERIES);
			return 2;
		}
		if (i == pl->n_s) {
			snprintf(pl->s[i].label, sizeof(pl->s[i].label), "%s", label);
			snprintf(pl->s[i].file, sizeof(pl->s[i].file), "%s", file);
			pl->s[i].rows = calloc(pl->rf->nrows, sizeof(size_t));
			if (!pl->s[i].rows) {
				snprintf(pl->err, pl->errlen, "out of memory");
				return 1;
			}
			pl->n_s++;
			unique_file(pl, &pl->s[i]);
		}
		pl->s[i].rows[pl->s[i].n++] = r;
	}
	sort_pl = pl;
	for (size_t i = 0; i < pl->n_s; i++)
		qsort(pl->s[i].rows, pl->s[i].n, sizeof(size_t), by_load);
	return 0;
}

/* ---- files ------------------------------------------------------------------- */

/* Files are never opened by their name in DIR: a symbolic link, a FIFO or a
 * hard link planted there would have rxlab (or gnuplot, which opens its
 * outputs by name) write somewhere else.  Every file is built in memory,
 * checked (a script, plot_text.h), then created exclusively in the staging
 * directory, a fresh directory of DIR that only this process may write;
 * gnuplot runs there; then each file is renamed into DIR or DIR/data, which
 * replaces whatever has that name (a link itself, not its target) and
 * follows nothing.  DIR itself is the user's choice and may be a link;
 * DIR/data may not. */

static FILE *open_in(struct plot *pl, const char *name)
{
	FILE *f = open_memstream(&pl->buf, &pl->buf_len);

	if (!f)
		snprintf(pl->err, pl->errlen, "cannot create %s/%s: %s", pl->dir, name,
			 strerror(errno));
	return f;
}

static int write_staged(struct plot *pl, const char *name)
{
	int fd = openat(pl->stage_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0666), e = 0;
	size_t off = 0;

	while (fd >= 0 && off < pl->buf_len && !e) {
		ssize_t n = write(fd, pl->buf + off, pl->buf_len - off);

		e = n < 0 ? errno : n == 0 ? EIO : 0;
		off += n > 0 ? (size_t)n : 0;
	}
	if (fd < 0 || (close(fd) && !e) || e) {
		snprintf(pl->err, pl->errlen, "cannot write %s/%s: %s", pl->dir, name,
			 strerror(e ? e : errno));
		return 2;
	}
	return 0;
}

/* Check and write @name; a script (*.gp) joins the list gnuplot draws. */
static int close_in(struct plot *pl, FILE *f, const char *name)
{
	size_t len = strlen(name);
	bool script = len > 3 && !strcmp(name + len - 3, ".gp");
	char why[160];
	int rc = 0;

	if (ferror(f) | fclose(f))
		rc = (snprintf(pl->err, pl->errlen, "cannot write %s/%s: out of memory", pl->dir,
			       name), 2);
	else if (script && !plot_text_check_script(pl->buf, pl->buf_len, why, sizeof(why)))
		rc = (snprintf(pl->err, pl->errlen, "internal error: %s/%s would not be safe to run "
			       "(%s): not drawn", pl->dir, name, why), 1);
	else
		rc = write_staged(pl, name);
	free(pl->buf);
	pl->buf = NULL;
	if (!rc && script && pl->n_script < 2 * MAX_SERIES + 4)
		snprintf(pl->script[pl->n_script++], sizeof(pl->script[0]), "%s", name);
	return rc;
}

/* ---- data files ------------------------------------------------------------ */

static void put(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.6g", v);
	else
		fputs(" ?", f);
}

static double or0(double v)
{
	return isfinite(v) ? v : 0;
}

/* The columns of data/SERIES.dat, from 1. */
enum dat_col {
	D_X = 1, D_OUTPUT, D_RX_IRQS, D_PKTS_IRQ, D_HARDIRQ, D_SOFTIRQ, D_SYSTEM, D_USER, D_P50,
	D_P99, D_P999
};

/* Row @r's value in column @col (D_OUTPUT .. D_P999) of data/SERIES.dat:
 * output in kpps, the CPU parts stacked (hardirq, + softirq, ...). */
static double dat_value(const struct plot *pl, size_t r, int col)
{
	double cpu = 0;

	if (col == D_OUTPUT)
		return (or0(cell_num(pl, r, pl->col[C_FORWARDED])) +
			or0(cell_num(pl, r, pl->col[C_DELIVERED]))) / 1e3;
	if (col == D_RX_IRQS || col == D_PKTS_IRQ)
		return cell_num(pl, r, pl->col[C_RX_IRQS + col - D_RX_IRQS]);
	if (col >= D_P50)
		return cell_num(pl, r, pl->col[C_P50 + col - D_P50]);
	for (int c = C_HARDIRQ; c <= C_HARDIRQ + col - D_HARDIRQ; c++)
		cpu += or0(cell_num(pl, r, pl->col[c]));
	return cpu;
}

/* data/SERIES.dat: one line per point, columns as in the header comment. */
static int write_series(struct plot *pl, const struct series *s)
{
	char name[128];
	FILE *f;

	snprintf(name, sizeof(name), "data/%s.dat", s->file);
	if (!(f = open_in(pl, name)))
		return 2;
	fputs("# ", f);
	plot_text_clean(f, s->label);
	fputs("\n# 1 x: ", f);
	plot_text_clean(f, pl->x_label);
	fputs("; 2 output_kpps 3 rx_irqs_per_s 4 pkts_per_irq 5 hardirq_pct 6 +softirq "
	      "7 +system 8 +user 9 p50_us 10 p99_us 11 p999_us\n", f);
	for (size_t i = 0; i < s->n; i++) {
		put(f, x_of(pl, s->rows[i]));
		for (int c = D_OUTPUT; c <= D_P999; c++)
			put(f, dat_value(pl, s->rows[i], c));
		fputc('\n', f);
	}
	return close_in(pl, f, name);
}

/* Rows of @s drawn as CDF lines: up to MAX_CDF_LINES, spread over the loads. */
static size_t cdf_rows(const struct plot *pl, const struct series *s, size_t *pick)
{
	size_t with[4096], n = 0, k = 0;

	for (size_t i = 0; i < s->n && n < 4096; i++)
		if (isfinite(cell_num(pl, s->rows[i], pl->cdf[RESULTS_CDF_N - 1])))
			with[n++] = s->rows[i];
	for (size_t j = 0; j < MAX_CDF_LINES && j < n; j++) {
		size_t r = with[n <= MAX_CDF_LINES ? j : j * (n - 1) / (MAX_CDF_LINES - 1)];

		if (k == 0 || pick[k - 1] != r)
			pick[k++] = r;
	}
	return k;
}

/* data/cdf-SERIES.dat: one block per load (index 0, 1, ...). */
static int write_cdf(struct plot *pl, const struct series *s, size_t *pick, size_t n)
{
	char name[128];
	FILE *f;

	snprintf(name, sizeof(name), "data/cdf-%s.dat", s->file);
	if (!(f = open_in(pl, name)))
		return 2;
	fputs("# ", f);
	plot_text_clean(f, s->label);
	fputs(": latency (us) and fraction of packets at or below it\n", f);
	for (size_t j = 0; j < n; j++) {
		fprintf(f, "%s# offered %.0f pps\n", j ? "\n\n" : "",
			cell_num(pl, pick[j], pl->col[C_OFFERED]));
		for (size_t q = 0; q < RESULTS_CDF_N; q++) {
			put(f, cell_num(pl, pick[j], pl->cdf[q]));
			put(f, results_cdf_q[q]);
			fputc('\n', f);
		}
	}
	return close_in(pl, f, name);
}

/* ---- scripts --------------------------------------------------------------- */

/* Every string of a script, user text or not, is written by
 * plot_text_quote() (plot_text.h): a single-quoted literal in which gnuplot
 * expands nothing; every text also says noenhanced.
 *
 * Every axis range is set here (plot_layout.h): the data's, rounded, so
 * that the ideal line of the throughput figure cannot stretch the y axis;
 * and the key goes inside the plot area, in a corner the data leave free. */

/* The font, canvas and line width of every figure: 800 pixels wide, with
 * text of 12 points, readable as it is drawn. */
#define GP_SIZE "size 800,560"
#define GP_FONT "Sans,12"
#define GP_LW "linewidth 1.5"

/* " title TEXT noenhanced" of a line of a plot. */
static void gp_title(FILE *f, const char *text)
{
	fputs(" title ", f);
	plot_text_quote(f, text);
	fputs(" noenhanced", f);
}

/* "set WHAT TEXT noenhanced" */
static void gp_set_text(FILE *f, const char *what, const char *text)
{
	fprintf(f, "set %s ", what);
	plot_text_quote(f, text);
	fputs(" noenhanced\n", f);
}

/* @sep then "'data/PREFIXFILE.dat'": a data file of the plot command. */
static void gp_data(FILE *f, const char *sep, const char *prefix, const char *file)
{
	char path[128];

	snprintf(path, sizeof(path), "data/%s%s.dat", prefix, file);
	fputs(sep, f);
	plot_text_quote(f, path);
}

/* Characters of @s (UTF-8: the bytes that do not continue a character). */
static size_t text_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The key of a figure: its entries and their widest title. */
static void key_entry(struct layout_key *k, const char *title)
{
	size_t n = text_chars(title);

	k->entries++;
	k->title_chars = n > k->title_chars ? n : k->title_chars;
}

/* A title above the key's entries (none when @title is ""). */
static void key_title(struct layout_key *k, const char *title)
{
	size_t n = text_chars(title);

	k->title_rows = *title != '\0';
	k->head_chars = n;
}

/* The name of the one input that tells the lines apart, each part of a
 * linked key without its prefix ("rx-frames+rx-frames-irq" for
 * nic.eth0.rx-frames+nic.eth0.rx-frames-irq), into @buf; "" with none or
 * several (their labels then say key=value). */
static const char *series_name(const struct plot *pl, char *buf, size_t len)
{
	const char *key = pl->n_series_col == 1 ? pl->rf->key[pl->series_col[0]] : "";
	size_t o = 0;

	buf[0] = '\0';
	while (*key && o + 1 < len) {
		size_t n = strcspn(key, "+");
		const char *part = key, *dot = NULL;

		for (const char *p = key; p < key + n; p++)
			dot = *p == '.' ? p : dot;
		part = dot ? dot + 1 : key;
		o += (size_t)snprintf(buf + o, len - o, "%s%.*s", o ? "+" : "",
				      (int)(key + n - part), part);
		key += n + (key[n] == '+');
	}
	return buf;
}

/* "set title 'TITLE: NAME=LABEL'" for a figure of one series. */
static void gp_series_title(FILE *f, const struct plot *pl, const struct series *s)
{
	char t[512], name[160];

	if (*series_name(pl, name, sizeof(name)))
		snprintf(t, sizeof(t), "%s: %s=%s", pl->title, name, s->label);
	else
		snprintf(t, sizeof(t), "%s: %s", pl->title, s->label);
	gp_set_text(f, "title", t);
}

/* Header of a script: what it draws and the settings of every figure. */
static void gp_head(const struct plot *pl, FILE *f, const char *name, const char *what,
		    const char *ylabel)
{
	fprintf(f, "# %s.gp - %s, drawn by rxlab plot from data/*.dat\n"
		"# gnuplot %s.gp writes %s.png and %s.svg\n"
		"reset\nset datafile missing '?'\nset grid\nset rmargin 5\n", name, what, name, name,
		name);
	gp_set_text(f, "title", pl->title);
	gp_set_text(f, "xlabel", pl->x_label);
	gp_set_text(f, "ylabel", ylabel);
}

/* The x axis of the figures against the load: the loads' range (log or
 * linear, see log_axis()), from 0 when @from0 (a linear axis then); a
 * single value with room either side; none when no load reads (autoscale). */
static struct layout_axis load_axis(const struct plot *pl, bool from0)
{
	struct layout_axis a = { pl->x_lo, pl->x_hi, pl->log_x && !from0 };

	if (from0)
		a.lo = 0;
	else if (a.lo > 0 && a.hi <= a.lo * 1.0001) {
		a.lo *= 0.8;
		a.hi *= 1.25;
	}
	return a;
}

/* The tics of a log axis (layout_log_tics()): gnuplot labels only the
 * powers of ten, too few on an axis of a decade or two. */
static void gp_log_tics(FILE *f, char axis, const struct layout_axis *a)
{
	double t[32];
	size_t n = layout_log_tics(a, t, 32);

	if (n < 2)
		return;
	fprintf(f, "set %ctics (", axis);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%.6g", i ? ", " : "", t[i]);
	fputs(")\n", f);
}

/* "set logscale", "set range" and the tics of axis @axis. */
static void gp_axis(FILE *f, char axis, const struct layout_axis *a)
{
	if (a->log)
		fprintf(f, "set logscale %c\n", axis);
	if (a->hi > a->lo && isfinite(a->lo) && isfinite(a->hi))
		fprintf(f, "set %crange [%.6g:%.6g]\n", axis, a->lo, a->hi);
	else
		fprintf(f, "set autoscale %c\n", axis);
	if (a->log)
		gp_log_tics(f, axis, a);
}

/* The axes of @l and its key @k, in the corner plot_layout chooses; the y
 * range grows when the key needs room above the data, and then an axis
 * of a fixed meaning (@y_max: 1, 100) keeps its tics below that value. */
static void gp_frame(FILE *f, struct layout *l, const struct layout_key *k, double y_max,
		     const char *title)
{
	static const char *const where[] = {
		[LAYOUT_TOP_LEFT] = "inside top left", [LAYOUT_TOP_RIGHT] = "inside top right",
		[LAYOUT_BOTTOM_LEFT] = "inside bottom left",
		[LAYOUT_BOTTOM_RIGHT] = "inside bottom right", [LAYOUT_AT] = "",
		[LAYOUT_OUTSIDE] = "outside right top",
	};
	struct layout_place p = layout_key_place(l, k);
	bool raised = p.y_hi != l->y.hi;

	l->y.hi = raised && y_max == 0 && !l->y.log ? layout_round_up(p.y_hi) : p.y_hi;
	gp_axis(f, 'x', &l->x);
	gp_axis(f, 'y', &l->y);
	if (raised && y_max > 0)
		fprintf(f, "set ytics 0, %.6g, %.6g\n", y_max / 5, y_max);
	if (p.corner == LAYOUT_AT)
		fprintf(f, "set key at graph %.3f, graph %.3f left top opaque", p.at_x, p.at_y);
	else
		fprintf(f, "set key %s opaque", where[p.corner]);
	if (k->cols > 1)
		fprintf(f, " maxrows %zu", (k->entries + k->cols - 1) / k->cols);
	if (title && *title) {
		fputs(" title ", f);
		plot_text_quote(f, title);
	}
	fputs(" noenhanced\n", f);
}

/* "set output 'NAME.EXT'" */
static void gp_output(FILE *f, const char *name, const char *ext)
{
	char out[160];

	snprintf(out, sizeof(out), "%s.%s", name, ext);
	fputs("set output ", f);
	plot_text_quote(f, out);
	fputc('\n', f);
}

/* The plot command is written once and drawn twice: PNG, then SVG. */
static void gp_plot(FILE *f, const char *name)
{
	fputs("set terminal pngcairo " GP_SIZE " font ", f);
	plot_text_quote(f, GP_FONT);
	fputs(" " GP_LW " noenhanced\n", f);
	gp_output(f, name, "png");
	fputs("plot ", f);
}

static void gp_tail(FILE *f, const char *name)
{
	fputs("set terminal svg " GP_SIZE " dynamic font ", f);
	plot_text_quote(f, GP_FONT);
	fputs(" " GP_LW " noenhanced\n", f);
	gp_output(f, name, "svg");
	fputs("replot\nset output\n", f);
}

/* The line of column @col of series @s in @l (@fill: and what is below it). */
static void lay_series(const struct plot *pl, struct layout *l, const struct series *s, int col,
		       bool fill)
{
	double *x = calloc(s->n + 1, sizeof(*x)), *y = calloc(s->n + 1, sizeof(*y));

	for (size_t i = 0; x && y && i < s->n; i++) {
		x[i] = x_of(pl, s->rows[i]);
		y[i] = dat_value(pl, s->rows[i], col);
	}
	if (x && y)
		layout_line(l, x, y, s->n, fill);
	free(x);
	free(y);
}

/* Smallest and largest value (> 0 when @pos) of columns [@c0, @c1] of
 * every series. */
static void dat_range(const struct plot *pl, int c0, int c1, bool pos, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < pl->n_s; i++)
		for (size_t j = 0; j < pl->s[i].n; j++)
			for (int c = c0; c <= c1; c++) {
				double v = dat_value(pl, pl->s[i].rows[j], c);

				if (isfinite(v) && (!pos || v > 0)) {
					*lo = fmin(*lo, v);
					*hi = fmax(*hi, v);
				}
			}
}

/* The y axis of columns [@c0, @c1]: from 0 to a round number at least 2%
 * above the largest value (a line at the maximum stays off the frame), or
 * log. */
static struct layout_axis dat_axis(const struct plot *pl, int c0, int c1, bool log)
{
	double lo, hi;

	dat_range(pl, c0, c1, log, &lo, &hi);
	if (log)
		return isfinite(lo) ? layout_log_axis(lo, hi) : (struct layout_axis){ 1, 10, true };
	return (struct layout_axis){ 0, layout_round_up(hi * 1.02), false };	/* off the border */
}

/* Values @x and @y are the same to within 1% (both missing too): lines
 * through them lie on each other (on a log axis less than a pixel apart). */
static bool same_value(double x, double y)
{
	return isfinite(x) == isfinite(y) &&
	       (!isfinite(x) || fabs(x - y) <= 0.01 * fmax(fabs(x), fabs(y)));
}

/* Series @a and @b draw the same line in column @col: the same points. */
static bool series_same(const struct plot *pl, const struct series *a, const struct series *b,
			int col)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (x_of(pl, a->rows[i]) != x_of(pl, b->rows[i]) ||
		    !same_value(dat_value(pl, a->rows[i], col), dat_value(pl, b->rows[i], col)))
			return false;
	return true;
}

/* " (same as LABEL)" for series @b, drawn under @a: with several series
 * keys only those where @b differs from @a ("rx-usecs=0"), for a short key. */
static void same_as(const struct plot *pl, const struct series *a, const struct series *b,
		    char *t, size_t len)
{
	size_t o = (size_t)snprintf(t, len, " (same as ");

	for (size_t i = 0; i < pl->n_series_col && o < len && pl->n_series_col > 1; i++) {
		const char *key = pl->rf->key[pl->series_col[i]], *dot = strrchr(key, '.');
		const char *va = cell_str(pl, a->rows[0], pl->series_col[i]);

		if (strcmp(va, cell_str(pl, b->rows[0], pl->series_col[i])))
			o += (size_t)snprintf(t + o, len - o, "%s%s=%s", o > 10 ? ", " : "",
					      dot ? dot + 1 : key, va);
	}
	if (o <= 10 && o < len)
		o += (size_t)snprintf(t + o, len - o, "%s", a->label);
	if (o < len)
		snprintf(t + o, len - o, ")");
}

/* The legend of series @i in column @col: its label, and "(same as
 * LABEL)" when an earlier series draws the same line (it lies under it). */
static void series_title(const struct plot *pl, size_t i, int col, char *t, size_t len)
{
	size_t o = (size_t)snprintf(t, len, "%s", pl->s[i].label);

	for (size_t j = 0; j < i && o < len; j++)
		if (series_same(pl, &pl->s[j], &pl->s[i], col)) {
			same_as(pl, &pl->s[j], &pl->s[i], t + o, len - o);
			return;
		}
}

/* The ideal output = input of the throughput figure: a segment from the
 * origin that ends at the top of the data's y range (@top) or at the end
 * of the load axis, so that it never stretches the y axis nor runs
 * through a key placed above the data; an arrow without a head, behind
 * the data, and an entry of the key. */
static void gp_ideal(FILE *f, double top)
{
	fprintf(f, "set arrow 1 from 0, 0 to %.6g, %.6g nohead back dashtype 2 "
		"linecolor 'gray'\n", top, top);
}

/* The plot command of gp_lines(): a line per series, the ideal's key. */
static void gp_lines_plot(const struct plot *pl, FILE *f, int col, bool ideal)
{
	char t[400];

	for (size_t i = 0; i < pl->n_s; i++) {
		gp_data(f, i ? ", \\\n  " : "", "", pl->s[i].file);
		fprintf(f, " using 1:%d with linespoints", col);
		series_title(pl, i, col, t, sizeof(t));
		gp_title(f, t);
	}
	if (ideal) {
		fputs(", \\\n  keyentry with lines dashtype 2 linecolor 'gray'", f);
		gp_title(f, "ideal (output = input)");
	}
	fputc('\n', f);
}

/* One line per series of column @col of data/SERIES.dat; the throughput
 * figure (D_OUTPUT against the load) is drawn on a linear load axis from 0
 * with the ideal output = input (gp_ideal()). */
static int gp_lines(struct plot *pl, const char *name, const char *what, const char *ylabel,
		    int col, bool log_y)
{
	bool ideal = col == D_OUTPUT && pl->x_col < 0;
	struct layout_key k = { 0 };
	struct layout l;
	char file[96], t[400], kt[160];
	double top = 0;
	FILE *f;

	snprintf(file, sizeof(file), "%s.gp", name);
	if (!(f = open_in(pl, file)))
		return 2;
	layout_init(&l, load_axis(pl, ideal), dat_axis(pl, col, col, log_y));
	for (size_t i = 0; i < pl->n_s; i++) {
		lay_series(pl, &l, &pl->s[i], col, false);
		series_title(pl, i, col, t, sizeof(t));
		key_entry(&k, t);
	}
	if (ideal) {
		top = fmin(l.x.hi, l.y.hi);
		layout_line(&l, (double[]){ 0, top }, (double[]){ 0, top }, 2, false);
		key_entry(&k, "ideal (output = input)");
	}
	key_title(&k, series_name(pl, kt, sizeof(kt)));
	gp_head(pl, f, name, what, ylabel);
	if (ideal && top > 0 && isfinite(top))
		gp_ideal(f, top);
	gp_frame(f, &l, &k, 0, kt);
	gp_plot(f, name);
	gp_lines_plot(pl, f, col, ideal);
	gp_tail(f, name);
	return close_in(pl, f, file);
}

/* Latency percentiles: a colour and a point type per series, a dash type
 * per percentile; the key names each once (keyentry lines). */
static int gp_latency(struct plot *pl)
{
	static const char *const pct[] = { "p50", "p99", "p99.9" };
	static const int dash[] = { 3, 1, 2 };
	struct layout_key k = { 0 };
	struct layout l;
	char kt[160];
	FILE *f;

	if (!(f = open_in(pl, "latency.gp")))
		return 2;
	layout_init(&l, load_axis(pl, false), dat_axis(pl, D_P50, D_P999, true));
	for (size_t i = 0; i < pl->n_s; i++) {
		for (int c = D_P50; c <= D_P999; c++)
			lay_series(pl, &l, &pl->s[i], c, false);
		key_entry(&k, pl->s[i].label);
	}
	for (int p = 0; p < 3; p++)
		key_entry(&k, pct[p]);
	key_title(&k, series_name(pl, kt, sizeof(kt)));
	gp_head(pl, f, "latency", "latency percentiles vs offered load",
		"latency (us)");
	gp_frame(f, &l, &k, 0, kt);
	gp_plot(f, "latency");
	for (size_t i = 0; i < pl->n_s; i++)
		for (int p = 0; p < 3; p++) {
			gp_data(f, i || p ? ", \\\n  " : "", "", pl->s[i].file);
			fprintf(f, " using 1:%d with linespoints linecolor %zu pointtype %zu "
				"dashtype %d notitle", D_P50 + p, i + 1, i % 12 + 1, dash[p]);
		}
	for (size_t i = 0; i < pl->n_s; i++) {
		fprintf(f, ", \\\n  keyentry with linespoints linecolor %zu pointtype %zu", i + 1,
			i % 12 + 1);
		gp_title(f, pl->s[i].label);
	}
	for (int p = 0; p < 3; p++) {
		fprintf(f, ", \\\n  keyentry with lines linecolor 'black' dashtype %d", dash[p]);
		gp_title(f, pct[p]);
	}
	fputc('\n', f);
	gp_tail(f, "latency");
	return close_in(pl, f, "latency.gp");
}

/* Name of a per-series figure: "cpu" alone, "cpu-napi" with several. */
static void per_series_name(const struct plot *pl, const struct series *s, const char *base,
			    char *buf, size_t len)
{
	if (pl->n_s == 1)
		snprintf(buf, len, "%s", base);
	else
		snprintf(buf, len, "%s-%s", base, s->file);
}

static int gp_cpu(struct plot *pl, const struct series *s)
{
	static const char *const part[] = { "hardirq", "softirq", "system", "user" };
	struct layout_key k = { 0 };
	struct layout l;
	char name[128], file[140];
	FILE *f;

	per_series_name(pl, s, "cpu", name, sizeof(name));
	snprintf(file, sizeof(file), "%s.gp", name);
	if (!(f = open_in(pl, file)))
		return 2;
	layout_init(&l, load_axis(pl, false), (struct layout_axis){ 0, 100, false });
	lay_series(pl, &l, s, D_USER, true);
	for (int p = 0; p < 4; p++)
		key_entry(&k, part[p]);
	gp_head(pl, f, name, "CPU time by context vs offered load (stacked)",
		"CPU time (% of all CPUs)");
	fputs("set style fill solid 0.6 noborder\n", f);
	gp_series_title(f, pl, s);
	gp_frame(f, &l, &k, 100, NULL);
	gp_plot(f, name);
	for (int p = 3; p >= 0; p--) {
		gp_data(f, p < 3 ? ", \\\n  " : "", "", s->file);
		fprintf(f, " using 1:%d with filledcurves x1", D_HARDIRQ + p);
		gp_title(f, part[p]);
	}
	fputc('\n', f);
	gp_tail(f, name);
	return close_in(pl, f, file);
}

/* CDF lines @a and @b (rows of rf) coincide: at every quantile the same
 * latency to within 1% (on the log axis, less than a pixel apart), or
 * both missing. */
static bool cdf_same(const struct plot *pl, size_t a, size_t b)
{
	for (size_t q = 0; q < RESULTS_CDF_N; q++)
		if (!same_value(cell_num(pl, a, pl->cdf[q]), cell_num(pl, b, pl->cdf[q])))
			return false;
	return true;
}

/* The legend of CDF line @j: its load (or x value), and when it coincides
 * with an earlier line, "(same as LOAD)": that line lies under it. */
static void cdf_title(const struct plot *pl, const size_t *pick, size_t j, char *t, size_t len)
{
	size_t o;

	if (pl->x_col < 0)
		o = (size_t)snprintf(t, len, "%.0f kpps", x_of(pl, pick[j]));
	else
		o = (size_t)snprintf(t, len, "%s = %s", pl->rf->key[pl->x_col],
				     cell_str(pl, pick[j], pl->x_col));
	for (size_t i = 0; i < j && o < len; i++)
		if (cdf_same(pl, pick[i], pick[j])) {
			if (pl->x_col < 0)
				snprintf(t + o, len - o, " (same as %.0f kpps)", x_of(pl, pick[i]));
			else
				snprintf(t + o, len - o, " (same as %s)", cell_str(pl, pick[i], pl->x_col));
			return;
		}
}

/* The latency axis of the CDF lines: log, around their values. */
static struct layout_axis cdf_axis(const struct plot *pl, const size_t *pick, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t j = 0; j < n; j++)
		for (size_t q = 0; q < RESULTS_CDF_N; q++) {
			double v = cell_num(pl, pick[j], pl->cdf[q]);

			if (isfinite(v) && v > 0) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		}
	return isfinite(lo) ? layout_log_axis(lo, hi) : (struct layout_axis){ 1, 10, true };
}

/* Lay CDF line of row @r into @l. */
static void lay_cdf(const struct plot *pl, struct layout *l, size_t r)
{
	double x[RESULTS_CDF_N], y[RESULTS_CDF_N];

	for (size_t q = 0; q < RESULTS_CDF_N; q++) {
		x[q] = cell_num(pl, r, pl->cdf[q]);
		y[q] = results_cdf_q[q];
	}
	layout_line(l, x, y, RESULTS_CDF_N, false);
}

/* One line per load, each its own colour, dash type and point type, so
 * that lines on top of each other still show (and say so in the key). */
static int gp_cdf(struct plot *pl, const struct series *s, const size_t *pick, size_t n)
{
	struct layout_key k = { 0 };
	struct layout l;
	char name[128], file[140], t[MAX_CDF_LINES][240];
	FILE *f;

	per_series_name(pl, s, "latency-cdf", name, sizeof(name));
	snprintf(file, sizeof(file), "%s.gp", name);
	if (!(f = open_in(pl, file)))
		return 2;
	layout_init(&l, cdf_axis(pl, pick, n), (struct layout_axis){ 0, 1, false });
	for (size_t j = 0; j < n; j++) {
		lay_cdf(pl, &l, pick[j]);
		cdf_title(pl, pick, j, t[j], sizeof(t[j]));
		key_entry(&k, t[j]);
	}
	gp_head(pl, f, name, "latency CDF, one line per offered load",
		"fraction of packets with latency <= x");
	gp_set_text(f, "xlabel", "latency (us)");
	gp_series_title(f, pl, s);
	gp_frame(f, &l, &k, 1, NULL);
	gp_plot(f, name);
	for (size_t j = 0; j < n; j++) {
		gp_data(f, j ? ", \\\n  " : "", "cdf-", s->file);
		fprintf(f, " index %zu using 1:2 with linespoints linecolor %zu dashtype %zu "
			"pointtype %zu", j, j + 1, j % 5 + 1, j + 1);
		gp_title(f, t[j]);
	}
	fputc('\n', f);
	gp_tail(f, name);
	return close_in(pl, f, file);
}

/* ---- the figures ------------------------------------------------------------- */

/* Some row has a value of column @col (> 0 when @log: a log axis). */
static bool has_values(const struct plot *pl, int col, bool log)
{
	for (size_t r = 0; r < pl->rf->nrows; r++) {
		double v = cell_num(pl, r, pl->col[col]);

		if (isfinite(v) && (!log || v > 0))
			return true;
	}
	return false;
}

/* A figure whose values are all missing (packets per interrupt with no
 * interrupt, latency with no packet timed) is left out: gnuplot refuses an
 * empty plot. */
static bool worth_drawing(const struct plot *pl, const char *name, int col, bool log)
{
	if (has_values(pl, col, log))
		return true;
	fprintf(stderr, "rxlab: no %s figure: %s has no%s value on any row\n", name,
		fig_keys[col], log ? " positive" : "");
	return false;
}

static int write_all(struct plot *pl)
{
	int rc = 0;

	for (size_t i = 0; i < pl->n_s && !rc; i++)
		rc = write_series(pl, &pl->s[i]);
	if (!rc)
		rc = gp_lines(pl, "throughput", "output rate vs offered load (receive livelock)",
			      "output rate (kpps, forwarded + delivered)", D_OUTPUT, false);
	if (!rc && worth_drawing(pl, "interrupts", C_RX_IRQS, false))
		rc = gp_lines(pl, "interrupts", "RX interrupts per second vs offered load",
			      "RX interrupts per second", D_RX_IRQS, false);
	if (!rc && worth_drawing(pl, "pkts-per-irq", C_PKTS_IRQ, true))
		rc = gp_lines(pl, "pkts-per-irq", "packets per RX interrupt vs offered load",
			      "packets per RX interrupt", D_PKTS_IRQ, true);
	if (!rc && worth_drawing(pl, "latency", C_P999, true))
		rc = gp_latency(pl);
	for (size_t i = 0; i < pl->n_s && !rc; i++)
		rc = gp_cpu(pl, &pl->s[i]);
	for (size_t i = 0; i < pl->n_s && !rc && pl->has_cdf; i++) {
		size_t pick[MAX_CDF_LINES], n = cdf_rows(pl, &pl->s[i], pick);

		if (n)
			rc = write_cdf(pl, &pl->s[i], pick, n);
		if (n && !rc)
			rc = gp_cdf(pl, &pl->s[i], pick, n);
	}
	return rc;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A log x axis for loads in equal ratios (a :log sweep), linear for equal
 * steps, and otherwise log when they span more than a factor 20; linear
 * when a value is 0 or below (rx-usecs = 0), which a log axis cannot show.
 * Also notes the range of the values (pl->x_lo, x_hi: of those > 0 on a
 * log axis). */
static bool log_axis(struct plot *pl)
{
	size_t n = 0, m = 0;
	double *x = calloc(pl->rf->nrows + 1, sizeof(*x));
	double rmin = INFINITY, rmax = 0, dmin = INFINITY, dmax = 0, lo = INFINITY;
	bool log_x;

	for (size_t r = 0; x && r < pl->rf->nrows; r++) {
		if (x_of(pl, r) > 0)
			x[n++] = x_of(pl, r);
		if (isfinite(x_of(pl, r)))
			lo = fmin(lo, x_of(pl, r));
	}
	if (n && lo <= 0) {
		qsort(x, n, sizeof(*x), by_value);
		pl->x_lo = lo;
		pl->x_hi = x[n - 1];
		free(x);
		return false;
	}
	if (n == 0) {
		free(x);
		return false;
	}
	qsort(x, n, sizeof(*x), by_value);
	pl->x_lo = x[0];
	pl->x_hi = x[n - 1];
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[m])
			x[++m] = x[i];
	for (size_t i = 1; i <= m; i++) {
		rmin = fmin(rmin, x[i] / x[i - 1]);
		rmax = fmax(rmax, x[i] / x[i - 1]);
		dmin = fmin(dmin, x[i] - x[i - 1]);
		dmax = fmax(dmax, x[i] - x[i - 1]);
	}
	if (m >= 2 && rmax < 1.1 * rmin)
		log_x = true;
	else if (m >= 2 && dmax < 1.1 * dmin)
		log_x = false;
	else
		log_x = x[m] / x[0] > 20;
	free(x);
	return log_x;
}

static int find_cols(struct plot *pl)
{
	for (int c = 0; c < C_N; c++)
		pl->col[c] = rowfile_col(pl->rf, fig_keys[c]);
	pl->has_cdf = true;
	for (size_t q = 0; q < RESULTS_CDF_N; q++)
		pl->has_cdf &= (pl->cdf[q] = rowfile_col(pl->rf, metrics_cdf_key(q))) >= 0;
	if (pl->col[C_OFFERED] < 0 || pl->rf->nrows == 0) {
		snprintf(pl->err, pl->errlen, "nothing to plot: %s", pl->rf->nrows ?
			 "no offered_pps column (a sweep's results have one)" : "no rows");
		return 2;
	}
	return 0;
}

static int write_results_csv(struct plot *pl)
{
	FILE *f = open_in(pl, "data/results.csv");

	if (!f)
		return 2;
	rowfile_print_csv(pl->rf, f);
	return close_in(pl, f, "data/results.csv");
}

/* ---- the figure directory ------------------------------------------------------ */

static int dir_error(struct plot *pl, const char *what, const char *hint)
{
	snprintf(pl->err, pl->errlen, "cannot create the figure directory %s%s: %s%s", pl->dir,
		 what, strerror(errno), hint);
	return 2;
}

/* DIR/.rxlab-plot-PID-N, mode 0700, made here (mkdir fails on any name that
 * exists, a link included), with its data/. */
static int make_stage(struct plot *pl)
{
	struct stat st;

	for (unsigned n = 0;; n++) {
		snprintf(pl->stage, sizeof(pl->stage), ".rxlab-plot-%ld-%u", (long)getpid(), n);
		if (mkdirat(pl->dir_fd, pl->stage, 0700) == 0)
			break;
		if (errno != EEXIST || n == 99) {
			pl->stage[0] = '\0';
			return dir_error(pl, "", "");
		}
	}
	pl->stage_fd = openat(pl->dir_fd, pl->stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pl->stage_fd < 0 || fstat(pl->stage_fd, &st) || mkdirat(pl->stage_fd, "data", 0700))
		return dir_error(pl, "", "");
	if (st.st_uid != geteuid() || (st.st_mode & 077)) {
		errno = EPERM;
		return dir_error(pl, "", " (someone else replaced rxlab's staging directory in it)");
	}
	return 0;
}

/* DIR (created if missing), DIR/data (created if missing; never a link)
 * and the staging directory. */
static int open_dirs(struct plot *pl)
{
	if (mkdir(pl->dir, 0777) && errno != EEXIST)
		return dir_error(pl, "", errno == ENOENT ? " (its parent directory must exist)" :
				 errno == ENOTDIR ? " (a part of the path is a file)" : "");
	if ((pl->dir_fd = open(pl->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return dir_error(pl, "", errno == ENOTDIR ? " (a file of that name is there)" : "");
	if (mkdirat(pl->dir_fd, "data", 0777) && errno != EEXIST)
		return dir_error(pl, "/data", "");
	pl->data_fd = openat(pl->dir_fd, "data", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pl->data_fd < 0)
		return dir_error(pl, "/data", errno == ELOOP || errno == ENOTDIR ? " (it must be a "
				 "directory; a symbolic link there is never followed: remove it)" : "");
	return make_stage(pl);
}

/* Rename the regular files of directory @from into @to (@sub names @to in
 * messages) when @keep, else remove them; the first failure into pl->err. */
static int move_files(struct plot *pl, int from, int to, const char *sub, bool keep)
{
	int fd = dup(from), rc = 0;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return dir_error(pl, "", "");
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (fstatat(from, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || S_ISDIR(st.st_mode))
			continue;
		if (keep && S_ISREG(st.st_mode) && renameat(from, e->d_name, to, e->d_name) == 0)
			continue;
		if (keep && S_ISREG(st.st_mode) && !rc)
			rc = (snprintf(pl->err, pl->errlen, "cannot write %s/%s%s: %s", pl->dir, sub,
				       e->d_name, strerror(errno)), 2);
		unlinkat(from, e->d_name, 0);
	}
	closedir(d);
	return rc;
}

/* Move the files written (@keep) into DIR and DIR/data, or drop them; then
 * remove the staging directory. */
static int close_dirs(struct plot *pl, bool keep)
{
	int rc = 0, data;

	if (pl->stage_fd >= 0) {
		data = openat(pl->stage_fd, "data", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (data >= 0) {
			rc = move_files(pl, data, pl->data_fd, "data/", keep);
			close(data);
		}
		data = move_files(pl, pl->stage_fd, pl->dir_fd, "", keep);
		rc = rc ? rc : data;
		unlinkat(pl->stage_fd, "data", AT_REMOVEDIR);
		close(pl->stage_fd);
	}
	if (pl->stage[0])
		unlinkat(pl->dir_fd, pl->stage, AT_REMOVEDIR);
	if (pl->data_fd >= 0)
		close(pl->data_fd);
	if (pl->dir_fd >= 0)
		close(pl->dir_fd);
	return rc;
}

/* ---- gnuplot ------------------------------------------------------------------- */

/* $RXLAB_GNUPLOT, else "gnuplot" on $PATH, into @buf; false if none. */
static bool find_gnuplot(char *buf, size_t len)
{
	const char *env = getenv("RXLAB_GNUPLOT"), *path = getenv("PATH");

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return access(buf, X_OK) == 0;
	}
	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, len, "%.*s/gnuplot", (int)n, path);
		if (n && access(buf, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

/* Run gnuplot in the staging directory on @script; true when it succeeded. */
static bool run_gnuplot(const struct plot *pl, const char *gnuplot, const char *script)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (fchdir(pl->stage_fd) == 0)
			execl(gnuplot, "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* @s as one word of a shell command to copy: as it is when it is made of
 * harmless bytes, else single-quoted (each ' as '\''). */
static void put_shell_word(FILE *f, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		       "/._-+,:=@%") == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* One gnuplot per script, so that one failure does not cost the others. */
static int draw(struct plot *pl, bool *drawn)
{
	char gnuplot[4096];
	size_t failed = 0, len = 0;

	if (!find_gnuplot(gnuplot, sizeof(gnuplot))) {
		fprintf(stderr, "rxlab: gnuplot not found%s: wrote the data and scripts to %s/, not "
			"the images.  Install gnuplot (Debian/Ubuntu: sudo apt-get install "
			"gnuplot-nox; Fedora: sudo dnf install gnuplot; macOS: brew install "
			"gnuplot) and draw them with: cd ",
			getenv("RXLAB_GNUPLOT") && *getenv("RXLAB_GNUPLOT") ? " at $RXLAB_GNUPLOT" :
			" on $PATH", pl->dir);
		put_shell_word(stderr, pl->dir);
		fputs(" && gnuplot *.gp\n", stderr);
		return 0;
	}
	pl->ran = true;
	len = (size_t)snprintf(pl->err, pl->errlen, "%s failed on", gnuplot);
	for (size_t i = 0; i < pl->n_script; i++)
		if (!run_gnuplot(pl, gnuplot, pl->script[i]) && len < pl->errlen) {
			failed++;
			len += (size_t)snprintf(pl->err + len, pl->errlen - len, " %s/%s", pl->dir,
						pl->script[i]);
		}
	if (failed) {
		if (len < pl->errlen)
			snprintf(pl->err + len, pl->errlen - len, " (see its messages above)");
		return 1;
	}
	*drawn = true;
	return 0;
}

/* Data and scripts into the staging directory, then (@run) gnuplot there,
 * then every file into DIR. */
static int plot_in(struct plot *pl, bool run, bool *drawn)
{
	int rc = find_cols(pl), moved;

	if (!rc) {
		choose_x(pl);
		pick_series_cols(pl);
		pl->log_x = log_axis(pl);
		rc = open_dirs(pl);
	}
	if (!rc)
		rc = group_series(pl);
	if (!rc)
		rc = write_results_csv(pl);
	if (!rc)
		rc = write_all(pl);
	if (!rc && run)
		rc = draw(pl, drawn);
	moved = close_dirs(pl, rc == 0 || pl->ran);
	return rc ? rc : moved;
}

static int plot_new(const struct rowfile *rf, const char *dir, const char *title, bool run,
		    bool *drawn, char *err, size_t errlen)
{
	struct plot *pl = calloc(1, sizeof(*pl));
	bool images = false;
	int rc;

	if (!pl)
		return snprintf(err, errlen, "out of memory"), 1;
	*pl = (struct plot){ .rf = rf, .dir = dir, .title = title, .err = err, .errlen = errlen,
			     .dir_fd = -1, .data_fd = -1, .stage_fd = -1 };
	rc = plot_in(pl, run, &images);
	if (drawn)
		*drawn = images;
	for (size_t i = 0; i < pl->n_s; i++)
		free(pl->s[i].rows);
	free(pl->buf);
	free(pl);
	return rc;
}

int plot_rowfile(const struct rowfile *rf, const char *dir, const char *title, bool *drawn,
		 char *err, size_t errlen)
{
	return plot_new(rf, dir, title, true, drawn, err, errlen);
}

int plot_check_dir(const char *dir, char *err, size_t errlen)
{
	struct plot pl = { .dir = dir, .err = err, .errlen = errlen, .dir_fd = -1, .data_fd = -1,
			   .stage_fd = -1 };
	int rc = open_dirs(&pl);

	close_dirs(&pl, false);
	return rc;
}

int plot_write(const struct rowfile *rf, const char *dir, const char *title, char *err,
	       size_t errlen)
{
	return plot_new(rf, dir, title, false, NULL, err, errlen);
}

int plot_results(const char *in, const char *dir, const char *title, bool *drawn, char *err,
		 size_t errlen)
{
	struct rowfile rf;
	int rc;

	if (rowfile_read(&rf, in, err, errlen))
		return 2;
	if (rf.shards)
		rc = (snprintf(err, errlen, "%s is shard %u/%u: merge the shards first (rxlab "
			       "merge)", in, rf.shard, rf.shards), 2);
	else
		rc = plot_rowfile(&rf, dir, title, drawn, err, errlen);
	rowfile_free(&rf);
	return rc;
}
