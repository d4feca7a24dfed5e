/* test_replay.c - rxlab replay: the core mechanisms on recorded rows.
 *
 * Each test feeds a small CSV text through replay_parse_args() and
 * replay_run() (as `rxlab replay KIND OPTIONS in.csv` would) and compares
 * the CSV output with a hand computation written next to it.  Errors are
 * compared as the exact one-line message.  The last tests drive the
 * simulator and the coalescing replay with the same completions and compare
 * their interrupt counts.
 *
 * Times in comments are in microseconds unless they say ns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/replay_args.h"
#include "model/scenario_load.h"
#include "sim/results.h"
#include "sim/sim.h"

/* ---- helpers ------------------------------------------------------------ */

/* Replay @input under `replay KIND ARGS in.csv` and return the CSV output,
 * or "error: MESSAGE" (malloc'd; the caller frees). */
static char *replay(const char *kind, const char *args, const char *input)
{
	struct replay_opts o;
	enum replay_kind k;
	char argbuf[512], err[1024], *argv[32], *out = NULL;
	const char *file;
	struct table *t = NULL;
	size_t outlen = 0;
	int argc = 0;
	FILE *in, *mem;

	assert_int_equal(replay_kind_parse(kind, &k), 0);
	replay_opts_default(&o, k);
	snprintf(argbuf, sizeof(argbuf), "%s in.csv", args);
	for (char *p = strtok(argbuf, " "); p && argc < 32; p = strtok(NULL, " "))
		argv[argc++] = p;
	if (replay_parse_args(&o, argc, argv, &file, err, sizeof(err)) == 0) {
		in = fmemopen((void *)input, strlen(input), "r");
		assert_non_null(in);
		if (replay_run(&o, in, file, &t, err, sizeof(err)) == 0) {
			mem = open_memstream(&out, &outlen);
			table_print(t, mem, OUT_CSV);
			fclose(mem);
			table_free(t);
		} else {
			assert_null(t);
		}
		fclose(in);
	}
	if (!out) {
		out = malloc(strlen(err) + 8);
		sprintf(out, "error: %s", err);
	}
	return out;
}

/* Compare and print both operands on failure. */
static void expect(const char *kind, const char *args, const char *input, const char *want)
{
	char *got = replay(kind, args, input);

	if (strcmp(got, want)) {
		print_error("replay %s %s\n--- got:\n%s\n--- want:\n%s\n", kind, args, got, want);
		free(got);
		fail();
	}
	free(got);
}

/* A growing CSV text built with printf-style rows. */
struct text {
	char *s;
	size_t len;
	FILE *f;
};

static void text_open(struct text *x, const char *header)
{
	x->s = NULL;
	x->f = open_memstream(&x->s, &x->len);
	fprintf(x->f, "%s\n", header);
}

static char *text_close(struct text *x)
{
	fclose(x->f);
	return x->s;
}

/* ---- dim ---------------------------------------------------------------- */

/* Rows k = 0..n-1 at k * 10 us with 10 packets of 100 bytes and one event
 * per row, counters starting at (p0, b0, e0) and wrapping at @wrap bits
 * (0: written as plain 64-bit numbers). */
static char *dim_rows(int n, uint64_t p0, uint64_t b0, uint64_t e0, int pwrap, int ewrap)
{
	struct text x;

	text_open(&x, "time_ns,packets,bytes,events");
	for (int k = 0; k < n; k++) {
		uint64_t p = p0 + 10u * k, b = b0 + 1000u * k, e = e0 + k;

		if (pwrap)
			p &= 0xffffffffu, b &= 0xffffffffu;
		if (ewrap)
			e &= 0xffffu;
		fprintf(x.f, "%d,%llu,%llu,%llu\n", k * 10000, (unsigned long long)p,
			(unsigned long long)b, (unsigned long long)e);
	}
	return text_close(&x);
}

