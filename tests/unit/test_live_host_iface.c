/* test_live_host_iface.c - which interface names rxlab takes
 * (rxl_ifname_check(), include/rxlab/live.h) and which interfaces are the
 * host's own connection (host_iface_use(), live/host_iface.h), on copies
 * of /proc/net/route and /proc/net/ipv6_route text: no real interface is
 * looked at. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/rtnetlink.h>

#include "live/host_iface.h"
#include "rxlab/live.h"

static char err[512];

static void test_ifname_accepted(void **state)
{
	static const char *const good[] = { "eth0", "lo", "enp3s0f1", "veth-rx.2", "wlan0@x",
					    "br_lan", "a", "abcdefghijklmno", NULL };

	(void)state;
	for (size_t i = 0; good[i]; i++)
		if (rxl_ifname_check(good[i], err, sizeof(err))) {
			print_error("'%s' refused: %s\n", good[i], err);
			fail();
		}
}

static void refused(const char *name, const char *why)
{
	assert_int_equal(rxl_ifname_check(name, err, sizeof(err)), -1);
	if (!strstr(err, why)) {
		print_error("'%s': message '%s' lacks '%s'\n", name, err, why);
		fail();
	}
}

static void test_ifname_refused(void **state)
{
	(void)state;
	refused("", "is not valid");
	refused(".", "is not valid");
	refused("..", "is not valid");
	refused("abcdefghijklmnop", "16 bytes long: Linux names are at most 15 bytes");
	refused("abcdefghijabcdefghijabcdefghijabcdefghij", "40 bytes long");
	refused("eth0;touch x", "byte 5 (';') is refused: it is a shell metacharacter");
	refused("a/b", "byte 2 ('/') is refused: '/' separates");
	refused("eth0:1", "byte 5 (':') is refused");
	refused("a b", "byte 2 (' ') is refused: white space");
	refused("a\tb", "byte 2 (\\x09) is refused: white space");
	refused("a\nb", "interface name 'a\\x0ab'");
	refused("\x1b[31m", "byte 1 (\\x1b) is refused: only printable ASCII");
	refused("caf\xc3\xa9", "byte 4 (\\xc3) is refused: only printable ASCII");
	refused("-x", "a leading '-' would read as an option");
	refused("$(id)", "byte 1 ('$')");
	refused("a`b`", "byte 2 ('`')");
	refused("it's", "byte 3 (''')");
	refused("x>y", "byte 2 ('>')");
}

static void no_batch(void *arg, const struct rxl_pkt *pkts, size_t n)
{
	(void)arg;
	(void)pkts;
	(void)n;
}

/* The library checks a name it is given before it does anything with it. */
static void test_open_xdp_checks_name(void **state)
{
	struct rxl_config c;

	(void)state;
	rxl_config_default(&c, RXL_MODE_AF_XDP);
	assert_null(rxl_open_xdp("eth0;touch x", 0, &c, no_batch, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "byte 5 (';') is refused"));
	assert_null(rxl_open_xdp("../../x", 0, &c, no_batch, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "'/' separates"));
}

/* /proc text as this kind of host shows it (TEST-NET addresses). */
static const char route4[] =
	"Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
	"eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
	"eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
	"veth1\t0000000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";

static const char route6[] =
	"fd000000000000000000000000000000 40 00000000000000000000000000000000 00 "
	"00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0\n"
	"00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
	"fd000000000000000000000000000001 00000400 00000002 00000000 00000003     eth6\n"
	"00000000000000000000000000000001 80 00000000000000000000000000000000 00 "
	"00000000000000000000000000000000 00000000 00000002 00000000 80200001       lo\n"
	"00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
	"00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo\n";

static struct host_addr addr(int ifindex, int family, const char *text, uint8_t prefix,
			     uint8_t scope)
{
	struct host_addr a = { .ifindex = ifindex, .family = (uint8_t)family, .prefix = prefix,
			       .scope = scope };

	assert_int_equal(inet_pton(family, text, a.addr), 1);
	return a;
}

static void test_default_routes(void **state)
{
	(void)state;
	assert_int_equal(host_iface_use("eth0", 4, route4, NULL, NULL, 0, err, sizeof(err)), 1);
	assert_string_equal(err, "the IPv4 default route (0.0.0.0/0 via 192.0.2.1)");
	assert_int_equal(host_iface_use("eth6", 5, NULL, route6, NULL, 0, err, sizeof(err)), 1);
	assert_string_equal(err, "the IPv6 default route (::/0 via fd00::1)");
	/* a route to a subnet is not a default route; lo's unreachable ::/0
	 * (RTF_REJECT) routes nothing */
	assert_int_equal(host_iface_use("veth1", 6, route4, route6, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(host_iface_use("lo", 1, route4, route6, NULL, 0, err, sizeof(err)), 0);
	/* a route that is not up */
	assert_int_equal(host_iface_use("eth9", 9, "Iface\n"
					"eth9\t00000000\t00000000\t0000\t0\t0\t0\t00000000\t0\t0\t0\n",
					NULL, NULL, 0, err, sizeof(err)), 0);
	/* a default route without a gateway (dev only) */
	assert_int_equal(host_iface_use("tun0", 9, "Iface\n"
					"tun0\t00000000\t00000000\t0001\t0\t0\t0\t00000000\t0\t0\t0\n",
					NULL, NULL, 0, err, sizeof(err)), 1);
	assert_string_equal(err, "the IPv4 default route (0.0.0.0/0)");
}

static void test_addresses(void **state)
{
	struct host_addr a[] = {
		addr(1, AF_INET, "127.0.0.1", 8, RT_SCOPE_HOST),
		addr(1, AF_INET6, "::1", 128, RT_SCOPE_HOST),
		addr(4, AF_INET6, "fe80::fc:ff:fe00:1", 64, RT_SCOPE_LINK),
		addr(4, AF_INET, "192.0.2.2", 24, RT_SCOPE_UNIVERSE),
		addr(7, AF_INET6, "fd00::7", 64, RT_SCOPE_UNIVERSE),
		addr(8, AF_INET, "10.9.0.1", 16, RT_SCOPE_SITE),
	};
	size_t n = sizeof(a) / sizeof(a[0]);

	(void)state;
	/* lo with host-scope addresses only is not the host's connection */
	assert_int_equal(host_iface_use("lo", 1, route4, route6, a, n, err, sizeof(err)), 0);
	assert_int_equal(host_iface_use("eth1", 4, NULL, NULL, a, n, err, sizeof(err)), 1);
	assert_string_equal(err, "the global address 192.0.2.2/24");
	assert_int_equal(host_iface_use("eth7", 7, NULL, NULL, a, n, err, sizeof(err)), 1);
	assert_string_equal(err, "the global address fd00::7/64");
	assert_int_equal(host_iface_use("eth8", 8, NULL, NULL, a, n, err, sizeof(err)), 1);
	assert_string_equal(err, "the site-scope address 10.9.0.1/16");
	/* an interface with a link-local address only */
	assert_int_equal(host_iface_use("eth4", 4, NULL, NULL, &a[2], 1, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifname_accepted),
		cmocka_unit_test(test_ifname_refused),
		cmocka_unit_test(test_open_xdp_checks_name),
		cmocka_unit_test(test_default_routes),
		cmocka_unit_test(test_addresses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
