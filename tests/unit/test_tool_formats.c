/* test_tool_formats.c - the tables that imitate Linux files and tools
 * (report/tool_format.h, report/tool_tables.h) against the real ones.
 *
 *   - the simulator's /proc/interrupts and /proc/net/softnet_stat are read
 *     with io/procfs.h, the parser the live engine reads this machine's
 *     files with (src/live/counters.c), and give back the run's counters:
 *     per vector and CPU, per CPU processed/dropped/time_squeeze;
 *   - the same parser reads this machine's /proc/interrupts and
 *     softnet_stat, and every line it splits, written again by
 *     tool_format.c, is the kernel's line byte for byte;
 *   - netstat -i, vmstat and mpstat -P ALL (when installed: net-tools,
 *     procps, sysstat) print the header lines tool_format.c prints, and
 *     their rows, parsed and written again, are the same bytes; without the
 *     tools, the headers are compared with the strings of their sources
 *     (net-tools netstat.c, procps vmstat.c, sysstat mpstat.c).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/procfs.h"
#include "report/tool_format.h"
#include "report/tool_tables.h"
#include "rxlab/sim.h"

#include "sim_run.h"

/* What @print writes, as a string (free it). */
#define CAPTURE(buf, call) do { size_t len_; FILE *f = open_memstream(&(buf), &len_); \
	assert_non_null(f); call; assert_int_equal(fclose(f), 0); } while (0)

static FILE *string_file(const char *s)
{
	FILE *f = fmemopen((void *)s, strlen(s), "r");

	assert_non_null(f);
	return f;
}

/* ---- the simulator's files, read as the live engine reads the real ones ---- */

static void check_interrupts(const struct results *r)
{
	static struct procfs_irq irq;
	char *text = NULL, line[PROCFS_LINE_MAX], chip[32];
	int id[PROCFS_MAX_CPUS];
	FILE *f;

	CAPTURE(text, tool_interrupts_print(f, r));
	f = string_file(text);
	assert_true(procfs_getline(f, line, sizeof(line), NULL));
	assert_int_equal(procfs_irq_header(line, id, PROCFS_MAX_CPUS), r->n_cpus);
	for (int c = 0; c < r->n_cpus; c++)
		assert_int_equal(id[c], c);
	for (uint16_t q = 0; q < r->n_queues; q++) {
		const char *handler;
		long hwirq;

		assert_true(procfs_getline(f, line, sizeof(line), NULL));
		assert_int_equal(procfs_irq_line(line, &irq), 0);
		assert_int_equal(irq.irq, 24 + q);
		assert_int_equal(irq.ncounts, r->n_cpus);
		for (uint16_t c = 0; c < r->n_cpus; c++)
			assert_int_equal(irq.count[c], r->queue_irq_cpu[(size_t)q * r->n_cpus + c]);
		assert_string_equal(irq.action, r->queue[q].name);
		tool_queue_vector(r, q, chip, sizeof(chip), &hwirq, &handler);
		assert_string_equal(irq.chip, chip);
		assert_int_equal(irq.hwirq, hwirq);
		assert_string_equal(irq.handler, handler);
	}
	assert_false(procfs_getline(f, line, sizeof(line), NULL));
	fclose(f);
	free(text);
}

static void check_softnet(const struct results *r)
{
	char *text = NULL, line[PROCFS_LINE_MAX];
	struct procfs_softnet sn;
	FILE *f;

	CAPTURE(text, tool_softnet_print(f, r));
	f = string_file(text);
	for (uint16_t i = 0; i < r->n_cpus; i++) {
		assert_true(procfs_getline(f, line, sizeof(line), NULL));
		assert_int_equal(procfs_softnet_line(line, i, &sn), 0);
		assert_int_equal(sn.ncols, PROCFS_SN_COLS);
		assert_int_equal(sn.cpu, i);
		assert_int_equal(sn.v[PROCFS_SN_PROCESSED], r->cpu[i].sn.processed);
		assert_int_equal(sn.v[PROCFS_SN_DROPPED], r->cpu[i].sn.dropped);
		assert_int_equal(sn.v[PROCFS_SN_TIME_SQUEEZE], r->cpu[i].sn.time_squeeze);
	}
	assert_false(procfs_getline(f, line, sizeof(line), NULL));
	fclose(f);
	free(text);
}