/* Windows of 64 events over 640 us: 640 packets, 64000 bytes.
 *   ppms = 640 * 1000 / 640 = 1000, bpms = 100000, epms = 64000 / 640 = 100.
 * Window 1 (rows 0..64): prev stats 0 -> better; parked on top at index 1
 *   leaves toward the left: going_left, index 0 (rx-eqe {1 us, 256}).
 * The change is applied before row 65, which starts window 2 (65..129):
 *   same stats -> same; not better -> turn right; on_top needs steps_left
 *   > 1 -> no; step right to index 1 (rx-eqe {8, 256}).
 * Window 3 (130..194): same -> turn left, step to 0 again. */
static const char DIM_WANT[] =
	"time_ns,window_ns,ppms,bpms,epms,cmp,tune,profile_ix,usec,pkts,changed\n"
	"640000,640000,1000,100000,100,better,going_left,0,1,256,yes\n"
	"1290000,640000,1000,100000,100,same,going_right,1,8,256,yes\n"
	"1940000,640000,1000,100000,100,same,going_left,0,1,256,yes\n";

static void test_dim_windows(void **state)
{
	char *in = dim_rows(195, 0, 0, 0, 0, 0);

	(void)state;
	expect("dim", "", in, DIM_WANT);
	free(in);
}

/* The same traffic with counters that wrap inside the first window:
 * packets and bytes as a 32-bit counter, events as a 16-bit one, both as
 * recorded after the wrap and as 64-bit values that DIM truncates.  The
 * decisions are those of DIM_WANT. */
static void test_dim_wrap(void **state)
{
	char *wrapped = dim_rows(195, 0xffffffffu - 300, 0xffffffffu - 30000, 0xffff - 20, 1, 1);
	char *wide = dim_rows(195, 0xffffffffu - 300, 0xffffffffu - 30000, 0xffff - 20, 0, 0);

	(void)state;
	assert_non_null(strstr(wrapped, "\n10000,4294967005,"));
	assert_non_null(strstr(wrapped, ",65535\n"));
	assert_non_null(strstr(wrapped, ",0\n"));
	expect("dim", "", wrapped, DIM_WANT);
	expect("dim", "", wide, DIM_WANT);
	free(wrapped);
	free(wide);
}

/* A window whose 64 events fall within the same microsecond gives no
 * stats (dim_calc_stats() false): no decision, the window goes on.  The
 * row at 1 us (65 events, 650 packets, 65000 bytes) then closes it:
 *   ppms = 650 * 1000 / 1 = 650000, bpms = 65000000, epms = 64000. */
static void test_dim_zero_window(void **state)
{
	struct text x;
	char *in;

	(void)state;
	text_open(&x, "time_ns,packets,bytes,events");
	for (int k = 0; k <= 64; k++)
		fprintf(x.f, "%d,%d,%d,%d\n", k < 64 ? 0 : 999, 10 * k, 1000 * k, k);
	in = text_close(&x);
	expect("dim", "", in,
	       "time_ns,window_ns,ppms,bpms,epms,cmp,tune,profile_ix,usec,pkts,changed\n");
	free(in);
	text_open(&x, "time_ns,packets,bytes,events");
	for (int k = 0; k <= 65; k++)
		fprintf(x.f, "%d,%d,%d,%d\n", k < 65 ? 0 : 1000, 10 * k, 1000 * k, k);
	in = text_close(&x);
	expect("dim", "--profile rx-cqe --start-ix 3", in,
	       "time_ns,window_ns,ppms,bpms,epms,cmp,tune,profile_ix,usec,pkts,changed\n"
	       "1000,1000,650000,65000000,64000,better,going_left,2,16,64,yes\n");
	free(in);
}

/* ---- itr ---------------------------------------------------------------- */

static const char ITR_HDR[] = "time_ns,rx_class,tx_class,target_ints_per_s,itr_ints_per_s,"
			      "reg,gap_ns,changed\n";

/* Mode 3 (default), starting at 20000 ints/s, both classes lowest:
 *   1 pkt / 64 B: rx lowest -> lowest, promoted to low (conservative);
 *     tx no packets: stays lowest -> low.  Target 20000 = itr: no change.
 *     reg = 1e9 / (20000 * 256) = 195, gap 195 * 256 = 49920 ns.
 *   40 pkts / 60000 B: from low, bytes > 10000 and 1500 B/pkt > 1200 ->
 *     bulk: target 4000, falls at once; reg 976 (976.56), gap 249856.
 *   same again: from bulk, bytes > 25000 and packets > 35 -> low: target
 *     20000 rises by 20000/4: 9000; reg 434 (434.03), gap 111104.
 *   10 pkts / 640 B: from low, <= 10000 B, 64 B/pkt, > 2 pkts -> low:
 *     9000 + 5000 = 14000; reg 279 (279.02), gap 71424. */
