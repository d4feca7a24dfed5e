/* test_units.c - values with units: exact decimals, every kind, every error.
 *
 * Expected values are worked out by hand: "1.2Mpps" is 12 * 10^5, never
 * a rounded double.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "model/units.h"

static char why[256];

/* Parse @text as @kind, expecting success with value @want. */
static void ok(enum unit_kind kind, const char *text, uint64_t want)
{
	uint64_t v = 0xdeadbeef;

	why[0] = '\0';
	if (unit_parse(kind, text, &v, why, sizeof(why)) != UNIT_OK)
		print_error("'%s': unexpected error: %s\n", text, why);
	assert_int_equal(unit_parse(kind, text, &v, why, sizeof(why)), UNIT_OK);
	assert_int_equal(v, want);
}

/* Parse @text as @kind, expecting @st and the explanation @msg. */
static void fails(enum unit_kind kind, const char *text, enum unit_status st, const char *msg)
{
	uint64_t v = 77;

	why[0] = '\0';
	assert_int_equal(unit_parse(kind, text, &v, why, sizeof(why)), st);
	assert_string_equal(why, msg);
	assert_int_equal(v, 77); /* untouched on error */
}

static void test_time_ns(void **state)
{
	(void)state;
	ok(UNIT_TIME_NS, "2.5us", 2500);
	ok(UNIT_TIME_NS, "1s", 1000000000ULL);
	ok(UNIT_TIME_NS, "0.1s", 100000000ULL);
	ok(UNIT_TIME_NS, "1.5 ms", 1500000);
	ok(UNIT_TIME_NS, "  4ms  ", 4000000);
	ok(UNIT_TIME_NS, "7ns", 7);
	ok(UNIT_TIME_NS, "0.000000001s", 1);
	ok(UNIT_TIME_NS, "1.50000000000000000000000000s", 1500000000ULL);
	ok(UNIT_TIME_NS, "0", 0);
	ok(UNIT_TIME_NS, "0.0", 0);
	ok(UNIT_TIME_NS, "3\xc2\xb5s", 3000); /* µs */
	fails(UNIT_TIME_NS, "0.5ns", UNIT_E_FRACTION, "not a whole number of nanoseconds");
	fails(UNIT_TIME_NS, "0.0000000001s", UNIT_E_FRACTION, "not a whole number of nanoseconds");
	fails(UNIT_TIME_NS, "5", UNIT_E_NOUNIT, "missing unit (units: ns, us, ms, s)");
	fails(UNIT_TIME_NS, "5Mbit", UNIT_E_WRONGKIND, "not a time; use ns, us, ms or s");
	fails(UNIT_TIME_NS, "5kpps", UNIT_E_WRONGKIND, "not a time; use ns, us, ms or s");
	fails(UNIT_TIME_NS, "5MS", UNIT_E_BADUNIT, "unknown unit 'MS'; did you mean 'ms'?");
	fails(UNIT_TIME_NS, "5sec", UNIT_E_BADUNIT, "unknown unit 'sec'; use ns, us, ms or s");
	fails(UNIT_TIME_NS, "5ps", UNIT_E_BADUNIT, "unknown unit 'ps'; use ns, us, ms or s");
}

static void test_time_us_bare(void **state)
{
	(void)state;
	/* rx-usecs style: a bare number is microseconds, units still work */
	ok(UNIT_TIME_US, "8", 8000);
	ok(UNIT_TIME_US, "0.5", 500);
	ok(UNIT_TIME_US, "2000", 2000000);
	ok(UNIT_TIME_US, "8ns", 8);
	ok(UNIT_TIME_US, "1ms", 1000000);
	fails(UNIT_TIME_US, "0.0005", UNIT_E_FRACTION, "not a whole number of nanoseconds");
}

