/* col_units.c - the unit of an output column (see col_units.h).
 *
 * Two lists: keys a table names as the imitated tool does (exact, per
 * table, "*" for any table), then key suffixes, longest first where one
 * ends another ("_per_s" before "_s").
 */
#include "report/col_units.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct exact_rule {
	const char *table, *key, *unit;
};

static const struct exact_rule exact[] = {
	/* mpstat -P ALL: % of the window */
	{ "mpstat", "usr", "%" }, { "mpstat", "sys", "%" }, { "mpstat", "irq", "%" },
	{ "mpstat", "soft", "%" }, { "mpstat", "idle", "%" }, { "mpstat", "nice", "%" },
	{ "mpstat", "iowait", "%" }, { "mpstat", "steal", "%" }, { "mpstat", "guest", "%" },
	{ "mpstat", "gnice", "%" },
	/* vmstat (procps): memory in KiB, swap in/out in KiB/s, block I/O in
	 * blocks/s (rxlab writes 0 to all of these), in and cs per second, us sy
	 * id wa st % of the interval; the friendly style's hi and sirq too */
	{ "vmstat", "in", "1/s" }, { "vmstat", "cs", "1/s" }, { "vmstat", "us", "%" },
	{ "vmstat", "sy", "%" }, { "vmstat", "id", "%" }, { "vmstat", "wa", "%" },
	{ "vmstat", "hi", "%" }, { "vmstat", "sirq", "%" }, { "vmstat", "st", "%" },
	{ "vmstat", "r", "count" }, { "vmstat", "b", "count" },
	{ "vmstat", "swpd", "KiB" }, { "vmstat", "free", "KiB" }, { "vmstat", "buff", "KiB" },
	{ "vmstat", "cache", "KiB" }, { "vmstat", "si", "KiB/s" }, { "vmstat", "so", "KiB/s" },
	{ "vmstat", "bi", "blocks/s" }, { "vmstat", "bo", "blocks/s" },
	/* /proc/interrupts: the IRQ number, then one count per CPU */
	{ "interrupts", "irq", "id" },
	/* ethtool -c: microseconds and frames as ethtool reads them */
	{ "coalesce", "rx-usecs", "us" }, { "coalesce", "tx-usecs", "us" },
	{ "coalesce", "rx-usecs-irq", "us" }, { "coalesce", "tx-usecs-irq", "us" },
	{ "coalesce", "rx-frames", "packets" }, { "coalesce", "tx-frames", "packets" },
	{ "coalesce", "rx-frames-irq", "packets" }, { "coalesce", "tx-frames-irq", "packets" },
	{ "coalesce", "napi_defer_hard_irqs", "count" },
	/* netstat -i: packets */
	{ "netstat_i", "rx_ok", "packets" }, { "netstat_i", "rx_err", "packets" },
	{ "netstat_i", "rx_drp", "packets" }, { "netstat_i", "rx_ovr", "packets" },
	{ "netstat_i", "tx_ok", "packets" }, { "netstat_i", "tx_err", "packets" },
	{ "netstat_i", "tx_drp", "packets" }, { "netstat_i", "tx_ovr", "packets" },
	{ "netstat_i", "mtu", "bytes" },
	/* softnet_stat and the queues: packets */
	{ "softnet_stat", "processed", "packets" }, { "softnet_stat", "dropped", "packets" },
	{ "queues", "rx_ok", "packets" }, { "queues", "rx_ovr", "packets" },
	{ "queues", "tx_ok", "packets" }, { "queues", "irq_cpu", "id" },
	{ "gro", "gro_in", "packets" },
	/* identifiers: a CPU, a queue, a worker */
	{ "*", "cpu", "id" }, { "*", "queue", "id" }, { "*", "worker", "id" },
	{ "*", "drops_total", "packets" }, { "*", "drops", "packets" },
	{ "*", "loopback_drops", "packets" },
	{ "*", "served", "packets" }, { "*", "busy_poll_pkts", "packets" },
	{ "*", "transmitted", "packets" }, { "*", "received", "packets" },
};

struct suffix_rule {
	const char *suffix, *unit;
};

static const struct suffix_rule suffixes[] = {
	{ "_pct", "%" },	  { "_per_s", "1/s" },	   { "_mbit_s", "Mbit/s" },
	{ "_pps", "pkt/s" },	  { "_per_irq", "pkt/irq" }, { "_per_poll", "pkt/poll" },
	{ "segs_per_skb", "seg/skb" }, { "cycles_per_query", "cycles/query" },
	{ "_us", "us" },	  { "-us", "us" },	   { "_ms", "ms" },
	{ "_ns", "ns" },	  { "_s", "s" },	   { "_bytes", "bytes" },
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

const char *col_unit_rule(const char *table, const char *key)
{
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if ((!strcmp(exact[i].table, "*") || !strcmp(exact[i].table, table)) &&
		    !strcmp(exact[i].key, key))
			return exact[i].unit;
	if (key[0] == '%')
		return "%";
	if (!strncmp(key, "drop_", 5))
		return "packets";
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (ends_with(key, suffixes[i].suffix))
			return suffixes[i].unit;
	return NULL;
}