static void test_itr_mode3(void **state)
{
	char want[512];

	(void)state;
	snprintf(want, sizeof(want), "%s%s", ITR_HDR,
		 "1000,low,low,20000,20000,195,49920,no\n"
		 "2000,bulk,low,4000,4000,976,249856,yes\n"
		 "3000,low,low,20000,9000,434,111104,yes\n"
		 "4000,low,low,20000,14000,279,71424,yes\n");
	expect("itr", "",
	       "time_ns,rx_packets,rx_bytes,tx_packets,tx_bytes\n"
	       "1000,1,64,0,0\n2000,40,60000,0,0\n3000,40,60000,0,0\n4000,10,640,0,0\n",
	       want);
}

/* Mode 1 keeps lowest: 1 pkt / 64 B -> lowest, target 70000;
 * 20000 + 70000/4 = 37500; reg 1e9 / 9600000 = 104, gap 26624.
 * At 100 Mb/s every cycle aims at 4000 and the classes stay put. */
static void test_itr_mode1_and_speed(void **state)
{
	char want[512];

	(void)state;
	snprintf(want, sizeof(want), "%s%s", ITR_HDR, "5,lowest,lowest,70000,37500,104,26624,yes\n");
	expect("itr", "--mode 1", "time_ns,rx_packets,rx_bytes,tx_packets,tx_bytes\n5,1,64,0,0\n",
	       want);
	snprintf(want, sizeof(want), "%s%s", ITR_HDR, "5,lowest,lowest,4000,4000,976,249856,yes\n");
	expect("itr", "--speed 100Mbit", "time_ns,rx_packets,rx_bytes,tx_packets,tx_bytes\n"
	       "5,40,60000,0,0\n", want);
}

/* Mode 4 starts at 8000; the watchdog 2 s after the first row sees 20000
 * bytes each way: goc = 4, dif = 0 -> 2000 ints/s, reg 1953, gap 499968.
 * fixed:1001 is InterruptThrottleRate 1001 & ~3 = 1000: reg 3906. */
static void test_itr_simplified_and_fixed(void **state)
{
	static const char in[] = "time_ns,rx_packets,rx_bytes,tx_packets,tx_bytes\n"
				 "0,10,10000,10,10000\n"
				 "1000000000,10,10000,10,10000\n"
				 "2000000000,10,10000,10,10000\n";
	char want[512];

	(void)state;
	snprintf(want, sizeof(want), "%s%s", ITR_HDR,
		 "0,,,8000,8000,488,124928,no\n"
		 "1000000000,,,8000,8000,488,124928,no\n"
		 "2000000000,,,2000,2000,1953,499968,yes\n");
	expect("itr", "--mode 4", in, want);
	snprintf(want, sizeof(want), "%s%s", ITR_HDR, "0,,,1000,1000,3906,999936,no\n");
	expect("itr", "--mode fixed:1001", "time_ns,rx_packets,rx_bytes,tx_packets,tx_bytes\n"
	       "0,1,64,0,0\n", want);
}

/* ---- adaptive ----------------------------------------------------------- */

/* Defaults: low < 10 kpps (0 us, 1 frame), normal 20 us / 16, high
 * > 100 kpps (100 us / 64), interval 1 s.
 *   0.5 s: interval not over.  1 s: 5000 pkts -> 5000 pps -> low.
 *   2 s: 50000 pps -> normal.  3 s: 200000 -> high.
 *   4.5 s: 150000 pkts in 1.5 s = 100000 pps, exactly high: normal. */
