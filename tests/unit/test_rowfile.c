/* test_rowfile.c - results files assembled row by row (src/report/rowfile.c).
 *
 * The contract that makes shards and --resume byte-exact: a rowfile built
 * from table rows prints exactly what table_print() / report_print() print
 * for the same table (plain, and framed as a shard: a report of the tables
 * "shard" and "sweep"), in CSV and JSON; and what it prints reads back
 * into the same keys, cells and row texts.  Hand-written inputs check the
 * readers' errors (file and line named).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1	/* open_memstream */
#endif

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "report/rowfile.h"
#include "report/table.h"

/* A table with every kind of cell: strings needing quotes, numbers,
 * missing values, booleans. */
static struct table *sample(void)
{
	struct table *t = table_new("sweep", "Sweep");

	table_add_col(t, "traffic.rate", "traffic.rate", -1);
	table_add_col(t, "note", "note", -1);
	table_add_col(t, "pps", "pps", 0);
	table_add_col(t, "ratio", "ratio", 2);
	table_add_col(t, "partial", "partial", -1);
	table_row(t);
	table_str(t, "10kpps");
	table_str(t, "a, \"quoted\" one");
	table_dbl(t, 10000);
	table_dbl(t, NAN);
	table_bool(t, false);
	table_row(t);
	table_str(t, "20kpps");
	table_str(t, NULL);
	table_dbl(t, 19999.6);
	table_dbl(t, 1.5);
	table_bool(t, true);
	return t;
}

static char *print_table(const struct table *t, enum out_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	table_print(t, f, fmt);
	fclose(f);
	return buf;
}

static char *print_rowfile(const struct rowfile *rf)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rowfile_print(rf, f);
	fclose(f);
	return buf;
}

static void from_table(struct rowfile *rf, const struct table *t, enum out_format fmt)
{
	const char *keys[16];

	for (size_t c = 0; c < table_ncols(t); c++)
		keys[c] = table_col_key(t, c);
	rowfile_init(rf, fmt);
	rowfile_set_keys(rf, keys, table_ncols(t));
	for (size_t r = 0; r < table_nrows(t); r++)
		rowfile_add_table_row(rf, t, r);
}

static void prints_as_table(enum out_format fmt)
{
	struct table *t = sample();
	struct rowfile rf;
	char *want = print_table(t, fmt), *got;

	from_table(&rf, t, fmt);
	got = print_rowfile(&rf);
	assert_string_equal(got, want);
	free(got);
	free(want);
	rowfile_free(&rf);
	table_free(t);
}

static void test_csv_prints_as_table(void **state)
{
	(void)state;
	prints_as_table(OUT_CSV);
}

static void test_json_prints_as_table(void **state)
{
	(void)state;
	prints_as_table(OUT_JSON);
}

/* The shard framing is report_print() of the tables "shard" and "sweep". */
static void shard_prints_as_report(enum out_format fmt)
{
	struct table *t = sample(), *meta = table_new("shard", NULL);
	struct report *rep = report_new();
	struct rowfile rf;
	char *want = NULL, *got;
	size_t len = 0;
	FILE *f = open_memstream(&want, &len);

	from_table(&rf, t, fmt);
	snprintf(rf.sweep_id, sizeof(rf.sweep_id), "00ff00ff00ff00ff");
	rf.shard = 2;
	rf.shards = 3;
	rf.points = 7;
	table_add_col(meta, "sweep_id", "sweep_id", -1);
	table_add_col(meta, "shard", "shard", -1);
	table_add_col(meta, "shards", "shards", -1);
	table_add_col(meta, "points", "points", -1);
	table_row(meta);
	table_str(meta, "00ff00ff00ff00ff");
	table_u64(meta, 2);
	table_u64(meta, 3);
	table_u64(meta, 7);
	report_add(rep, meta);
	report_add(rep, t);
	report_print(rep, f, fmt);
	fclose(f);
	got = print_rowfile(&rf);
	assert_string_equal(got, want);
	free(got);
	free(want);
	rowfile_free(&rf);
	report_free(rep);
}

static void test_csv_shard_prints_as_report(void **state)
{
	(void)state;
	shard_prints_as_report(OUT_CSV);
}

static void test_json_shard_prints_as_report(void **state)
{
	(void)state;
	shard_prints_as_report(OUT_JSON);
}

/* Print, read back: same format, keys, cells, texts and framing. */
static void round_trip(enum out_format fmt, bool shard)
{
	struct table *t = sample();
	struct rowfile a, b;
	char *text, err[256] = "";

	from_table(&a, t, fmt);
	if (shard) {
		snprintf(a.sweep_id, sizeof(a.sweep_id), "abc");
		a.shard = 1;
		a.shards = 2;
		a.points = 3;
	}
	text = print_rowfile(&a);
	assert_int_equal(rowfile_parse(&b, "mem", text, strlen(text), err, sizeof(err)), 0);
	assert_int_equal(b.fmt, fmt);
	assert_int_equal(b.ncols, a.ncols);
	assert_int_equal(b.nrows, 2);
	assert_int_equal(b.shards, shard ? 2 : 0);
	for (size_t r = 0; r < 2; r++) {
		assert_string_equal(b.row[r].text, a.row[r].text);
		for (size_t c = 0; c < a.ncols; c++) {
			if (a.row[r].cell[c])
				assert_string_equal(b.row[r].cell[c], a.row[r].cell[c]);
			else
				assert_null(b.row[r].cell[c]);
		}
	}
	assert_string_equal(b.row[0].cell[1], "a, \"quoted\" one");
	assert_null(b.row[0].cell[3]);
	assert_string_equal(b.row[1].cell[2], "20000");
	assert_string_equal(b.row[1].cell[4], "true");
	free(text);
	rowfile_free(&a);
	rowfile_free(&b);
	table_free(t);
}

