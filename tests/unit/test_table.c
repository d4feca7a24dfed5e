/* test_table.c - text, CSV and JSON output of tables and reports.
 *
 * Every expected string below was written by hand from the format rules in
 * src/report/table.h, not captured from the implementation.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1	/* open_memstream, mkdtemp, fork */
#endif

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "report/table.h"

static char *render_table(const struct table *t, enum out_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	table_print(t, f, fmt);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *render_report(const struct report *r, enum out_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_print(r, f, fmt);
	assert_int_equal(fclose(f), 0);
	return buf;
}

#define assert_renders(t, fmt, want) do {				\
	char *got_ = render_table((t), (fmt));				\
	assert_string_equal(got_, (want));				\
	free(got_);							\
} while (0)

#define assert_report_renders(r, fmt, want) do {			\
	char *got_ = render_report((r), (fmt));				\
	assert_string_equal(got_, (want));				\
	free(got_);							\
} while (0)

/* netstat -i style: a string column, integer columns, a double with two
 * decimals (one of them not reliable), a double rounded to an integer. */
static struct table *sample_table(void)
{
	struct table *t = table_new("netstat_i", "Kernel Interface table");

	table_add_col(t, "iface", "Iface", -1);
	table_add_col(t, "mtu", "MTU", -1);
	table_add_col(t, "rx_ok", "RX-OK", -1);
	table_add_col(t, "rx_irqs_per_s", "RX-IRQ/s", 2);
	table_add_col(t, "delta", "Delta", -1);
	table_add_col(t, "avg_ns", "Avg-ns", -1);

	table_row(t);
	table_str(t, "eth0");
	table_i64(t, 1500);
	table_u64(t, 12345);
	table_dbl(t, 1234.5);
	table_i64(t, -3);
	table_dbl(t, 2.6);

	table_row(t);
	table_str(t, "lo");
	table_i64(t, 65536);
	table_u64(t, 7);
	table_dbl(t, NAN);
	table_i64(t, 0);
	table_dbl(t, 1234567.4);
	return t;
}

static const char sample_text[] =
	"Kernel Interface table\n"
	"Iface    MTU  RX-OK  RX-IRQ/s  Delta   Avg-ns\n"
	"eth0    1500  12345   1234.50     -3        3\n"
	"lo     65536      7         -      0  1234567\n";

static const char sample_csv[] =
	"iface,mtu,rx_ok,rx_irqs_per_s,delta,avg_ns\n"
	"eth0,1500,12345,1234.50,-3,3\n"
	"lo,65536,7,,0,1234567\n";

static const char sample_json[] =
	"[\n"
	"  {\"iface\": \"eth0\", \"mtu\": 1500, \"rx_ok\": 12345, "
	"\"rx_irqs_per_s\": 1234.50, \"delta\": -3, \"avg_ns\": 3},\n"
	"  {\"iface\": \"lo\", \"mtu\": 65536, \"rx_ok\": 7, "
	"\"rx_irqs_per_s\": null, \"delta\": 0, \"avg_ns\": 1234567}\n"
	"]\n";

static void test_out_format_parse(void **state)
{
	enum out_format f = OUT_JSON;

	(void)state;
	assert_int_equal(out_format_parse("table", &f), 0);
	assert_int_equal(f, OUT_TABLE);
	assert_int_equal(out_format_parse("csv", &f), 0);
	assert_int_equal(f, OUT_CSV);
	assert_int_equal(out_format_parse("json", &f), 0);
	assert_int_equal(f, OUT_JSON);
	assert_int_equal(out_format_parse("JSON", &f), -1);
	assert_int_equal(out_format_parse("", &f), -1);
	assert_int_equal(out_format_parse("tab", &f), -1);
	assert_int_equal(out_format_parse(NULL, &f), -1);
	assert_int_equal(f, OUT_JSON);		/* untouched on failure */
}

static void test_text(void **state)
{
	struct table *t = sample_table();

	(void)state;
	assert_renders(t, OUT_TABLE, sample_text);
	table_free(t);
}

static void test_csv(void **state)
{
	struct table *t = sample_table();

	(void)state;
	assert_renders(t, OUT_CSV, sample_csv);
	table_free(t);
}