static void test_adaptive_sets(void **state)
{
	(void)state;
	expect("adaptive", "",
	       "time_ns,packets,bytes,events\n"
	       "0,0,0,0\n500000000,1000,0,1\n1000000000,5000,0,2\n2000000000,55000,0,3\n"
	       "3000000000,255000,0,4\n4500000000,405000,0,5\n",
	       "time_ns,interval_ns,packets,rate_pps,set,rx_usecs,rx_frames,changed\n"
	       "1000000000,1000000000,5000,5000,low,0,1,yes\n"
	       "2000000000,1000000000,50000,50000,normal,20,16,yes\n"
	       "3000000000,1000000000,200000,200000,high,100,64,yes\n"
	       "4500000000,1500000000,150000,100000,normal,20,16,yes\n");
}

/* Options with units; a 64-bit packet counter that wraps (2^64 - 100 ->
 * 900: 1000 packets in 10 ms = 100000 pps, above --pkt-rate-high 50kpps). */
static void test_adaptive_options_wrap(void **state)
{
	(void)state;
	expect("adaptive",
	       "--pkt-rate-low 1kpps --pkt-rate-high 50kpps --rx-usecs-high 0.2ms "
	       "--rx-frames-high 128 --sample-interval 10ms",
	       "time_ns,packets,bytes,events\n"
	       "0,18446744073709551516,0,0\n10000000,900,0,0\n20000000,910,0,0\n",
	       "time_ns,interval_ns,packets,rate_pps,set,rx_usecs,rx_frames,changed\n"
	       "10000000,10000000,1000,100000,high,200,128,yes\n"
	       "20000000,10000000,10,1000,normal,20,16,yes\n");
}

/* ---- coalesce ----------------------------------------------------------- */

#define COAL_HDR "time_ns,packets,cause,wait_ns\n"

/* Absolute 250 us, arrivals every 100 us: 0, 100, 200 fire at 250;
 * 300, 400, 500 at 550.  Frames 4 without a timer: the 4th and 8th. */
static void test_coalesce_timer_frames(void **state)
{
	static const char in[] = "time_ns\n0\n100000\n200000\n300000\n400000\n500000\n";

	(void)state;
	expect("coalesce", "--rx-usecs 250 --rx-frames 100", in,
	       COAL_HDR "250000,3,timer,250000\n550000,3,timer,250000\n");
	expect("coalesce", "--rx-usecs 0 --rx-frames 4",
	       "time_ns\n0\n10000\n20000\n30000\n40000\n50000\n60000\n70000\n",
	       COAL_HDR "30000,4,frames,30000\n70000,4,frames,30000\n");
	/* A completion due at the very time the timer expires comes after the
	 * interrupt, as src/sim/nic.c lookahead() orders them: 0, 10, 20
	 * fire at 30 by the timer, and 30 starts the next group (-> 60). */
	expect("coalesce", "--rx-usecs 30 --rx-frames 4", "time_ns\n0\n10000\n20000\n30000\n",
	       COAL_HDR "30000,3,timer,30000\n60000,1,timer,30000\n");
}

/* Restart 50 us: 0, 30, 60 keep restarting it -> 110; 200 -> 250.
 * e1000 RDTR 10 (10.24 us, restart) + RADV 20 (20.48 us, absolute):
 * arrivals every 5 us keep RDTR from expiring, RADV fires at 20480 with
 * 5 frames; the lone 40000 fires by RDTR at 50240. */
static void test_coalesce_restart_rdtr(void **state)
{
	(void)state;
	expect("coalesce", "--timer restart --rx-usecs 50us --rx-frames 0",
	       "time_ns\n0\n30000\n60000\n200000\n",
	       COAL_HDR "110000,3,timer,110000\n250000,1,timer,50000\n");
	expect("coalesce", "--rdtr 10 --radv 20", "time_ns\n0\n5000\n10000\n15000\n20000\n40000\n",
	       COAL_HDR "20480,5,timer,20480\n50240,1,timer,10240\n");
}

/* ITR gap 100 us with per-frame interrupts: 0 fires; 10 and 20 are held
 * until 100 (itr-release); 150 is held until 200.  With a host that
 * re-enables 50 us after each interrupt: 0 fires; 10 and 20 arrive while
 * masked and fire at the re-enable (50); at 100 the re-enable comes first,
 * then the frame fires at once. */
