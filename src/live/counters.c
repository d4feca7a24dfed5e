/* counters.c - kernel counters from /proc, rtnetlink and the socket (see
 * counters.h). */
#define _GNU_SOURCE
#include "live/counters.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>

#include "io/procfs.h"
#include "live/nl.h"

#define LINE 4096

/* /proc/net/softnet_stat: one line per online CPU, column 13 its index
 * (io/procfs.h: the parser the tests also read rxlab's imitation with). */
static void read_softnet(struct counters *c)
{
	char line[PROCFS_LINE_MAX];
	FILE *f = fopen("/proc/net/softnet_stat", "re");
	struct procfs_softnet sn;
	int n = 0;

	if (!f)
		return;
	while (procfs_getline(f, line, sizeof(line), NULL)) {
		int ok = procfs_softnet_line(line, n++, &sn);

		if (ok || sn.cpu < 0 || sn.cpu >= COUNTERS_MAX_CPUS)
			continue;
		c->cpu[sn.cpu].processed = sn.v[PROCFS_SN_PROCESSED];
		c->cpu[sn.cpu].dropped = sn.v[PROCFS_SN_DROPPED];
		c->cpu[sn.cpu].time_squeeze = sn.v[PROCFS_SN_TIME_SQUEEZE];
	}
	fclose(f);
}

/* Numbers after the label of a /proc/softirqs line, added into @dst[cpu]
 * (or stored when @add is false). */
static void per_cpu_columns(const char *s, uint64_t *dst, size_t stride, bool add)
{
	char *end;

	for (int cpu = 0; cpu < COUNTERS_MAX_CPUS; cpu++) {
		unsigned long long v = strtoull(s, &end, 10);

		if (end == s)
			break;
		uint64_t *p = (uint64_t *)((char *)dst + stride * (size_t)cpu);
		*p = add ? *p + v : v;
		s = end;
	}
}

static void read_softirqs(struct counters *c)
{
	char line[LINE];
	FILE *f = fopen("/proc/softirqs", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *s = strstr(line, "NET_RX:");

		if (s)
			per_cpu_columns(s + 7, &c->cpu[0].net_rx, sizeof(c->cpu[0]), false);
	}
	fclose(f);
}

/* /proc/interrupts: every line's counts (numbered IRQs and the
 * architecture's) added per CPU, by the header's cpu ids. */
static void read_interrupts(struct counters *c)
{
	struct procfs_irq irq;
	char line[PROCFS_LINE_MAX];
	int id[COUNTERS_MAX_CPUS], ncol;
	FILE *f = fopen("/proc/interrupts", "re");

	if (!f)
		return;
	if (!procfs_getline(f, line, sizeof(line), NULL) ||
	    (ncol = procfs_irq_header(line, id, COUNTERS_MAX_CPUS)) < 0) {
		fclose(f);
		return;
	}
	if (ncol > COUNTERS_MAX_CPUS)
		ncol = COUNTERS_MAX_CPUS;
	while (procfs_getline(f, line, sizeof(line), NULL)) {
		if (procfs_irq_line(line, &irq))
			continue;
		for (unsigned k = 0; k < irq.ncounts && k < (unsigned)ncol; k++)
			if (id[k] < COUNTERS_MAX_CPUS)
				c->cpu[id[k]].irqs += irq.count[k];
	}
	fclose(f);
}

static int read_stat(struct counters *c)
{
	char line[LINE];
	FILE *f = fopen("/proc/stat", "re");
	unsigned long long u, ni, sy, id, io, irq, si, st;
	int cpu;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &u, &ni, &sy,
			   &id, &io, &irq, &si, &st) != 9 || cpu < 0 || cpu >= COUNTERS_MAX_CPUS)
			continue;
		c->cpu[cpu].ticks_busy = u + ni + sy + irq + si + st;
		c->cpu[cpu].ticks_idle = id + io;
		c->cpu[cpu].ticks_irq = irq;
		c->cpu[cpu].ticks_softirq = si;
		if (cpu + 1 > c->ncpu)
			c->ncpu = cpu + 1;
	}
	fclose(f);
	return 0;
}