static void test_json(void **state)
{
	struct table *t = sample_table();

	(void)state;
	assert_renders(t, OUT_JSON, sample_json);
	table_free(t);
}

/* No title, no rows: just the header (text, CSV) or an empty array. */
static void test_empty_table(void **state)
{
	struct table *t = table_new("empty", NULL);

	(void)state;
	table_add_col(t, "a", "Alpha", -1);
	table_add_col(t, "b", "B", 3);
	assert_renders(t, OUT_TABLE, "Alpha  B\n");
	assert_renders(t, OUT_CSV, "a,b\n");
	assert_renders(t, OUT_JSON, "[]\n");
	table_free(t);
}

/* A left-aligned last column is not padded: no trailing blanks. */
static void test_text_string_last(void **state)
{
	struct table *t = table_new("s", NULL);

	(void)state;
	table_add_col(t, "n", "N", -1);
	table_add_col(t, "name", "Name", -1);
	table_row(t);
	table_u64(t, 1);
	table_str(t, "a");
	table_row(t);
	table_u64(t, 22);
	table_str(t, "longer");
	assert_renders(t, OUT_TABLE,
		       " N  Name\n"
		       " 1  a\n"
		       "22  longer\n");
	table_free(t);
}

static void test_csv_quoting(void **state)
{
	struct table *t = table_new("q", "Quoting");

	(void)state;
	table_add_col(t, "plain", "Plain", -1);
	table_add_col(t, "comma", "Comma", -1);
	table_add_col(t, "quote", "Quote", -1);
	table_add_col(t, "nl", "NL", -1);
	table_add_col(t, "odd,key", "Odd", -1);
	table_row(t);
	table_str(t, "x y");
	table_str(t, "a,b");
	table_str(t, "say \"hi\"");
	table_str(t, "two\nlines");
	table_str(t, "cr\r");
	assert_renders(t, OUT_CSV,
		       "plain,comma,quote,nl,\"odd,key\"\n"
		       "x y,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\"\n");
	table_free(t);
}

static void test_json_escaping(void **state)
{
	struct table *t = table_new("e", NULL);

	(void)state;
	table_add_col(t, "k\"ey", "K", -1);
	table_row(t);
	table_str(t, "q\"b\\s/\n\t\x01\x1f" "\xc3\xa9");
	assert_renders(t, OUT_JSON,
		       "[\n"
		       "  {\"k\\\"ey\": \"q\\\"b\\\\s/\\n\\t\\u0001\\u001f\xc3\xa9\"}\n"
		       "]\n");
	table_free(t);
}

/* NaN, both infinities and a NULL string are all "not reliable". */
static void test_missing_values(void **state)
{
	struct table *t = table_new("nan", "Missing");

	(void)state;
	table_add_col(t, "name", "Name", -1);
	table_add_col(t, "ratio", "Ratio", 3);
	table_add_col(t, "rate", "Rate", -1);
	table_row(t);
	table_str(t, NULL);
	table_dbl(t, INFINITY);
	table_dbl(t, -INFINITY);
	table_row(t);
	table_str(t, "x");
	table_dbl(t, NAN);
	table_dbl(t, 5.0);
	assert_renders(t, OUT_TABLE,
		       "Missing\n"
		       "Name  Ratio  Rate\n"
		       "-         -     -\n"
		       "x         -     5\n");
	assert_renders(t, OUT_CSV, "name,ratio,rate\n,,\nx,,5\n");
	assert_renders(t, OUT_JSON,
		       "[\n"
		       "  {\"name\": null, \"ratio\": null, \"rate\": null},\n"
		       "  {\"name\": \"x\", \"ratio\": null, \"rate\": 5}\n"
		       "]\n");
	table_free(t);
}

/* A short row is padded with missing cells. */
static void test_short_row(void **state)
{
	struct table *t = table_new("short", NULL);

	(void)state;
	table_add_col(t, "a", "A", -1);
	table_add_col(t, "b", "B", -1);
	table_row(t);
	table_i64(t, 1);
	assert_renders(t, OUT_CSV, "a,b\n1,\n");
	assert_renders(t, OUT_JSON, "[\n  {\"a\": 1, \"b\": null}\n]\n");
	table_free(t);
}