static void test_coalesce_gap_service(void **state)
{
	(void)state;
	expect("coalesce", "--rx-usecs 0 --rx-frames 1 --itr-ns 100us",
	       "time_ns\n0\n10000\n20000\n150000\n",
	       COAL_HDR "0,1,frames,0\n100000,2,itr-release,90000\n200000,1,itr-release,50000\n");
	expect("coalesce", "--service-ns 50000", "time_ns\n0\n10000\n20000\n100000\n",
	       COAL_HDR "0,1,frames,0\n50000,2,frames,40000\n100000,1,frames,0\n");
}

/* ---- defer -------------------------------------------------------------- */

/* napi_defer_hard_irqs 2, gro_flush_timeout 20 us:
 *   0: IRQ; 3 packets reload the count to 2, one used: timer at 20.
 *   20: timer; empty: count 1 -> 0, timer at 40.
 *   40: timer; empty with count 0: re-arm the IRQ.
 *   90: IRQ; a full poll (64 = weight) stays scheduled.
 *   90.5: repoll; 5 packets: count 2 -> 1, timer at 110.5.
 *   200: the timer was due; empty: 1 -> 0, timer at 220.
 *   210: neither IRQ (masked) nor timer (220): "other"; 1 packet reloads
 *        the count: 2 -> 1, timer at 230. */
static void test_defer(void **state)
{
	(void)state;
	expect("defer", "--napi-defer-hard-irqs 2 --gro-flush-timeout 20us",
	       "time_ns,work\n0,3\n20000,0\n40000,0\n90000,64\n90500,5\n200000,0\n210000,1\n",
	       "time_ns,work,trigger,action,timer_at_ns,defer_left\n"
	       "0,3,irq,timer-armed,20000,1\n"
	       "20000,0,timer,timer-armed,40000,0\n"
	       "40000,0,timer,irq-rearmed,,0\n"
	       "90000,64,irq,repoll,,0\n"
	       "90500,5,repoll,timer-armed,110500,1\n"
	       "200000,0,timer,timer-armed,220000,0\n"
	       "210000,1,other,timer-armed,230000,1\n");
	/* No deferral (and gro_flush_timeout alone, GRO empty): IRQ each time. */
	expect("defer", "--gro-flush-timeout 20us --weight 8", "time_ns,work\n0,3\n10,8\n20,0\n",
	       "time_ns,work,trigger,action,timer_at_ns,defer_left\n"
	       "0,3,irq,irq-rearmed,,0\n10,8,irq,repoll,,0\n20,0,repoll,irq-rearmed,,0\n");
}

/* ---- errors ------------------------------------------------------------- */

static void test_errors_rows(void **state)
{
	(void)state;
	expect("dim", "", "time_ns,packets,bytes,events\n0,1,2,3\n10,1,12x,3\n",
	       "error: in.csv:3: column 'bytes': '12x' is not a whole number; accepted a decimal "
	       "integer 0..18446744073709551615");
	expect("dim", "", "time_ns,packets,bytes,events\n0,1,-2,3\n",
	       "error: in.csv:2: column 'bytes': '-2' is not a whole number; accepted a decimal "
	       "integer 0..18446744073709551615");
	expect("dim", "", "time_ns,packets,bytes,events\n0,18446744073709551616,2,3\n",
	       "error: in.csv:2: column 'packets': '18446744073709551616' is out of range; "
	       "accepted a decimal integer 0..18446744073709551615");
	expect("dim", "", "time_ns,packets,bytes,events\n0,1,2\n",
	       "error: in.csv:2: 3 columns, expected 4 (time_ns,packets,bytes,events)");
	expect("dim", "", "time_ns,packets,bytes,events\n# comment\n\n0,1,,3\n",
	       "error: in.csv:4: column 'bytes': '' is empty; accepted a decimal integer "
	       "0..18446744073709551615");
	expect("itr", "", "time_ns,rx_packets,rx_bytes,tx_packets,tx_bytes\n0,1,4294967296,0,0\n",
	       "error: in.csv:2: column 'rx_bytes': '4294967296' is out of range; accepted a "
	       "decimal integer 0..4294967295");
	expect("defer", "", "time_ns,work\n0,65\n",
	       "error: in.csv:2: column 'work': '65' is out of range; accepted a decimal integer "
	       "0..64");
}