/* Time in every cpuidle state of every CPU we know; CPUs without a cpuidle
 * directory stay invalid. */
static void read_cpuidle(struct counters *c)
{
	char p[96];

	for (int cpu = 0; cpu < c->ncpu; cpu++) {
		uint64_t sum = 0;
		int states = 0;

		for (int k = 0; k < 16; k++) {
			unsigned long long us;
			FILE *f;

			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/time",
				 cpu, k);
			if ((f = fopen(p, "re")) == NULL)
				break;
			if (fscanf(f, "%llu", &us) == 1) {
				sum += us;
				states++;
			}
			fclose(f);
		}
		c->cpu[cpu].idle_valid = states > 0;
		c->cpu[cpu].idle_us = sum;
	}
}

/* ns task @pid has run: the first field of schedstat (ns on CPU, ns
 * waiting, timeslices: sched/stats.c); 0 when it cannot be read. */
static uint64_t read_run_ns(pid_t pid)
{
	char p[64];
	unsigned long long run = 0;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/schedstat", (int)pid);
	if ((f = fopen(p, "re")) != NULL) {
		if (fscanf(f, "%llu", &run) != 1)
			run = 0;
		fclose(f);
	}
	return run;
}

static void read_kthread(struct counters *c, pid_t pid)
{
	char p[64], line[LINE];
	unsigned long long vol = 0;
	uint64_t run = read_run_ns(pid);
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/status", (int)pid);
	if ((f = fopen(p, "re")) != NULL) {
		while (fgets(line, sizeof(line), f))
			sscanf(line, "voluntary_ctxt_switches: %llu", &vol);
		fclose(f);
	}
	c->napi_ns += run;
	c->napi_wakeups += vol;
}

static int link_reply(const struct nlmsghdr *m, void *arg)
{
	struct dev_counters *d = arg;
	const struct nlattr *tb[IFLA_STATS64 + 1];
	struct rtnl_link_stats64 s;
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct ifinfomsg));

	if (m->nlmsg_type != RTM_NEWLINK || m->nlmsg_len < off)
		return 0;
	nl_parse((const char *)m + off, m->nlmsg_len - off, tb, IFLA_STATS64);
	if (!tb[IFLA_STATS64])
		return 0;
	memcpy(&s, nl_data(tb[IFLA_STATS64]), sizeof(s));
	*d = (struct dev_counters){ .valid = true, .rx_packets = s.rx_packets,
				    .tx_packets = s.tx_packets, .rx_dropped = s.rx_dropped,
				    .tx_dropped = s.tx_dropped };
	return 0;
}

static void read_link(struct dev_counters *d, int ns, int ifindex)
{
	struct nlb b;
	struct ifinfomsg *ifi;
	int fd;

	if (ifindex <= 0 || (fd = nl_open_in(ns, NETLINK_ROUTE)) < 0)
		return;
	nlb_init(&b, RTM_GETLINK, 0);
	ifi = nlb_put(&b, sizeof(*ifi));
	ifi->ifi_index = ifindex;
	nl_talk(fd, &b, link_reply, d);
	close(fd);
}

static void read_sock(struct counters *c, int fd)
{
	uint32_t mem[SK_MEMINFO_VARS] = { 0 };
	socklen_t len = sizeof(mem);

	if (fd >= 0 && getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mem, &len) == 0 &&
	    len > SK_MEMINFO_DROPS * sizeof(uint32_t))
		c->sock_drops = mem[SK_MEMINFO_DROPS];
}

