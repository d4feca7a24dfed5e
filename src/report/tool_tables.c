/* tool_tables.c - netstat -i, /proc/interrupts, softnet_stat, vmstat and
 * mpstat -P ALL from a run's results (see tool_tables.h). */
#include "report/tool_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/tool_format.h"

/* The text form of @t: what @print writes for @r, by way of a memory stream. */
static void set_text(struct table *t, const struct results *r,
		     void (*print)(FILE *f, const struct results *r))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		fputs("rxlab: out of memory\n", stderr);
		abort();
	}
	print(f, r);
	if (fclose(f)) {
		fputs("rxlab: out of memory\n", stderr);
		abort();
	}
	table_set_text(t, buf);
	free(buf);
}

static void add_cols(struct table *t, const char *const *keys, size_t n, int prec)
{
	for (size_t i = 0; i < n; i++)
		table_add_col(t, keys[i], keys[i], prec);
}

/* ---- netstat -i ---------------------------------------------------------- */

/* rxlab has no MTU key: Ethernet's 1500, or a jumbo 9000 when the port's
 * frames (FCS included) average more than a 1500-byte MTU's 1518. */
static int port_mtu(const struct nic_counters *c)
{
	return c->rx_taken && c->rx_bytes / c->rx_taken > 1518 ? 9000 : 1500;
}

static void port_counts(const struct nic_counters *c, uint64_t v[8])
{
	const uint64_t x[8] = { c->rx_ok, 0, c->rx_drp, c->rx_ovr, c->tx_ok, 0, c->tx_drp, 0 };

	memcpy(v, x, sizeof(x));
}

static void netstat_text(FILE *f, const struct results *r)
{
	uint64_t v[8];

	procfmt_netstat_header(f);
	for (uint16_t i = 0; i < r->n_nics; i++) {
		port_counts(&r->nic[i].c, v);
		procfmt_netstat_line(f, r->nic[i].name, port_mtu(&r->nic[i].c), v, "BMRU");
	}
}

/* CSV and JSON: the keys of rxlab's netstat_i before the MTU and Flg columns
 * came, in their places, then mtu and flg. */
struct table *tool_netstat_table(const struct results *r)
{
	static const char *const keys[] = { "iface", "rx_ok", "rx_err", "rx_drp", "rx_ovr",
					    "tx_ok", "tx_err", "tx_drp", "tx_ovr", "mtu", "flg" };
	struct table *t = table_new("netstat_i", "netstat -i (window)");
	uint64_t v[8];

	add_cols(t, keys, sizeof(keys) / sizeof(keys[0]), -1);
	for (uint16_t i = 0; i < r->n_nics; i++) {
		table_row(t);
		table_str(t, r->nic[i].name);
		port_counts(&r->nic[i].c, v);
		for (int k = 0; k < 8; k++)
			table_u64(t, v[k]);
		table_u64(t, (uint64_t)port_mtu(&r->nic[i].c));
		table_str(t, "BMRU");
	}
	set_text(t, r, netstat_text);
	return t;
}

/* ---- /proc/interrupts ---------------------------------------------------- */

unsigned tool_queue_irq(uint16_t q)
{
	return 24u + q;
}

static bool port_has_queues(const struct results *r, uint16_t port)
{
	unsigned n = 0;

	for (uint16_t q = 0; q < r->n_queues; q++)
		n += r->queue[q].port == port;
	return n > 1;
}

void tool_queue_vector(const struct results *r, uint16_t q, char *chip, size_t len,
		       long *hwirq, const char **handler)
{
	const struct queue_result *qr = &r->queue[q];

	if (port_has_queues(r, qr->port)) {
		snprintf(chip, len, "PCI-MSIX-0000:%02x:00.0", (qr->port + 1u) & 0xff);
		*hwirq = qr->qid;
		*handler = "edge";
	} else {
		snprintf(chip, len, "IO-APIC");
		*hwirq = 16 + qr->port % 8;
		*handler = "fasteoi";
	}
}