static void test_round_trips(void **state)
{
	(void)state;
	round_trip(OUT_CSV, false);
	round_trip(OUT_JSON, false);
	round_trip(OUT_CSV, true);
	round_trip(OUT_JSON, true);
}

static void assert_parse_fails(const char *text, const char *want)
{
	struct rowfile rf;
	char err[256] = "";

	assert_int_equal(rowfile_parse(&rf, "f.csv", text, strlen(text), err, sizeof(err)), -1);
	assert_string_equal(err, want);
}

static void test_errors_name_file_and_line(void **state)
{
	(void)state;
	assert_parse_fails("", "f.csv: empty file; expected a sweep's results (CSV or JSON)");
	assert_parse_fails("a,b\n1,2\n3\n", "f.csv:3: 1 fields, the header has 2");
	assert_parse_fails("a,b\n1,\"2\n", "f.csv:2: unterminated quoted field");
	assert_parse_fails("# summary\na\n1\n", "f.csv:1: a report of several tables; expected "
			   "a sweep's results (one table) or a shard of one");
	assert_parse_fails("[\n  {\"a\": 1},\n  {\"b\": 2}\n]\n",
			   "f.csv:3: key 'b' where the first row has 'a'");
	assert_parse_fails("[\n  {\"a\": 1},\n  {\"a\": x}\n]\n",
			   "f.csv:3: expected a string, number, true, false or null");
	assert_parse_fails("[\n  {\"a\": 1}\n", "f.csv:3: expected ',' or ']' after a row");
	assert_parse_fails("# shard\nsweep_id,shard,shards,points\nx,3,2,5\n\n# sweep\na\n",
			   "f.csv:1: table 'shard': shard 3 of 2 is not K/N with 1 <= K <= N");
}

/* A BOM and CRLF read as the plain file; CR-only line ends are named. */
static void test_bom_and_line_ends(void **state)
{
	static const char bom[] = "\xef\xbb\xbf" "a,b\r\n1,2\r\n";
	struct rowfile rf;
	char err[256] = "";

	(void)state;
	assert_int_equal(rowfile_parse(&rf, "b.csv", bom, strlen(bom), err, sizeof(err)), 0);
	assert_int_equal(rf.ncols, 2);
	assert_string_equal(rf.key[0], "a");
	assert_int_equal(rf.nrows, 1);
	assert_string_equal(rf.row[0].text, "1,2");
	rowfile_free(&rf);
	assert_parse_fails("a,b\r1,2\r", "f.csv:1: CR-only line ends (a carriage return without "
			   "a line feed); save the file with LF or CRLF line ends");
}

/* Each limit refuses the first line, byte or row past it, by line. */
static void test_limits(void **state)
{
	static const struct rowfile_limits lim = { 8, 40, 2 };
	static const char ok[] = "a,b\n1,2\n3,4\n";
	struct rowfile rf;
	char err[256] = "";

	(void)state;
	assert_int_equal(rowfile_parse_limited(&rf, "f.csv", ok, strlen(ok), &lim, err,
					       sizeof(err)), 0);
	rowfile_free(&rf);
#define LIMITED(text, want)                                                                    \
	do {                                                                                   \
		assert_int_equal(rowfile_parse_limited(&rf, "f.csv", text, strlen(text), &lim, err,  \
						       sizeof(err)), -1);                     \
		assert_string_equal(err, want);                                                \
	} while (0)
	LIMITED("a,b\n1,2\n3,4\n5,6\n", "f.csv:4: more than 2 rows (the limit of a results file)");
	LIMITED("[\n{\"a\":1},\n{\"a\":2},\n{\"a\":3}]", "f.csv:4: more than 2 rows (the limit "
		"of a results file)");
	LIMITED("a,b\n1,2345678\n", "f.csv:2: line longer than 8 bytes (the limit of a results "
		"file)");
	LIMITED("a\n1234567\n1234567\n1234567\n1234567\n1234567\n", "f.csv:1: file is too "
		"large (more than 40 bytes; the limit of a results file)");
#undef LIMITED
}

/* rowfile_read() stops a stream (/dev/zero) at its first NUL byte and
 * refuses a socket before reading. */
static void test_read_file_types(void **state)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct rowfile rf;
	char err[256] = "", want[256];
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	(void)state;
	assert_int_equal(rowfile_read(&rf, "/dev/zero", err, sizeof(err)), -1);
	assert_string_equal(err, "/dev/zero: binary data (a NUL byte); expected CSV or JSON text");
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/tmp/rxlab-rowfile-%d.sock", (int)getpid());
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(rowfile_read(&rf, sa.sun_path, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: is a socket, not a regular file; a results file is a "
		 "regular file or a stream (a pipe, a FIFO, /dev/stdin)", sa.sun_path);
	assert_string_equal(err, want);
	unlink(sa.sun_path);
	close(fd);
	assert_int_equal(rowfile_read(&rf, "/nonexistent/r.csv", err, sizeof(err)), -1);
	assert_string_equal(err, "cannot open /nonexistent/r.csv: No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_prints_as_table),
		cmocka_unit_test(test_json_prints_as_table),
		cmocka_unit_test(test_csv_shard_prints_as_report),
		cmocka_unit_test(test_json_shard_prints_as_report),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_errors_name_file_and_line),
		cmocka_unit_test(test_bom_and_line_ends),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_read_file_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