static void test_time_ps(void **state)
{
	(void)state;
	ok(UNIT_TIME_PS, "8ns", 8000);
	ok(UNIT_TIME_PS, "8000ps", 8000);
	ok(UNIT_TIME_PS, "0.5ns", 500);
	ok(UNIT_TIME_PS, "1us", 1000000);
	ok(UNIT_TIME_PS, "0", 0);
	fails(UNIT_TIME_PS, "0.0005ns", UNIT_E_FRACTION, "not a whole number of picoseconds");
	fails(UNIT_TIME_PS, "8", UNIT_E_NOUNIT, "missing unit (units: ps, ns, us)");
	fails(UNIT_TIME_PS, "1ms", UNIT_E_BADUNIT, "unknown unit 'ms'; use ps, ns or us");
}

static void test_packet_rate(void **state)
{
	(void)state;
	ok(UNIT_PPS, "1.2Mpps", 1200000);
	ok(UNIT_PPS, "890kpps", 890000);
	ok(UNIT_PPS, "14.88Mpps", 14880000);
	ok(UNIT_PPS, "1.488095Mpps", 1488095);
	ok(UNIT_PPS, "100pps", 100);
	fails(UNIT_PPS, "5Mbit", UNIT_E_WRONGKIND, "not a packet rate; use pps, kpps or Mpps");
	fails(UNIT_PPS, "1.2mpps", UNIT_E_BADUNIT, "unknown unit 'mpps'; did you mean 'Mpps'?");
	fails(UNIT_PPS, "0.5pps", UNIT_E_FRACTION, "not a whole number of packets per second");
	fails(UNIT_PPS, "1.4880955Mpps", UNIT_E_FRACTION,
	      "not a whole number of packets per second");
	fails(UNIT_PPS, "1000", UNIT_E_NOUNIT, "missing unit (units: pps, kpps, Mpps)");
}

static void test_bit_rate(void **state)
{
	(void)state;
	ok(UNIT_BPS, "1Gbit", 1000000000ULL);
	ok(UNIT_BPS, "2.5Gbit", 2500000000ULL);
	ok(UNIT_BPS, "100Mb/s", 100000000ULL);
	ok(UNIT_BPS, "100Mbit/s", 100000000ULL);
	ok(UNIT_BPS, "10Gbps", 10000000000ULL);
	ok(UNIT_BPS, "64kbit", 64000);
	ok(UNIT_BPS, "9600bit", 9600);
	fails(UNIT_BPS, "1kpps", UNIT_E_WRONGKIND, "not a bit rate; use bit, kbit, Mbit or Gbit");
	fails(UNIT_BPS, "1MiB", UNIT_E_WRONGKIND, "not a bit rate; use bit, kbit, Mbit or Gbit");
	fails(UNIT_BPS, "1gbit", UNIT_E_BADUNIT, "unknown unit 'gbit'; did you mean 'Gbit'?");
}

static void test_bytes(void **state)
{
	(void)state;
	ok(UNIT_BYTES, "48KiB", 49152);
	ok(UNIT_BYTES, "1.5KiB", 1536);
	ok(UNIT_BYTES, "64MiB", 67108864ULL);
	ok(UNIT_BYTES, "1GiB", 1073741824ULL);
	ok(UNIT_BYTES, "2kB", 2000);
	ok(UNIT_BYTES, "2MB", 2000000);
	ok(UNIT_BYTES, "64", 64);
	ok(UNIT_BYTES, "64B", 64);
	fails(UNIT_BYTES, "0.1KiB", UNIT_E_FRACTION, "not a whole number of bytes");
	fails(UNIT_BYTES, "1.5", UNIT_E_FRACTION, "not a whole number of bytes");
	fails(UNIT_BYTES, "2kiB", UNIT_E_BADUNIT, "unknown unit 'kiB'; did you mean 'KiB'?");
	fails(UNIT_BYTES, "5ms", UNIT_E_WRONGKIND,
	      "not a size; use B, KiB, MiB, GiB, kB, MB or GB");
}