void tool_interrupts_print(FILE *f, const struct results *r)
{
	int prec = procfmt_irq_prec(tool_queue_irq(r->n_queues));

	procfmt_irq_header(f, prec, r->n_cpus);
	for (uint16_t q = 0; q < r->n_queues; q++) {
		char chip[32];
		const char *handler;
		long hwirq;

		tool_queue_vector(r, q, chip, sizeof(chip), &hwirq, &handler);
		procfmt_irq_line(f, prec, tool_queue_irq(q), &r->queue_irq_cpu[(size_t)q * r->n_cpus],
				 r->n_cpus, chip, hwirq, handler, r->queue[q].name);
	}
}

/* CSV and JSON: irq, cpu0.. and device (the action: the queue's name), the
 * columns they always had, and no more: readers sum the columns between
 * irq and the last (tests/sim/tracepoints.sh), and chip, hwirq and handler
 * follow from the port's kind (tool_queue_vector()), so only the text shows
 * them. */
struct table *tool_interrupts_table(const struct results *r)
{
	struct table *t = table_new("interrupts", "/proc/interrupts (whole run)");
	char key[16];

	table_add_col(t, "irq", "irq", -1);
	for (uint16_t c = 0; c < r->n_cpus; c++) {
		snprintf(key, sizeof(key), "cpu%u", c);
		table_add_col(t, key, key, -1);
	}
	table_add_col(t, "device", "device", -1);
	for (uint16_t q = 0; q < r->n_queues; q++) {
		table_row(t);
		table_u64(t, tool_queue_irq(q));
		for (uint16_t c = 0; c < r->n_cpus; c++)
			table_u64(t, (uint32_t)r->queue_irq_cpu[(size_t)q * r->n_cpus + c]);
		table_str(t, r->queue[q].name);
	}
	set_text(t, r, tool_interrupts_print);
	return t;
}

/* ---- /proc/net/softnet_stat ---------------------------------------------- */

/* CPU @i's line: processed, dropped, time_squeeze and the CPU index are
 * rxlab's; received_rps, flow_limit_count and the queue lengths are 0. */
static void softnet_values(const struct results *r, uint16_t i, uint32_t v[15])
{
	const struct softnet_counters *sn = &r->cpu[i].sn;

	memset(v, 0, 15 * sizeof(v[0]));
	v[0] = (uint32_t)sn->processed;
	v[1] = (uint32_t)sn->dropped;
	v[2] = (uint32_t)sn->time_squeeze;
	v[12] = i;
}

void tool_softnet_print(FILE *f, const struct results *r)
{
	uint32_t v[15];

	for (uint16_t i = 0; i < r->n_cpus; i++) {
		softnet_values(r, i, v);
		procfmt_softnet_line(f, v);
	}
}

/* CSV and JSON: cpu first, as before, then the other 14 columns in the
 * file's order. */
struct table *tool_softnet_table(const struct results *r)
{
	static const char *const keys[15] = {
		"processed", "dropped", "time_squeeze", "unused_4", "unused_5", "unused_6",
		"unused_7", "unused_8", "cpu_collision", "received_rps", "flow_limit_count",
		"backlog_len", "cpu", "input_qlen", "process_qlen",
	};
	struct table *t = table_new("softnet_stat", "/proc/net/softnet_stat (window)");
	uint32_t v[15];

	table_add_col(t, "cpu", "cpu", -1);
	for (int k = 0; k < 15; k++)
		if (k != 12)
			table_add_col(t, keys[k], keys[k], -1);
	for (uint16_t i = 0; i < r->n_cpus; i++) {
		softnet_values(r, i, v);
		table_row(t);
		table_u64(t, v[12]);
		for (int k = 0; k < 15; k++)
			if (k != 12)
				table_u64(t, v[k]);
	}
	set_text(t, r, tool_softnet_print);
	return t;
}

/* ---- vmstat ---------------------------------------------------------------- */

/* (100 * part + total / 2) / total: vmstat's rounding of a CPU share. */
static uint64_t share(uint64_t part, uint64_t total)
{
	return (100 * part + total / 2) / total;
}

/* The line for the interval from sample @i - 1 to @i; false when it has no
 * time or no CPU time.  Memory, swap and block I/O are not modelled: 0;
 * b, wa and st 0; sy = all kernel time, system + hardirq + softirq (the
 * friendly table's sy). */
