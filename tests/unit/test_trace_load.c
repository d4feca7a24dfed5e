/* test_trace_load.c - CSV timelines and captures into arrivals
 * (model/trace_load.h): exact times and frame lengths, and the errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/scenario_load.h"
#include "model/trace_load.h"
#include "sim/results.h"
#include "sim/sim.h"

static char err[512];

static int read_text(struct scn_trace *tr, const char *text, const char *name)
{
	FILE *f = fmemopen((void *)text, strlen(text), "rb");

	assert_non_null(f);
	err[0] = '\0';
	return trace_read(tr, f, name, err, sizeof(err));
}

/* Times become ns after the first row; lengths gain the 4-byte FCS and
 * runts are padded to 64 bytes. */
static void test_csv_times_and_lengths(void **state)
{
	struct scn_trace tr;

	(void)state;
	assert_int_equal(read_text(&tr, "# a comment\ntime_us, length\r\n\n100,42\n100.5,1514\n"
				   "  112.125 , 60 \n", "t.csv"), 0);
	assert_int_equal(tr.n, 3);
	assert_int_equal(tr.t_ns[0], 0);
	assert_int_equal(tr.t_ns[1], 500);
	assert_int_equal(tr.t_ns[2], 12125);
	assert_int_equal(tr.len[0], 64);
	assert_int_equal(tr.len[1], 1518);
	assert_int_equal(tr.len[2], 64);
	assert_int_equal(tr.bytes, 64 + 1518 + 64);
	trace_release(&tr);
}

static void expect_error(const char *text, const char *name, const char *msg)
{
	struct scn_trace tr;

	assert_int_equal(read_text(&tr, text, name), -1);
	assert_string_equal(err, msg);
}

static void test_csv_errors(void **state)
{
	(void)state;
	expect_error("", "e.csv", "e.csv: empty trace: no header and no packets; the first line "
		     "must be 'time_us,length'");
	expect_error("time_us,length\n", "e.csv", "e.csv: empty trace: no packets after the header");
	expect_error("time_us,length\n5,60\n4.999,60\n", "b.csv",
		     "b.csv:3: column 'time_us': 4.999 is earlier than 5.000 on line 2; accepted rows "
		     "in time order");
	expect_error("time_us,length\n5,9213\n", "l.csv",
		     "l.csv:2: column 'length': '9213' is out of range: accepted 1..9212 bytes (the "
		     "frame without FCS, as a capture reports it)");
	expect_error("time_us,length\n-1,60\n", "n.csv",
		     "n.csv:2: column 'time_us': '-1' is not a time; accepted a decimal number of "
		     "microseconds such as 12 or 12.345 (at most 3 decimals)");
	expect_error("time_us,length\n1\n", "c.csv", "c.csv:2: 1 columns, expected 2 (time_us,length)");
	expect_error("hello", "x.pcap", "x.pcap: not a pcap or pcapng capture (no pcap or pcapng "
		     "magic number in its first 4 bytes)");
}

/* A classic pcap (microsecond magic) of two packets, 1.5 ms apart. */
static void test_capture(void **state)
{
	static const unsigned char cap[] = {
		0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0,
		1, 0, 0, 0,
		/* sec 10, usec 999000, caplen 0, len 60 */
		10, 0, 0, 0, 0x58, 0x3e, 0x0f, 0, 0, 0, 0, 0, 60, 0, 0, 0,
		/* sec 11, usec 500, caplen 0, len 1000 */
		11, 0, 0, 0, 0xf4, 0x01, 0, 0, 0, 0, 0, 0, 0xe8, 0x03, 0, 0,
	};
	FILE *f = fmemopen((void *)cap, sizeof(cap), "rb");
	struct scn_trace tr;

	(void)state;
	assert_int_equal(trace_read(&tr, f, "t.pcap", err, sizeof(err)), 0);
	assert_int_equal(tr.n, 2);
	assert_int_equal(tr.t_ns[1], 1500000);
	assert_int_equal(tr.len[0], 64);
	assert_int_equal(tr.len[1], 1004);
	trace_release(&tr);
}

/* trace_load() reads a file once and hands out the same arrivals. */
static void test_cache(void **state)
{
	const struct scn_trace *a, *b;
	char path[] = "/tmp/rxlab-trace-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	(void)state;
	fputs("time_us,length\n0,60\n7,60\n", f);
	fclose(f);
	assert_int_equal(trace_load(&a, path, err, sizeof(err)), 0);
	assert_int_equal(trace_load(&b, path, err, sizeof(err)), 0);
	assert_ptr_equal(a, b);
	assert_int_equal(a->t_ns[1], 7000);
	unlink(path);
	trace_cache_free();
	assert_int_equal(trace_load(&a, path, err, sizeof(err)), -ENOENT);
	assert_string_equal(err + strlen(path), ": cannot open: No such file or directory");
}

/* A BOM and CRLF line ends read as the plain file; CR-only line ends,
 * a trace longer than 1000 h and over-long lines are refused by line. */