/* The text form of @t is its title line and then @body. */
static void check_text_form(struct table *t, const char *title, void (*body)(FILE *,
				const struct results *), const struct results *r)
{
	char *got = NULL, *want = NULL, *b = NULL;

	CAPTURE(got, table_print(t, f, OUT_TABLE));
	CAPTURE(b, body(f, r));
	assert_true(asprintf(&want, "%s\n%s", title, b) > 0);
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(b);
	table_free(t);
}

/* Multi-queue ports (MSI-X vectors, 8 CPUs) and a one-queue port (an
 * IO-APIC line) with drops at the backlog. */
static void test_sim_files_parse(void **state)
{
	static const char *const sets[] = { "traffic.rate=400kpps", "host.rxpath=classic" };
	struct results r;
	uint64_t sum = 0;

	(void)state;
	sim_run_named("rss-imbalance", NULL, 0, &r);
	assert_true(r.n_queues > r.n_nics && r.n_cpus == 8);
	check_interrupts(&r);
	check_softnet(&r);
	for (uint16_t i = 0; i < r.n_cpus; i++)
		sum += r.cpu[i].sn.processed;
	assert_true(sum > 0);
	check_text_form(tool_interrupts_table(&r), "/proc/interrupts (whole run)",
			tool_interrupts_print, &r);
	check_text_form(tool_softnet_table(&r), "/proc/net/softnet_stat (window)",
			tool_softnet_print, &r);
	results_free(&r);

	sim_run_named("livelock", sets, 2, &r);
	assert_int_equal(r.n_queues, r.n_nics);	/* one queue a port: IO-APIC lines */
	assert_true(r.cpu[0].sn.dropped > 0);
	check_interrupts(&r);
	check_softnet(&r);
	results_free(&r);
}

/* Lines no kernel writes: cut to the fields' sizes, never past them; more
 * counts than PROCFS_MAX_CPUS counted but not stored; a line that is no
 * line of the file refused. */
static void test_parser_bounds(void **state)
{
	static struct procfs_irq irq;
	static char line[PROCFS_LINE_MAX];
	struct procfs_softnet sn;
	int id[4];
	size_t n = 0;

	(void)state;
	assert_int_equal(procfs_irq_line("no colon here", &irq), -1);
	assert_int_equal(procfs_irq_line("   :  1 2", &irq), -1);
	memset(line, 'x', 100);
	strcpy(line + 100, ": 5 chip 3-edge dev");
	assert_int_equal(procfs_irq_line(line, &irq), 0);
	assert_int_equal(strlen(irq.label), sizeof(irq.label) - 1);
	assert_int_equal(irq.irq, -1);
	n = (size_t)sprintf(line, " 99:");
	for (int k = 0; k < PROCFS_MAX_CPUS + 10; k++)
		n += (size_t)sprintf(line + n, " %10d", k);
	memset(line + n, 'a', sizeof(line) - n - 1);
	line[n] = ' ';
	line[sizeof(line) - 1] = '\0';
	assert_int_equal(procfs_irq_line(line, &irq), 0);
	assert_int_equal(irq.ncounts, PROCFS_MAX_CPUS + 10);
	assert_int_equal(irq.count[PROCFS_MAX_CPUS - 1], PROCFS_MAX_CPUS - 1);
	assert_int_equal(strlen(irq.desc), sizeof(irq.desc) - 1);
	assert_int_equal(strlen(irq.chip), sizeof(irq.chip) - 1);
	assert_int_equal(procfs_irq_line(" 7:          3  IO-APIC    -edge      eth0", &irq), 0);
	assert_int_equal(irq.hwirq, -1);	/* no irq domain */
	assert_string_equal(irq.handler, "edge");
	assert_string_equal(irq.action, "eth0");
	assert_int_equal(procfs_irq_header("CPU0 CPU1 CPU2 CPU3 CPU4 CPU5", id, 4), 6);
	assert_int_equal(procfs_irq_header("nothing", id, 4), -1);
	assert_int_equal(procfs_softnet_line("0000000a 0000000b", 0, &sn), -1);
	assert_int_equal(procfs_softnet_line("0000000a 0000000b 0000000c 1ffffffff", 0, &sn), -1);
	assert_int_equal(procfs_softnet_line("0000000a 0000000b 0000000c 0000000dz", 0, &sn), -1);
	assert_int_equal(procfs_softnet_line("0000000a 0000000b 0000000c", 4, &sn), 0);
	assert_int_equal(sn.ncols, 3);
	assert_int_equal(sn.cpu, 4);		/* no index column: the row */
	assert_int_equal(sn.v[PROCFS_SN_TIME_SQUEEZE], 12);
}