static bool vmstat_values(const struct results *r, uint32_t i, uint64_t v[17])
{
	const struct vm_sample *a = &r->vm[i - 1], *b = &r->vm[i];
	double dt = (double)(b->t - a->t) / 1e9;
	uint64_t d[ACCT_N], tot = 0;

	for (int k = 0; k < ACCT_N; k++)
		tot += d[k] = b->acct[k] - a->acct[k];
	if (dt <= 0 || tot == 0)
		return false;
	memset(v, 0, 17 * sizeof(v[0]));
	v[0] = b->r;
	v[10] = (uint64_t)llround((double)(b->in - a->in) / dt);
	v[11] = (uint64_t)llround((double)(b->cs - a->cs) / dt);
	v[12] = share(d[ACCT_USER], tot);
	v[13] = share(d[ACCT_SYSTEM] + d[ACCT_HARDIRQ] + d[ACCT_SOFTIRQ], tot);
	v[14] = share(d[ACCT_IDLE], tot);
	return true;
}

static void vmstat_text(FILE *f, const struct results *r)
{
	uint64_t v[17];

	procfmt_vmstat_header(f);
	for (uint32_t i = 1; i < r->n_vm; i++)
		if (vmstat_values(r, i, v))
			procfmt_vmstat_line(f, v);
}

/* CSV and JSON: t_s (the end of the interval, simulated seconds; the
 * friendly table's first column), then procps's 17. */
struct table *tool_vmstat_table(const struct results *r)
{
	static const char *const keys[17] = { "r", "b", "swpd", "free", "buff", "cache", "si", "so",
					      "bi", "bo", "in", "cs", "us", "sy", "id", "wa", "st" };
	struct table *t = table_new("vmstat", "vmstat (one line per interval)");
	uint64_t v[17];

	table_add_col(t, "t_s", "t_s", 3);
	add_cols(t, keys, 17, -1);
	for (uint32_t i = 1; i < r->n_vm; i++) {
		if (!vmstat_values(r, i, v))
			continue;
		table_row(t);
		table_dbl(t, (double)r->vm[i].t / 1e9);
		for (int k = 0; k < 17; k++)
			table_u64(t, v[k]);
	}
	set_text(t, r, vmstat_text);
	return t;
}

/* ---- mpstat -P ALL ----------------------------------------------------------- */

/* %usr %nice %sys %iowait %irq %soft %steal %guest %gnice %idle from one
 * CPU's (or the average's) buckets; nice, iowait, steal and guest are 0. */
static void mpstat_values(const double pct[ACCT_N], double v[10])
{
	const double x[10] = { pct[ACCT_USER], 0, pct[ACCT_SYSTEM], 0, pct[ACCT_HARDIRQ],
			       pct[ACCT_SOFTIRQ], 0, 0, 0, pct[ACCT_IDLE] };

	memcpy(v, x, sizeof(x));
}

static void mpstat_text(FILE *f, const struct results *r)
{
	double v[10];

	procfmt_mpstat_header(f, "Average:");
	mpstat_values(r->cpu_pct, v);
	procfmt_mpstat_line(f, "Average:", -1, v);
	for (uint16_t i = 0; i < r->n_cpus; i++) {
		mpstat_values(r->cpu[i].pct, v);
		procfmt_mpstat_line(f, "Average:", i, v);
	}
}

static void mpstat_row(struct table *t, const char *cpu, const double pct[ACCT_N])
{
	double v[10];

	mpstat_values(pct, v);
	table_row(t);
	table_str(t, cpu);
	for (int k = 0; k < 10; k++)
		table_dbl(t, v[k]);
}

/* CSV and JSON: sysstat's JSON keys (mpstat -o JSON), the CPU a string as
 * there ("all", "0", ...). */
struct table *tool_mpstat_table(const struct results *r)
{
	static const char *const keys[10] = { "usr", "nice", "sys", "iowait", "irq",
					      "soft", "steal", "guest", "gnice", "idle" };
	struct table *t = table_new("mpstat", "mpstat -P ALL (window)");
	char cpu[8];

	table_add_col(t, "cpu", "cpu", -1);
	add_cols(t, keys, 10, 2);
	mpstat_row(t, "all", r->cpu_pct);
	for (uint16_t i = 0; i < r->n_cpus; i++) {
		snprintf(cpu, sizeof(cpu), "%u", i);
		mpstat_row(t, cpu, r->cpu[i].pct);
	}
	set_text(t, r, mpstat_text);
	return t;
}