static void test_errors_header_time(void **state)
{
	(void)state;
	expect("coalesce", "", "",
	       "error: in.csv:1: no header; the first line must be 'time_ns'");
	expect("defer", "", "time,work\n0,1\n",
	       "error: in.csv:1: header 'time,work' is not 'time_ns,work'");
	/* Blanks around names and CRLF line ends are accepted. */
	expect("defer", "", "time_ns, work\r\n0, 1\r\n",
	       "time_ns,work,trigger,action,timer_at_ns,defer_left\n0,1,irq,irq-rearmed,,0\n");
	expect("coalesce", "", "time_ns\n5000\n5000\n4999\n",
	       "error: in.csv:4: column 'time_ns': 4999 is earlier than 5000 on line 3; accepted "
	       "rows in time order (time never goes back)");
	expect("coalesce", "", "time_ns\n9223372036854775808\n",
	       "error: in.csv:2: column 'time_ns': '9223372036854775808' is out of range; "
	       "accepted a decimal integer 0..9223372036854775807");
}

static void test_errors_options(void **state)
{
	(void)state;
	expect("dim", "--profile rx", "", "error: --profile rx: accepted rx-eqe, rx-cqe, tx-eqe "
	       "or tx-cqe");
	expect("dim", "--start-ix 5", "", "error: --start-ix = 5 is out of range: accepted 0..4");
	expect("itr", "--mode 2", "", "error: --mode 2: accepted 0 (off), 1 (dynamic), 3 "
	       "(dynamic conservative), 4 (simplified) or fixed:N with N 100..100000 ints/s");
	expect("coalesce", "--rx-usecs 0 --rx-frames 0", "time_ns\n",
	       "error: coalescing options: rx-usecs and rx-frames are both 0; to disable "
	       "coalescing set rx-usecs 0 rx-frames 1");
	expect("coalesce", "--radv 5", "time_ns\n",
	       "error: coalescing options: --radv needs --rdtr > 0 (RxIntDelay 0 disables "
	       "RxAbsIntDelay)");
	expect("defer", "--gro-flush-timeout 20", "",
	       "error: --gro-flush-timeout = 20: missing unit; write e.g. 20ms (units: ns, us, "
	       "ms, s)");
	expect("adaptive", "--pkt-rate-low 5kpps --pkt-rate-high 1kpps", "time_ns,packets,bytes,"
	       "events\n", "error: adaptive options: pkt_rate_low must be <= pkt_rate_high");
	expect("defer", "--rx-usecs 5", "", "error: unknown option --rx-usecs for 'replay defer' "
	       "(see docs/replay.md)");
	expect("defer", "--weight 0", "", "error: --weight = 0 is out of range: accepted 1..64");
}

/* An option without its value, and no input file at all. */
static void test_errors_args(void **state)
{
	struct replay_opts o;
	char err[256], *argv1[] = { "--weight" }, *argv2[] = { "a.csv", "b.csv" };
	const char *file;

	(void)state;
	replay_opts_default(&o, REPLAY_DEFER);
	assert_int_equal(replay_parse_args(&o, 1, argv1, &file, err, sizeof(err)), -1);
	assert_string_equal(err, "missing value after --weight");
	assert_int_equal(replay_parse_args(&o, 0, argv1, &file, err, sizeof(err)), -1);
	assert_string_equal(err, "replay defer needs an input file (or - for standard input)");
	assert_int_equal(replay_parse_args(&o, 2, argv2, &file, err, sizeof(err)), -1);
	assert_string_equal(err, "more than one input file: a.csv and b.csv");
}

/* ---- the simulator and the replay on the same completions --------------- */

/* A classic-path host with one port and no route (local delivery, so no
 * TX interrupts), 64 B frames at a constant 10 kpps.  Frame k completes
 * (DMA written back) at k * 100 us + wire (672 ns) + dma-fixed + 64 B of
 * dma-per-byte: the replay gets exactly those times.  The classic ISR
 * reads the cause register at once and re-enables the line within a few
 * microseconds, long before the next frame: the replay's infinitely fast
 * host.  Windows end between interrupts, so both count the same ones. */