/* ---- this machine's files: the parser reads them, the formatter writes
 * them back ---- */

/* Lines of /proc/interrupts that were split (chip and a hwirq-handler
 * word) and written again by procfmt_irq_line(): they must be the same. */
static int roundtrip_irq_line(const char *line, const struct procfs_irq *irq, int prec)
{
	char *again = NULL;
	int same;

	if (irq->irq < 0 || !irq->chip[0] || !irq->handler[0] || irq->ncounts > PROCFS_MAX_CPUS)
		return 0;
	CAPTURE(again, procfmt_irq_line(f, prec, (unsigned)irq->irq, irq->count, irq->ncounts,
					irq->chip, irq->hwirq, irq->handler,
					irq->action[0] ? irq->action : NULL));
	again[strlen(again) - 1] = '\0';
	same = !strcmp(again, line);
	if (!same)
		print_error("real:  '%s'\nagain: '%s'\n", line, again);
	assert_true(same);
	free(again);
	return 1;
}

static void test_real_interrupts(void **state)
{
	static struct procfs_irq irq;
	char line[PROCFS_LINE_MAX], *hdr = NULL;
	int id[PROCFS_MAX_CPUS], ncpu, prec = 0, numbered = 0, same = 0;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	FILE *f = fopen("/proc/interrupts", "re");

	(void)state;
	if (!f)
		skip();
	assert_true(procfs_getline(f, line, sizeof(line), NULL));
	ncpu = procfs_irq_header(line, id, PROCFS_MAX_CPUS);
	assert_int_equal(ncpu, online);
	while (procfs_getline(f, line, sizeof(line), NULL)) {
		if (procfs_irq_line(line, &irq))
			continue;
		if (irq.irq < 0)
			continue;
		numbered++;
		assert_int_equal(irq.ncounts, ncpu);
		prec = (int)(strchr(line, ':') - line);
		same += roundtrip_irq_line(line, &irq, prec);
	}
	fclose(f);
	assert_true(numbered > 0);
	assert_true(same > 0);
	if (id[ncpu - 1] == ncpu - 1) {		/* CPUs 0..n-1 online: the same header */
		f = fopen("/proc/interrupts", "re");
		assert_true(procfs_getline(f, line, sizeof(line), NULL));
		fclose(f);
		CAPTURE(hdr, procfmt_irq_header(f, prec, (unsigned)ncpu));
		hdr[strlen(hdr) - 1] = '\0';
		assert_string_equal(hdr, line);
		free(hdr);
	}
}

static void test_real_softnet(void **state)
{
	char line[PROCFS_LINE_MAX], *again;
	struct procfs_softnet sn;
	FILE *f = fopen("/proc/net/softnet_stat", "re");
	int row = 0, last = -1;

	(void)state;
	if (!f)
		skip();
	while (procfs_getline(f, line, sizeof(line), NULL)) {
		assert_int_equal(procfs_softnet_line(line, row++, &sn), 0);
		assert_true(sn.cpu > last);		/* online CPUs in order */
		last = sn.cpu;
		if (sn.ncols != PROCFS_SN_COLS)		/* an older kernel: parsed, not rewritten */
			continue;
		again = NULL;
		CAPTURE(again, procfmt_softnet_line(f, sn.v));
		again[strlen(again) - 1] = '\0';
		assert_string_equal(again, line);
		free(again);
	}
	fclose(f);
	assert_int_equal(row, sysconf(_SC_NPROCESSORS_ONLN));
}

/* ---- the tools: headers as their sources print them, rows written back ---- */

/* The first @n lines of @cmd's output (LC_ALL=C), or 0 when it does not run. */
static int tool_lines(const char *cmd, char lines[][1024], int n)
{
	char full[256];
	FILE *p;
	int k = 0;

	snprintf(full, sizeof(full), "LC_ALL=C S_COLORS=never %s 2>/dev/null", cmd);
	if ((p = popen(full, "re")) == NULL)
		return 0;
	while (k < n && procfs_getline(p, lines[k], sizeof(lines[k]), NULL))
		k++;
	while (fgetc(p) != EOF)
		;
	return pclose(p) == 0 ? k : 0;
}

static char *capture_netstat_header(void)
{
	char *s = NULL;

	CAPTURE(s, procfmt_netstat_header(f));
	return s;
}