static void test_csv_text_and_ranges(void **state)
{
	struct scn_trace tr;

	(void)state;
	assert_int_equal(read_text(&tr, "\xef\xbb\xbftime_us,length\r\n0,60\r\n7,60\r\n", "b.csv"),
			 0);
	assert_int_equal(tr.n, 2);
	assert_int_equal(tr.t_ns[1], 7000);
	trace_release(&tr);
	expect_error("time_us,length\r0,60\r", "cr.csv", "cr.csv:1: CR-only line ends (a carriage "
		     "return without a line feed); save the file with LF or CRLF line ends");
	/* 3600000 s is the longest; a microsecond more is refused */
	assert_int_equal(read_text(&tr, "time_us,length\n5,60\n3600000000005,60\n", "s.csv"), 0);
	assert_int_equal(tr.t_ns[1], 3600000000000000ll);
	trace_release(&tr);
	expect_error("time_us,length\n5,60\n# later\n3600000000006,60\n", "s.csv",
		     "s.csv:4: column 'time_us': 3600000 s after the first packet (line 2); accepted "
		     "a trace of at most 1000 h (3600000 s: run.duration 3600 s at trace-speed 1000)");
	/* 107 days overflowed src/sim/nic.c's ns x 1000 */
	expect_error("time_us,length\n0,60\n9244800000000,60\n", "d.csv",
		     "d.csv:3: column 'time_us': 9244800 s after the first packet (line 2); accepted "
		     "a trace of at most 1000 h (3600000 s: run.duration 3600 s at trace-speed 1000)");
}

/* Classic pcap records: sec as an unsigned 32-bit field, caplen <= len. */
static void test_capture_fields(void **state)
{
	static const unsigned char y2038[] = {
		0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0,
		1, 0, 0, 0,
		/* sec 2^31 - 1, caplen 0, len 60; then sec 2^31 + 1 */
		0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0, 60, 0, 0, 0,
		0x01, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 60, 0, 0, 0,
	};
	static const unsigned char caplen[] = {
		0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0,
		1, 0, 0, 0,
		/* sec 1, caplen 4, len 2 */
		1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
	};
	FILE *f = fmemopen((void *)y2038, sizeof(y2038), "rb");
	struct scn_trace tr;

	(void)state;
	assert_int_equal(trace_read(&tr, f, "y.pcap", err, sizeof(err)), 0);
	assert_int_equal(tr.n, 2);
	assert_int_equal(tr.t_ns[1], 2000000000ll);
	trace_release(&tr);
	f = fmemopen((void *)caplen, sizeof(caplen), "rb");
	assert_int_equal(trace_read(&tr, f, "c.pcap", err, sizeof(err)), -1);
	assert_string_equal(err, "c.pcap: packet 1 (byte offset 24): captured length 4 is larger "
			    "than the packet's length 2; the record is invalid (accepted caplen <= "
			    "len)");
}

/* A FIFO without a writer is refused at once, not waited for. */
static void test_fifo_refused(void **state)
{
	const struct scn_trace *a;
	char dir[] = "/tmp/rxlab-fifo-XXXXXX", path[64], want[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(trace_load(&a, path, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: is a FIFO, not a regular file; a trace is a pcap, pcapng "
		 "or CSV file", path);
	assert_string_equal(err, want);
	unlink(path);
	rmdir(dir);
}

/* src/sim/nic.c offers packet k at start + t_k * 1000 / speed_milli: the
 * product wrapped past 2^63 (a trace of 107 days; UBSan in the sanitizer
 * build).  A trace the loader would refuse, handed to the simulator
 * directly: the run ends without undefined behaviour. */
static void test_sim_far_packet(void **state)
{
	static const int64_t t_ns[] = { 0, 1000, 200ll * 86400 * 1000000000 };
	static const uint32_t len[] = { 64, 64, 64 };
	static const struct scn_trace far = { .n = 3, .t_ns = t_ns, .len = len, .bytes = 192 };
	char path[] = "/tmp/rxlab-trace-XXXXXX", set[64];
	const char *sets[] = { set, "run.duration=1ms", "run.warmup=0", "traffic.trace-speed=1" };
	struct scenario scn;
	struct results r;
	struct sim sim;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	(void)state;
	fputs("time_us,length\n0,60\n1,60\n", f);
	fclose(f);
	snprintf(set, sizeof(set), "traffic.trace=%s", path);
	assert_int_equal(scenario_load_text(&scn, "[nic eth0]\n[traffic]\nrate = 1kpps\n", "t.ini",
					    sets, 4, err, sizeof(err)), 0);
	scn.traffic[0].trace = &far;
	assert_int_equal(sim_init(&sim, &scn), 0);
	assert_int_equal(sim_run(&sim), 0);
	assert_int_equal(results_collect(&r, &sim), 0);
	results_free(&r);
	sim_free(&sim);
	unlink(path);
	trace_cache_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_times_and_lengths),
		cmocka_unit_test(test_csv_errors),
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_csv_text_and_ranges),
		cmocka_unit_test(test_capture_fields),
		cmocka_unit_test(test_fifo_refused),
		cmocka_unit_test(test_sim_far_packet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