/* Fixed-point formatting: never %g, no "-0". */
static void test_double_formatting(void **state)
{
	struct table *t = table_new("d", NULL);

	(void)state;
	table_add_col(t, "p0", "P0", -1);
	table_add_col(t, "p2", "P2", 2);
	table_add_col(t, "p6", "P6", 6);
	table_row(t);
	table_dbl(t, 1e20);
	table_dbl(t, 1e-9);
	table_dbl(t, 0.1);
	table_row(t);
	table_dbl(t, -0.4);
	table_dbl(t, -0.001);
	table_dbl(t, -1.5e-6);
	table_row(t);
	table_dbl(t, -0.0);
	table_dbl(t, -2.0);
	table_dbl(t, 123.0000004);
	assert_renders(t, OUT_CSV,
		       "p0,p2,p6\n"
		       "100000000000000000000,0.00,0.100000\n"
		       "0,0.00,-0.000002\n"
		       "0,-2.00,123.000000\n");
	table_free(t);
}

static void test_large_integers(void **state)
{
	struct table *t = table_new("big", NULL);

	(void)state;
	table_add_col(t, "u", "U", -1);
	table_add_col(t, "i", "I", -1);
	table_row(t);
	table_u64(t, UINT64_MAX);
	table_i64(t, INT64_MIN);
	assert_renders(t, OUT_JSON,
		       "[\n  {\"u\": 18446744073709551615, "
		       "\"i\": -9223372036854775808}\n]\n");
	table_free(t);
}

static struct table *small_table(const char *name, const char *title,
				 int64_t v)
{
	struct table *t = table_new(name, title);

	table_add_col(t, "v", "Value", -1);
	table_row(t);
	table_i64(t, v);
	return t;
}

static struct report *sample_report(void)
{
	struct report *r = report_new();

	report_add(r, small_table("first", "First", 1));
	report_add(r, small_table("second", "Second", 22));
	report_add(r, table_new("third", "Third"));	/* no columns */
	return r;
}

static void test_report_several(void **state)
{
	struct report *r = sample_report();

	(void)state;
	assert_report_renders(r, OUT_TABLE,
			      "First\nValue\n    1\n"
			      "\n"
			      "Second\nValue\n   22\n"
			      "\n"
			      "Third\n");
	assert_report_renders(r, OUT_CSV,
			      "# first\nv\n1\n"
			      "\n"
			      "# second\nv\n22\n"
			      "\n"
			      "# third\n");
	assert_report_renders(r, OUT_JSON,
			      "{\n"
			      "  \"first\": [\n"
			      "    {\"v\": 1}\n"
			      "  ],\n"
			      "  \"second\": [\n"
			      "    {\"v\": 22}\n"
			      "  ],\n"
			      "  \"third\": []\n"
			      "}\n");
	report_free(r);
}

/* One table: exactly the table's own output, no "# name", no object. */
static void test_report_single(void **state)
{
	struct report *r = report_new();

	(void)state;
	report_add(r, sample_table());
	assert_report_renders(r, OUT_TABLE, sample_text);
	assert_report_renders(r, OUT_CSV, sample_csv);
	assert_report_renders(r, OUT_JSON, sample_json);
	report_free(r);
}

static void test_report_empty(void **state)
{
	struct report *r = report_new();

	(void)state;
	assert_report_renders(r, OUT_TABLE, "");
	assert_report_renders(r, OUT_CSV, "");
	assert_report_renders(r, OUT_JSON, "{}\n");
	report_free(r);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 4096);

	assert_non_null(f);
	assert_non_null(buf);
	assert_true(fread(buf, 1, 4095, f) < 4095);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static void test_write_file(void **state)
{
	char dir[] = "/tmp/rxlab-test-table-XXXXXX";
	char path[128], tmp[160], err[256];
	struct report *r = report_new();
	char *got;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	report_add(r, sample_table());

	/* the second call replaces the file the first one wrote */
	assert_int_equal(report_write_file(r, path, OUT_JSON, err,
					   sizeof(err)), 0);
	assert_int_equal(report_write_file(r, path, OUT_CSV, err,
					   sizeof(err)), 0);
	got = slurp(path);
	assert_string_equal(got, sample_csv);
	free(got);
	assert_false(exists(tmp));

	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	report_free(r);
}