/* net-tools 2.10 netstat.c iface_info() and lib/interface.c ife_print_short(). */
static void test_netstat(void **state)
{
	static char out[64][1024];
	char *hdr = capture_netstat_header(), *want = NULL;
	int n = tool_lines("netstat -i", out, 64), rows = 0;

	(void)state;
	assert_string_equal(hdr, "Kernel Interface table\n"
			    "Iface             MTU    RX-OK RX-ERR RX-DRP RX-OVR    TX-OK TX-ERR "
			    "TX-DRP TX-OVR Flg\n");
	if (n >= 2) {
		assert_true(asprintf(&want, "%s\n%s\n", out[0], out[1]) > 0);
		assert_string_equal(hdr, want);
		free(want);
	}
	for (int k = 2; k < n; k++) {
		char name[64], flags[32], *again = NULL;
		unsigned long long c[8];
		uint64_t v[8];
		int mtu;

		if (sscanf(out[k], "%63s %d %llu %llu %llu %llu %llu %llu %llu %llu %31s", name, &mtu,
			   &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7], flags) != 11)
			continue;
		for (int i = 0; i < 8; i++)
			v[i] = c[i];
		CAPTURE(again, procfmt_netstat_line(f, name, mtu, v, flags));
		again[strlen(again) - 1] = '\0';
		assert_string_equal(again, out[k]);
		free(again);
		rows++;
	}
	assert_true(n == 0 || rows > 0);
	free(hdr);
}

/* procps vmstat.c new_header() and new_format(). */
static void test_vmstat(void **state)
{
	static char out[3][1024];
	char *hdr = NULL, *again = NULL, *want = NULL;
	unsigned long long x[17];
	uint64_t v[17];
	int n = tool_lines("vmstat", out, 3);

	(void)state;
	CAPTURE(hdr, procfmt_vmstat_header(f));
	assert_string_equal(hdr, "procs -----------memory---------- ---swap-- -----io---- -system-- "
			    "------cpu-----\n"
			    " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy "
			    "id wa st\n");
	if (n < 3) {
		free(hdr);
		return;
	}
	assert_true(asprintf(&want, "%s\n%s\n", out[0], out[1]) > 0);
	assert_string_equal(hdr, want);
	free(want);
	assert_int_equal(sscanf(out[2], "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu "
				"%llu %llu %llu %llu %llu %llu", &x[0], &x[1], &x[2], &x[3], &x[4],
				&x[5], &x[6], &x[7], &x[8], &x[9], &x[10], &x[11], &x[12], &x[13],
				&x[14], &x[15], &x[16]), 17);
	for (int i = 0; i < 17; i++)
		v[i] = x[i];
	CAPTURE(again, procfmt_vmstat_line(f, v));
	assert_true(asprintf(&want, "%s\n", out[2]) > 0);
	assert_string_equal(again, want);
	free(want);
	free(again);
	free(hdr);
}

/* sysstat mpstat.c write_plain_cpu_stats(): the Average: block of
 * `mpstat -P ALL 1 1` (one second: the only way to get that block). */
static void test_mpstat(void **state)
{
	static char out[300][1024];
	char *hdr = NULL;
	int n = tool_lines("mpstat -P ALL 1 1", out, 300), rows = 0;

	(void)state;
	CAPTURE(hdr, procfmt_mpstat_header(f, "Average:"));
	assert_string_equal(hdr, "Average:     CPU    %usr   %nice    %sys %iowait    %irq   %soft  "
			    "%steal  %guest  %gnice   %idle\n");
	for (int k = 0; k < n; k++) {
		char cpu[16], *again = NULL, *want = NULL;
		double p[10];

		if (strncmp(out[k], "Average:", 8))
			continue;
		assert_true(asprintf(&want, "%s\n", out[k]) > 0);
		if (strstr(out[k], " CPU ")) {
			assert_string_equal(hdr, want);
			free(want);
			continue;
		}
		assert_int_equal(sscanf(out[k] + 8, "%15s %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf",
					cpu, &p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7],
					&p[8], &p[9]), 11);
		CAPTURE(again, procfmt_mpstat_line(f, "Average:", strcmp(cpu, "all") ? atoi(cpu) : -1,
						   p));
		assert_string_equal(again, want);
		free(again);
		free(want);
		rows++;
	}
	assert_true(n == 0 || rows == sysconf(_SC_NPROCESSORS_ONLN) + 1);
	free(hdr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_files_parse),
		cmocka_unit_test(test_parser_bounds),
		cmocka_unit_test(test_real_interrupts),
		cmocka_unit_test(test_real_softnet),
		cmocka_unit_test(test_netstat),
		cmocka_unit_test(test_vmstat),
		cmocka_unit_test(test_mpstat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