int counters_read(struct counters *c, const struct counters_src *src)
{
	struct timespec ts;

	memset(c, 0, sizeof(*c));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	c->t_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	if (read_stat(c))
		return -1;
	read_cpuidle(c);
	read_softnet(c);
	read_softirqs(c);
	read_interrupts(c);
	if (src) {
		read_link(&c->rx_dev, src->rx_ns, src->rx_ifindex);
		read_link(&c->tx_dev, src->tx_ns, src->tx_ifindex);
		read_sock(c, src->sock_fd);
		for (int q = 0; q < COUNTERS_MAX_QUEUES && src->napi_pid[q] > 0; q++)
			read_kthread(c, src->napi_pid[q]);
		for (int q = 0; q < COUNTERS_MAX_QUEUES && src->rx_tid[q] > 0; q++)
			c->rx_thread_ns += read_run_ns(src->rx_tid[q]);
	}
	return 0;
}

static void dev_diff(struct dev_counters *d, const struct dev_counters *a,
		     const struct dev_counters *b)
{
	d->valid = a->valid && b->valid;
	d->rx_packets = a->rx_packets - b->rx_packets;
	d->tx_packets = a->tx_packets - b->tx_packets;
	d->rx_dropped = a->rx_dropped - b->rx_dropped;
	d->tx_dropped = a->tx_dropped - b->tx_dropped;
}

/* softnet_stat columns are 32-bit. */
static uint64_t diff32(uint64_t a, uint64_t b)
{
	return (uint32_t)((uint32_t)a - (uint32_t)b);
}

void counters_diff(struct counters *d, const struct counters *after,
		   const struct counters *before)
{
	memset(d, 0, sizeof(*d));
	d->t_ns = after->t_ns - before->t_ns;
	d->ncpu = after->ncpu;
	for (int i = 0; i < after->ncpu; i++) {
		const struct cpu_counters *a = &after->cpu[i], *b = &before->cpu[i];
		struct cpu_counters *x = &d->cpu[i];

		x->processed = diff32(a->processed, b->processed);
		x->dropped = diff32(a->dropped, b->dropped);
		x->time_squeeze = diff32(a->time_squeeze, b->time_squeeze);
		x->net_rx = a->net_rx - b->net_rx;
		x->irqs = a->irqs - b->irqs;
		x->ticks_busy = a->ticks_busy - b->ticks_busy;
		x->ticks_idle = a->ticks_idle - b->ticks_idle;
		x->ticks_irq = a->ticks_irq - b->ticks_irq;
		x->ticks_softirq = a->ticks_softirq - b->ticks_softirq;
		x->idle_valid = a->idle_valid && b->idle_valid;
		x->idle_us = x->idle_valid ? a->idle_us - b->idle_us : 0;
	}
	dev_diff(&d->rx_dev, &after->rx_dev, &before->rx_dev);
	dev_diff(&d->tx_dev, &after->tx_dev, &before->tx_dev);
	d->sock_drops = after->sock_drops - before->sock_drops;
	d->napi_ns = after->napi_ns - before->napi_ns;
	d->napi_wakeups = after->napi_wakeups - before->napi_wakeups;
	d->rx_thread_ns = after->rx_thread_ns - before->rx_thread_ns;
}

double counters_cpu_busy_pct(const struct counters *d, int cpu)
{
	uint64_t all;

	if (cpu < 0 || cpu >= d->ncpu)
		return NAN;
	if (d->cpu[cpu].idle_valid && d->t_ns > 0) {
		double idle = 1000.0 * (double)d->cpu[cpu].idle_us / (double)d->t_ns;
		return 100.0 * (idle < 1.0 ? 1.0 - idle : 0.0);
	}
	all = d->cpu[cpu].ticks_busy + d->cpu[cpu].ticks_idle;
	return all ? 100.0 * (double)d->cpu[cpu].ticks_busy / (double)all : NAN;
}

double counters_ticks_ns(uint64_t ticks)
{
	static long hz;

	if (hz <= 0)
		hz = sysconf(_SC_CLK_TCK);
	return hz > 0 ? (double)ticks * 1e9 / (double)hz : NAN;
}
