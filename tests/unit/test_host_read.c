/* test_host_read.c - the parsers of what `rxlab host` reads
 * (live/host_read.h), on copies of kernel text: /proc/cpuinfo of an x86
 * and an arm64 guest, cpulists of /sys/devices/system/cpu/online and
 * smp_affinity_list, rps_cpus masks.  No file of this machine is read. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "live/host_read.h"

static void test_cpulist(void **state)
{
	(void)state;
	assert_int_equal(host_cpulist_count("0-1\n"), 2);
	assert_int_equal(host_cpulist_count("0\n"), 1);
	assert_int_equal(host_cpulist_count("0-3,8,10-11\n"), 7);
	assert_int_equal(host_cpulist_count("0-55"), 56);
	assert_int_equal(host_cpulist_count("\n"), 0);
	assert_int_equal(host_cpulist_count("3-1"), -1);
	assert_int_equal(host_cpulist_count("0-"), -1);
	assert_int_equal(host_cpulist_count("a"), -1);
	assert_int_equal(host_cpulist_count("0,,1"), -1);
	assert_int_equal(host_cpulist_count("0 1"), -1);
}

/* The first lines of this machine's /proc/cpuinfo (a Firecracker guest on
 * an EPYC host) and of an Ice Lake-SP server. */
static const char amd[] =
	"processor\t: 0\n"
	"vendor_id\t: AuthenticAMD\n"
	"cpu family\t: 25\n"
	"model\t\t: 1\n"
	"model name\t: AMD EPYC\n"
	"stepping\t: 1\n"
	"\n"
	"processor\t: 1\n"
	"vendor_id\t: AuthenticAMD\n"
	"model name\t: AMD EPYC\n";
static const char intel[] =
	"processor\t: 0\n"
	"vendor_id\t: GenuineIntel\n"
	"cpu family\t: 6\n"
	"model\t\t: 106\n"
	"model name\t: Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz\n";
static const char arm[] =
	"processor\t: 0\n"
	"BogoMIPS\t: 50.00\n"
	"CPU implementer\t: 0x41\n"
	"CPU part\t: 0xd0c\n";

static void test_cpuinfo(void **state)
{
	char s[96];

	(void)state;
	assert_int_equal(host_cpuinfo_field(amd, "vendor_id", s, sizeof(s)), 0);
	assert_string_equal(s, "AuthenticAMD");
	assert_int_equal(host_cpuinfo_field(amd, "model name", s, sizeof(s)), 0);
	assert_string_equal(s, "AMD EPYC");
	/* "model" is not "model name": the first exact key wins */
	assert_int_equal(host_cpuinfo_field(intel, "model", s, sizeof(s)), 0);
	assert_string_equal(s, "106");
	assert_int_equal(host_cpuinfo_field(intel, "model name", s, sizeof(s)), 0);
	assert_string_equal(s, "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz");
	assert_int_equal(host_cpuinfo_field(arm, "model name", s, sizeof(s)), -1);
	assert_int_equal(host_cpuinfo_field(arm, "CPU implementer", s, sizeof(s)), 0);
	assert_string_equal(s, "0x41");
	/* truncated to the buffer, never past it */
	assert_int_equal(host_cpuinfo_field(intel, "model name", s, 6), 0);
	assert_string_equal(s, "Intel");
}

static void mask(const char *m, const char *want)
{
	char s[64];

	assert_int_equal(host_mask_to_list(m, s, sizeof(s)), 0);
	assert_string_equal(s, want);
}

static void test_mask(void **state)
{
	char s[4];

	(void)state;
	mask("0\n", "");
	mask("f\n", "0-3");
	mask("00000000,0000000f\n", "0-3");
	mask("5\n", "0,2");
	mask("00000001,00000001\n", "0,32");
	mask("ff00\n", "8-15");
	mask("80000000\n", "31");
	assert_int_equal(host_mask_to_list("xyz", s, sizeof(s)), -1);
	assert_int_equal(host_mask_to_list("", s, sizeof(s)), -1);
	/* "0-3,8-11" does not fit 4 bytes: refused, not cut */
	assert_int_equal(host_mask_to_list("f0f", s, sizeof(s)), -1);
}

static void test_u64(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(host_parse_u64("300\n", &v), 0);
	assert_int_equal(v, 300);
	assert_int_equal(host_parse_u64("20000", &v), 0);
	assert_int_equal(v, 20000);
	assert_int_equal(host_parse_u64("", &v), -1);
	assert_int_equal(host_parse_u64("-1\n", &v), -1);
	assert_int_equal(host_parse_u64("12 13\n", &v), -1);
	assert_int_equal(host_parse_u64("busy-poll\n", &v), -1);
	assert_int_equal(host_parse_u64("99999999999999999999999\n", &v), -1);
}

static void test_sysctl_names(void **state)
{
	(void)state;
	assert_string_equal(host_sysctl_name(HOST_NETDEV_BUDGET), "net.core.netdev_budget");
	assert_string_equal(host_sysctl_name(HOST_BUSY_READ), "net.core.busy_read");
	assert_string_equal(host_sysctl_name(HOST_RPS_SOCK_FLOW_ENTRIES),
			    "net.core.rps_sock_flow_entries");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_cpuinfo),
		cmocka_unit_test(test_mask),
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_sysctl_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