static const char CMP_INI[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"rxpath = classic\n"
	"[nic eth0]\n"
	"[traffic]\n"
	"port = eth0\n"
	"pattern = constant\n"
	"rate = 10kpps\n"
	"frame-size = 64\n"
	"[run]\n"
	"duration = 9.95ms\n";

#define CMP_PERIOD_NS 100000
#define CMP_DURATION_NS 9950000

struct cmp_case {
	const char *sets[4];    /* scenario overrides */
	const char *args;       /* the same as replay options */
	uint64_t irqs;          /* hand count, both must agree */
};

/* Replay rows with time_ns < CMP_DURATION_NS: count and packets. */
static void count_rows(const char *csv, uint64_t *irqs, uint64_t *pkts)
{
	const char *p = strchr(csv, '\n');

	*irqs = *pkts = 0;
	while (p && p[1]) {
		long long t;
		unsigned long long n;

		assert_int_equal(sscanf(p + 1, "%lld,%llu,", &t, &n), 2);
		if (t < CMP_DURATION_NS)
			(*irqs)++, *pkts += n;
		p = strchr(p + 1, '\n');
	}
}

static void compare_case(const struct cmp_case *k)
{
	struct scenario *scn = calloc(1, sizeof(*scn));
	struct sim *s = calloc(1, sizeof(*s));
	struct results r;
	struct text x;
	char err[512], *in, *out;
	size_t n_sets = 0;
	int64_t delta;
	uint64_t irqs, pkts;

	while (k->sets[n_sets])
		n_sets++;
	assert_int_equal(scenario_load_text(scn, CMP_INI, "cmp.ini", k->sets, n_sets, err,
					    sizeof(err)), 0);
	assert_int_equal(sim_init(s, scn), 0);
	assert_int_equal(sim_run(s), 0);
	assert_int_equal(results_collect(&r, s), 0);
	delta = 672 + scn->profile.dma_fixed_ns + 64 * scn->profile.dma_ps_per_byte / 1000;
	text_open(&x, "time_ns");
	for (int64_t t = 0; t + delta < CMP_DURATION_NS; t += CMP_PERIOD_NS)
		fprintf(x.f, "%lld\n", (long long)(t + delta));
	in = text_close(&x);
	out = replay("coalesce", k->args, in);
	count_rows(out, &irqs, &pkts);
	if (irqs != r.nic[0].c.rx_irqs || irqs != k->irqs || pkts != r.nic[0].c.rx_taken)
		print_error("%s: replay %llu irqs %llu pkts, simulator %llu irqs %llu taken, "
			    "hand %llu\n%s", k->args, (unsigned long long)irqs,
			    (unsigned long long)pkts, (unsigned long long)r.nic[0].c.rx_irqs,
			    (unsigned long long)r.nic[0].c.rx_taken, (unsigned long long)k->irqs,
			    out);
	assert_int_equal(irqs, r.nic[0].c.rx_irqs);
	assert_int_equal(irqs, k->irqs);
	assert_int_equal(pkts, r.nic[0].c.rx_taken);
	free(in);
	free(out);
	results_free(&r);
	sim_free(s);
	free(s);
	free(scn);
}

/* 100 frames complete before 9.95 ms (k = 0..99).
 *   rx-usecs 250 absolute: groups of 3 fire at 300j + 250 (+delta): j <=
 *     32 -> 33 (frame 99 alone would fire at 10150).
 *   rx-frames 4: at frames 3, 7, ..., 99 -> 25.
 *   restart 50 us: every frame after 50 us of quiet, frame 99 at 9950 +
 *     delta is past the end -> 99.
 *   per-frame with a 250 us minimum gap: every 250 us from the first, at
 *     250j + delta <= 9.95 ms -> j = 0..39 -> 40.
 *   no moderation: 100. */
static void test_sim_vs_replay(void **state)
{
	static const struct cmp_case cases[] = {
		{ { "nic.eth0.rx-usecs=250", "nic.eth0.rx-frames=100", NULL },
		  "--rx-usecs 250 --rx-frames 100", 33 },
		{ { "nic.eth0.rx-usecs=0", "nic.eth0.rx-frames=4", NULL },
		  "--rx-usecs 0 --rx-frames 4", 25 },
		{ { "nic.eth0.rx-usecs=50", "nic.eth0.rx-frames=0", "nic.eth0.cqe-mode-rx=on", NULL },
		  "--rx-usecs 50 --rx-frames 0 --timer restart", 99 },
		{ { "nic.eth0.min-irq-interval=250us", NULL }, "--itr-ns 250000", 40 },
		{ { "nic.eth0.rx-frames=1", NULL }, "", 100 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		compare_case(&cases[i]);
}

/* Mode 4's 2 s watchdog across a gap of centuries and up to INT64_MAX:
 * no overflow, no billions of runs, and the rows of a short gap (what
 * the code printed before the long-gap skip, run by run). */
static void test_itr_watchdog_gaps(void **state)
{
	static const char hdr[] = "time_ns,rx_class,tx_class,target_ints_per_s,itr_ints_per_s,reg,"
				  "gap_ns,changed\n";
	char want[512];

	(void)state;
	snprintf(want, sizeof(want), "%s0,,,8000,8000,488,124928,no\n"
		 "1000000000,,,8000,8000,488,124928,no\n100000000000,,,8000,8000,488,124928,no\n"
		 "100000000001,,,8000,8000,488,124928,no\n", hdr);
	expect("itr", "--mode 4", "time_ns,rx_packets,rx_bytes,tx_packets,tx_bytes\n0,10,640,0,0\n"
	       "1000000000,100,150000,1,64\n100000000000,10,640,0,0\n100000000001,10,640,5,64000\n",
	       want);
	snprintf(want, sizeof(want), "%s0,,,8000,8000,488,124928,no\n"
		 "1000000000,,,8000,8000,488,124928,no\n"
		 "9000000000000000000,,,8000,8000,488,124928,no\n"
		 "9223372036854775807,,,8000,8000,488,124928,no\n", hdr);
	expect("itr", "--mode 4", "time_ns,rx_packets,rx_bytes,tx_packets,tx_bytes\n0,10,640,0,0\n"
	       "1000000000,100,150000,1,64\n9000000000000000000,10,640,0,0\n"
	       "9223372036854775807,10,640,5,64000\n", want);
}

/* The reader's text rules: BOM, CRLF, CR-only, control characters. */
static void test_reader_text(void **state)
{
	(void)state;
	expect("coalesce", "--format csv", "\xef\xbb\xbftime_ns\r\n5\r\n",
	       "time_ns,packets,cause,wait_ns\n5,1,frames,0\n");
	expect("coalesce", "", "time_ns\r5\r", "error: in.csv:1: CR-only line ends (a carriage "
	       "return without a line feed); save the file with LF or CRLF line ends");
	expect("coalesce", "", "time_ns\n5\x01\n", "error: in.csv:2: contains the control "
	       "character 0x01; expected a text line");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dim_windows),
		cmocka_unit_test(test_dim_wrap),
		cmocka_unit_test(test_dim_zero_window),
		cmocka_unit_test(test_itr_mode3),
		cmocka_unit_test(test_itr_mode1_and_speed),
		cmocka_unit_test(test_itr_simplified_and_fixed),
		cmocka_unit_test(test_adaptive_sets),
		cmocka_unit_test(test_adaptive_options_wrap),
		cmocka_unit_test(test_coalesce_timer_frames),
		cmocka_unit_test(test_coalesce_restart_rdtr),
		cmocka_unit_test(test_coalesce_gap_service),
		cmocka_unit_test(test_defer),
		cmocka_unit_test(test_errors_rows),
		cmocka_unit_test(test_errors_header_time),
		cmocka_unit_test(test_errors_options),
		cmocka_unit_test(test_errors_args),
		cmocka_unit_test(test_sim_vs_replay),
		cmocka_unit_test(test_itr_watchdog_gaps),
		cmocka_unit_test(test_reader_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
