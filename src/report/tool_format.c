/* tool_format.c - lines as Linux and its tools print them (see
 * tool_format.h; each function names the code it follows). */
#include "report/tool_format.h"

#include <inttypes.h>
#include <string.h>

int procfmt_irq_prec(unsigned nr_irqs)
{
	int prec = 3;

	for (unsigned long long j = 1000; prec < 10 && j <= nr_irqs; j *= 10)
		prec++;
	return prec;
}

void procfmt_irq_header(FILE *f, int prec, unsigned ncpu)
{
	fprintf(f, "%*s", prec + 8, "");
	for (unsigned c = 0; c < ncpu; c++)
		fprintf(f, "CPU%-8u", c);
	fputc('\n', f);
}

/* The kernel (6.18): seq_printf(p, "%*d:", prec, i); per CPU
 * seq_put_decimal_ull_width(p, " ", cnt, 10); seq_putc(p, ' '); the chip
 * "%8s"; " %*lu" of the hwirq or " %*s" of ""; "-%-8s" of desc->name; "  %s"
 * and ", %s" of the actions. */
void procfmt_irq_line(FILE *f, int prec, unsigned irq, const uint64_t *count, unsigned ncpu,
		      const char *chip, long hwirq, const char *handler, const char *action)
{
	fprintf(f, "%*u:", prec, irq);
	for (unsigned c = 0; c < ncpu; c++)
		fprintf(f, " %10" PRIu32, (uint32_t)count[c]);
	fputc(' ', f);
	fprintf(f, "%8s", chip);
	if (hwirq >= 0)
		fprintf(f, " %*ld", prec, hwirq);
	else
		fprintf(f, " %*s", prec, "");
	if (handler)
		fprintf(f, "-%-8s", handler);
	if (action)
		fprintf(f, "  %s", action);
	fputc('\n', f);
}

void procfmt_softnet_line(FILE *f, const uint32_t v[15])
{
	for (int i = 0; i < 15; i++)
		fprintf(f, "%s%08" PRIx32, i ? " " : "", v[i]);
	fputc('\n', f);
}

void procfmt_netstat_header(FILE *f)
{
	fputs("Kernel Interface table\n"
	      "Iface             MTU    RX-OK RX-ERR RX-DRP RX-OVR    TX-OK TX-ERR TX-DRP TX-OVR "
	      "Flg\n", f);
}

void procfmt_netstat_line(FILE *f, const char *iface, int mtu, const uint64_t c[8],
			  const char *flags)
{
	fprintf(f, "%-15.15s %5d ", iface, mtu);
	fprintf(f, "%8" PRIu64 " %6" PRIu64 " %6" PRIu64 " %-6" PRIu64 " ", c[0], c[1], c[2], c[3]);
	fprintf(f, "%8" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " ", c[4], c[5], c[6], c[7]);
	fprintf(f, "%s\n", flags);
}

void procfmt_vmstat_header(FILE *f)
{
	fputs("procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n", f);
	fprintf(f, "%2s %2s %6s %6s %6s %6s %4s %4s %5s %5s %4s %4s %2s %2s %2s %2s %2s\n", "r", "b",
		"swpd", "free", "buff", "cache", "si", "so", "bi", "bo", "in", "cs", "us", "sy", "id",
		"wa", "st");
}

void procfmt_vmstat_line(FILE *f, const uint64_t v[17])
{
	static const int width[17] = { 2, 2, 6, 6, 6, 6, 4, 4, 5, 5, 4, 4, 2, 2, 2, 2, 2 };

	for (int i = 0; i < 17; i++)
		fprintf(f, "%s%*" PRIu64, i ? " " : "", width[i], v[i]);
	fputc('\n', f);
}

void procfmt_mpstat_header(FILE *f, const char *when)
{
	fprintf(f, "%-11s  CPU    %%usr   %%nice    %%sys %%iowait    %%irq   %%soft  %%steal  "
		"%%guest  %%gnice   %%idle\n", when);
}

/* " %7.2f" with '.' whatever the locale: a library caller may have called
 * setlocale(); the C locale's output is what sysstat prints under LC_ALL=C. */
static void pct_field(FILE *f, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.2f", v);
	for (char *p = buf; *p; p++)
		if ((*p < '0' || *p > '9') && *p != '-')
			*p = '.';
	fprintf(f, " %7s", buf);
}

void procfmt_mpstat_line(FILE *f, const char *when, int cpu, const double pct[10])
{
	fprintf(f, "%-11s", when);
	if (cpu < 0)
		fprintf(f, " %s", " all");
	else
		fprintf(f, " %4d", cpu);
	for (int i = 0; i < 10; i++)
		pct_field(f, pct[i]);
	fputc('\n', f);
}