static void test_count(void **state)
{
	(void)state;
	ok(UNIT_COUNT, "0", 0);
	ok(UNIT_COUNT, "65536", 65536);
	ok(UNIT_COUNT, "1.0", 1);
	ok(UNIT_COUNT, "18446744073709551615", UINT64_MAX);
	fails(UNIT_COUNT, "12abc", UNIT_E_GARBAGE,
	      "unexpected 'abc' after the number; write a plain number");
	fails(UNIT_COUNT, "12 ms", UNIT_E_GARBAGE,
	      "unexpected 'ms' after the number; write a plain number");
	fails(UNIT_COUNT, "1.5", UNIT_E_FRACTION, "not a whole number");
	fails(UNIT_COUNT, "-1", UNIT_E_NEGATIVE, "negative values are not accepted");
	fails(UNIT_COUNT, "abc", UNIT_E_NOTNUM, "not a number");
	fails(UNIT_COUNT, "", UNIT_E_NOTNUM, "not a number");
	fails(UNIT_COUNT, "5.", UNIT_E_NOTNUM, "not a number");
	fails(UNIT_COUNT, ".5", UNIT_E_NOTNUM, "not a number");
	fails(UNIT_COUNT, "+5", UNIT_E_NOTNUM, "not a number");
}

static void test_overflow(void **state)
{
	(void)state;
	fails(UNIT_COUNT, "18446744073709551616", UNIT_E_OVERFLOW, "too large");
	fails(UNIT_COUNT, "99999999999999999999999", UNIT_E_OVERFLOW, "too large");
	/* fits as a number, overflows once scaled */
	fails(UNIT_TIME_NS, "18446744074s", UNIT_E_OVERFLOW, "too large");
	ok(UNIT_TIME_NS, "18446744073s", 18446744073000000000ULL);
	fails(UNIT_BPS, "18446744074Gbit", UNIT_E_OVERFLOW, "too large");
	fails(UNIT_BYTES, "17179869184GiB", UNIT_E_OVERFLOW, "too large");
	/* a nonzero digit past the 19th decimal place is never whole */
	fails(UNIT_TIME_NS, "1.00000000000000000000001s", UNIT_E_FRACTION,
	      "not a whole number of nanoseconds");
}

static void key_fails(enum unit_kind kind, const char *key, const char *text, uint64_t min,
                      uint64_t max, const char *noun, const char *msg)
{
	char m[256] = "";
	uint64_t v = 5;

	assert_int_equal(unit_parse_key(kind, key, text, min, max, noun, &v, m, sizeof(m)), -1);
	assert_string_equal(m, msg);
	assert_int_equal(v, 5);
}