static void test_write_file_missing_dir(void **state)
{
	const char *path = "/nonexistent-rxlab-dir/sub/out.json";
	char err[256] = "";
	struct report *r = report_new();

	(void)state;
	report_add(r, small_table("t", NULL, 1));
	assert_int_equal(report_write_file(r, path, OUT_JSON, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, strerror(ENOENT)));
	/* a NULL or zero-sized message buffer is allowed */
	assert_int_equal(report_write_file(r, path, OUT_JSON, NULL, 0), -1);
	report_free(r);
}

/* rename() onto a directory fails after the temporary file was written:
 * the error names the path and the temporary file is removed. */
static void test_write_file_rename_fails(void **state)
{
	char dir[] = "/tmp/rxlab-test-table-XXXXXX";
	char path[128], tmp[160], err[256] = "";
	struct report *r = report_new();

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/target", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	assert_int_equal(mkdir(path, 0700), 0);
	report_add(r, small_table("t", NULL, 1));
	assert_int_equal(report_write_file(r, path, OUT_CSV, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_false(exists(tmp));
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(rmdir(dir), 0);
	report_free(r);
}

/* A cell beyond the last column aborts even in NDEBUG builds. */
static void test_too_many_cells_aborts(void **state)
{
	int status;
	pid_t pid;

	(void)state;
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct table *t = table_new("x", NULL);

		if (!freopen("/dev/null", "w", stderr))
			_exit(1);
		table_add_col(t, "a", "A", -1);
		table_row(t);
		table_i64(t, 1);
		table_i64(t, 2);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

/* Units: the key's suffix, the imitated tool's names per table, then the
 * cells (text, bool, count); table_set_unit() wins. */
static void test_units(void **state)
{
	struct table *t = sample_table();
	struct table *m = table_new("mpstat", NULL);
	struct table *b = table_new("x", NULL);

	(void)state;
	assert_string_equal(table_col_unit(t, 0), "text");	/* iface: strings */
	assert_string_equal(table_col_unit(t, 1), "bytes");	/* netstat_i mtu */
	assert_string_equal(table_col_unit(t, 2), "packets");	/* netstat_i rx_ok */
	assert_string_equal(table_col_unit(t, 3), "1/s");	/* _per_s */
	assert_string_equal(table_col_unit(t, 4), "count");	/* integers */
	assert_string_equal(table_col_unit(t, 5), "ns");	/* _ns */
	table_set_unit(t, "delta", "ms");
	assert_string_equal(table_col_unit(t, 4), "ms");
	table_add_col(m, "usr", "%usr", 1);	/* mpstat's own name: % */
	table_add_col(m, "irq", "%irq", 1);
	assert_string_equal(table_col_unit(m, 0), "%");
	assert_string_equal(table_col_unit(m, 1), "%");
	table_add_col(b, "irq", "IRQ", -1);	/* not mpstat: no unit from the name */
	table_add_col(b, "ok", "OK", -1);
	table_add_col(b, "rate_pps", "pps", 0);
	table_add_col(b, "lat_us", "us", 1);
	table_add_col(b, "cpu_pct", "%", 1);
	table_row(b);
	table_i64(b, 24);
	table_bool(b, true);
	table_dbl(b, 1);
	table_dbl(b, 1);
	table_dbl(b, 1);
	assert_string_equal(table_col_unit(b, 0), "count");
	assert_string_equal(table_col_unit(b, 1), "bool");
	assert_string_equal(table_col_unit(b, 2), "pkt/s");
	assert_string_equal(table_col_unit(b, 3), "us");
	assert_string_equal(table_col_unit(b, 4), "%");
	table_free(t);
	table_free(m);
	table_free(b);
}

static void test_report_select(void **state)
{
	struct report *r = sample_report();
	const char *bad[] = { "second", "nosuch" }, *two[] = { "third", "first", "first" };
	char err[256];

	(void)state;
	assert_int_equal(report_select(r, bad, 2, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown table 'nosuch'; this report's tables: first, second, "
			    "third");
	assert_int_equal(report_count(r), 3);	/* unchanged */
	assert_int_equal(report_select(r, two, 3, err, sizeof(err)), 0);
	assert_int_equal(report_count(r), 2);	/* the report's order, once each */
	assert_string_equal(table_name(report_table(r, 0)), "first");
	assert_string_equal(table_name(report_table(r, 1)), "third");
	report_free(r);
}

static char *render_units(const struct report *r, enum out_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_print_units(r, f, fmt);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_report_print_units(void **state)
{
	struct report *one = report_new(), *two = report_new();
	char *got;

	(void)state;
	report_add(one, small_table("t", NULL, 5));
	got = render_units(one, OUT_JSON);
	assert_string_equal(got, "{\n  \"units\": {\"v\": \"count\"},\n  \"rows\": [\n"
			    "    {\"v\": 5}\n  ]\n}\n");
	free(got);
	got = render_units(one, OUT_CSV);	/* CSV: no units, one header */
	assert_string_equal(got, "v\n5\n");
	free(got);
	report_add(two, small_table("a", NULL, 1));
	report_add(two, small_table("b_us", NULL, 2));
	got = render_units(two, OUT_JSON);
	assert_string_equal(got, "{\n  \"a\": {\n    \"units\": {\"v\": \"count\"},\n"
			    "    \"rows\": [\n      {\"v\": 1}\n    ]\n  },\n"
			    "  \"b_us\": {\n    \"units\": {\"v\": \"count\"},\n"
			    "    \"rows\": [\n      {\"v\": 2}\n    ]\n  }\n}\n");
	free(got);
	report_free(one);
	report_free(two);
}

static void test_write_dir(void **state)
{
	char dir[] = "/tmp/rxlab-test-table-XXXXXX";
	char sub[160], path[200], link[160], err[512];
	struct report *r = report_new();
	char *got;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/out", dir);
	report_add(r, sample_table());
	report_add(r, small_table("t", NULL, 7));
	assert_int_equal(report_write_dir(r, sub, OUT_CSV, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/netstat_i.csv", sub);
	got = slurp(path);
	assert_string_equal(got, sample_csv);
	free(got);
	snprintf(path, sizeof(path), "%s/t.csv", sub);
	got = slurp(path);
	assert_string_equal(got, "v\n7\n");
	free(got);
	assert_int_equal(report_write_dir(r, sub, OUT_JSON, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/t.json", sub);
	got = slurp(path);
	assert_string_equal(got, "{\n  \"units\": {\"v\": \"count\"},\n  \"rows\": [\n"
			    "    {\"v\": 7}\n  ]\n}\n");
	free(got);
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(symlink(sub, link), 0);
	assert_int_equal(report_write_dir(r, link, OUT_CSV, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is a symbolic link, not a directory"));
	assert_int_equal(report_write_dir(r, path, OUT_CSV, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is a regular file, not a directory"));
	const char *files[] = { "netstat_i.csv", "t.csv", "netstat_i.json", "t.json" };
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", sub, files[i]);
		assert_int_equal(unlink(path), 0);
	}
	assert_int_equal(unlink(link), 0);
	assert_int_equal(rmdir(sub), 0);
	assert_int_equal(rmdir(dir), 0);
	report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_out_format_parse),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text_string_last),
		cmocka_unit_test(test_empty_table),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_json_escaping),
		cmocka_unit_test(test_missing_values),
		cmocka_unit_test(test_short_row),
		cmocka_unit_test(test_double_formatting),
		cmocka_unit_test(test_large_integers),
		cmocka_unit_test(test_report_several),
		cmocka_unit_test(test_report_single),
		cmocka_unit_test(test_report_empty),
		cmocka_unit_test(test_write_file),
		cmocka_unit_test(test_write_file_missing_dir),
		cmocka_unit_test(test_write_file_rename_fails),
		cmocka_unit_test(test_too_many_cells_aborts),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_report_select),
		cmocka_unit_test(test_report_print_units),
		cmocka_unit_test(test_write_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