static void test_parse_key_messages(void **state)
{
	char m[256];
	uint64_t v = 0;

	(void)state;
	assert_int_equal(unit_parse_key(UNIT_COUNT, "rx-ring", "512", 1, 65536, "descriptors", &v,
	                                m, sizeof(m)), 0);
	assert_int_equal(v, 512);
	key_fails(UNIT_COUNT, "rx-ring", "0", 1, 65536, "descriptors",
	          "rx-ring = 0 is out of range: accepted 1..65536 descriptors");
	key_fails(UNIT_COUNT, "rx-ring", "12abc", 1, 65536, "descriptors",
	          "rx-ring = 12abc: unexpected 'abc' after the number; write a plain number "
	          "(accepted 1..65536 descriptors)");
	key_fails(UNIT_COUNT, "rx-ring", "many", 1, 65536, "descriptors",
	          "rx-ring = many: not a number; accepted 1..65536 descriptors");
	key_fails(UNIT_TIME_NS, "duration", "5", 1000, 3600000000000ULL, NULL,
	          "duration = 5: missing unit; write e.g. 5s (units: ns, us, ms, s)");
	key_fails(UNIT_TIME_NS, "min-irq-interval", "8", 0, 100000000ULL, NULL,
	          "min-irq-interval = 8: missing unit; write e.g. 8ms (units: ns, us, ms, s)");
	key_fails(UNIT_PPS, "rate", "5Mbit", 1, 1000000000ULL, NULL,
	          "rate = 5Mbit: not a packet rate; use pps, kpps or Mpps (accepted 1pps..1000Mpps)");
	key_fails(UNIT_TIME_US, "rx-usecs", "-5", 0, 10000000000ULL, NULL,
	          "rx-usecs = -5 is out of range: accepted 0..10s");
	key_fails(UNIT_TIME_US, "rx-usecs", "20000000", 0, 10000000000ULL, NULL,
	          "rx-usecs = 20000000 is out of range: accepted 0..10s");
	key_fails(UNIT_TIME_US, "netdev_budget_usecs", "0", 1000, 10000000000ULL, NULL,
	          "netdev_budget_usecs = 0 is out of range: accepted 1us..10s");
	key_fails(UNIT_COUNT, "seed", "18446744073709551616", 0, UINT64_MAX, NULL,
	          "seed = 18446744073709551616 is out of range: accepted 0..18446744073709551615");
	key_fails(UNIT_BYTES, "rx-fifo", "1KiB", 2048, 64 * 1048576ULL, NULL,
	          "rx-fifo = 1KiB is out of range: accepted 2KiB..64MiB");
	key_fails(UNIT_BPS, "speed", "900Gbit", 1000000, 800000000000ULL, NULL,
	          "speed = 900Gbit is out of range: accepted 1Mbit..800Gbit");
	key_fails(UNIT_TIME_NS, "min-irq-interval", "0.5ns", 0, 100000000ULL, NULL,
	          "min-irq-interval = 0.5ns: not a whole number of nanoseconds (accepted 0..100ms)");
}

static void test_format(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(unit_format(UNIT_TIME_NS, 2000000, b, sizeof(b)), "2ms");
	assert_string_equal(unit_format(UNIT_TIME_NS, 1500, b, sizeof(b)), "1500ns");
	assert_string_equal(unit_format(UNIT_TIME_US, 3600000000000ULL, b, sizeof(b)), "3600s");
	assert_string_equal(unit_format(UNIT_TIME_NS, 0, b, sizeof(b)), "0");
	assert_string_equal(unit_format(UNIT_TIME_PS, 8000, b, sizeof(b)), "8ns");
	assert_string_equal(unit_format(UNIT_BYTES, 49152, b, sizeof(b)), "48KiB");
	assert_string_equal(unit_format(UNIT_BYTES, 64, b, sizeof(b)), "64B");
	assert_string_equal(unit_format(UNIT_PPS, 1200000, b, sizeof(b)), "1200kpps");
	assert_string_equal(unit_format(UNIT_BPS, 800000000000ULL, b, sizeof(b)), "800Gbit");
	assert_string_equal(unit_format(UNIT_COUNT, 65536, b, sizeof(b)), "65536");
	assert_string_equal(unit_list(UNIT_PPS), "pps, kpps, Mpps");
	assert_string_equal(unit_list(UNIT_COUNT), "");
}

static void test_bool(void **state)
{
	static const char *const yes[] = { "on", "yes", "true", "1", "ON", " True " };
	static const char *const no[] = { "off", "no", "false", "0", "Off" };
	bool b;

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		assert_int_equal(unit_parse_bool(yes[i], &b), 0);
		assert_true(b);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = true;
		assert_int_equal(unit_parse_bool(no[i], &b), 0);
		assert_false(b);
	}
	assert_int_equal(unit_parse_bool("maybe", &b), -1);
	assert_int_equal(unit_parse_bool("2", &b), -1);
	assert_int_equal(unit_parse_bool("", &b), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_ns),
		cmocka_unit_test(test_time_us_bare),
		cmocka_unit_test(test_time_ps),
		cmocka_unit_test(test_packet_rate),
		cmocka_unit_test(test_bit_rate),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_parse_key_messages),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_bool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
