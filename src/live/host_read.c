/* host_read.c - CPUs, sysctls and the sysfs of one interface (see
 * host_read.h): the parsers of their text first, then the readers.
 *
 * Every file is read once with a bound (HOST_FILE_MAX bytes, /proc/cpuinfo
 * its first 16 KiB: the first CPU's lines), never followed further. */
#define _GNU_SOURCE
#include "live/host_read.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rxlab/live.h"

#define HOST_FILE_MAX 4096

/* ---- parsers ---------------------------------------------------------- */

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

/* One decimal number at *@s; advances past it. */
static bool take_num(const char **s, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return false;
	errno = 0;
	*v = strtoul(*s, &end, 10);
	if (errno)
		return false;
	*s = end;
	return true;
}

int host_cpulist_count(const char *s)
{
	long n = 0;

	s = skip_blank(s);
	while (*s) {
		unsigned long a, b;

		if (!take_num(&s, &a))
			return -1;
		b = a;
		if (*s == '-' && (s++, !take_num(&s, &b)))
			return -1;
		if (b < a || b - a > 1u << 20)
			return -1;
		n += (long)(b - a + 1);
		if (*s == ',')
			s++;
		else if (*skip_blank(s))
			return -1;
		else
			break;
	}
	return n > 1 << 20 ? -1 : (int)n;
}

int host_cpuinfo_field(const char *text, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *p = l + klen, *end;

		if (strncmp(l, key, klen) || (*p != '\t' && *p != ' ' && *p != ':'))
			continue;
		while (*p == '\t' || *p == ' ')
			p++;
		if (*p != ':')
			continue;
		p = p[1] == ' ' ? p + 2 : p + 1;
		end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		snprintf(out, len, "%.*s", (int)(end - p), p);
		return 0;
	}
	return -1;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Append CPUs [a, b] to the list in @out (at @*at). */
static int list_add(char *out, size_t len, size_t *at, int a, int b)
{
	int w = a == b ? snprintf(out + *at, len - *at, "%s%d", *at ? "," : "", a)
		       : snprintf(out + *at, len - *at, "%s%d-%d", *at ? "," : "", a, b);

	if (w < 0 || (size_t)w >= len - *at)
		return -1;
	*at += (size_t)w;
	return 0;
}

int host_mask_to_list(const char *mask, char *out, size_t len)
{
	size_t n = strcspn(mask, "\n"), at = 0;
	int cpu = 0, run = -1, digits = 0;

	if (len == 0)
		return -1;
	out[0] = '\0';
	/* From the last hex digit (CPUs 0-3) to the first. */
	for (size_t i = n; i-- > 0;) {
		int d = hex_digit(mask[i]);

		if (mask[i] == ',')
			continue;
		if (d < 0)
			return -1;
		digits++;
		for (int bit = 0; bit < 4; bit++, cpu++) {
			if (d & (1 << bit)) {
				if (run < 0)
					run = cpu;
			} else if (run >= 0) {
				if (list_add(out, len, &at, run, cpu - 1))
					return -1;
				run = -1;
			}
		}
	}
	if (run >= 0 && list_add(out, len, &at, run, cpu - 1))
		return -1;
	return digits ? 0 : -1;
}

int host_parse_u64(const char *s, uint64_t *v)
{
	char *end;

	s = skip_blank(s);
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *skip_blank(end) ? -1 : 0;
}

/* ---- reading files ---------------------------------------------------- */

/* Up to @len - 1 bytes of @path into @buf; 0 or a positive errno. */
static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), e;
	size_t at = 0;
	ssize_t r = 0;

	if (fd < 0)
		return errno;
	while (at + 1 < len && (r = read(fd, buf + at, len - 1 - at)) > 0)
		at += (size_t)r;
	e = r < 0 ? errno : 0;
	close(fd);
	buf[at] = '\0';
	return e;
}

static void read_val(const char *path, struct host_val *v)
{
	char buf[64];

	v->v = 0;
	v->err = read_file(path, buf, sizeof(buf));
	if (!v->err && host_parse_u64(buf, &v->v))
		v->err = EINVAL;
}

/* One line of text (its newline dropped). */
static void read_text(const char *path, struct host_text *t)
{
	char buf[HOST_FILE_MAX];

	t->s[0] = '\0';
	t->err = read_file(path, buf, sizeof(buf));
	if (!t->err)
		snprintf(t->s, sizeof(t->s), "%.*s", (int)strcspn(buf, "\n"), buf);
}

static void read_cpulist(const char *path, struct host_val *v, struct host_text *t)
{
	int n;

	read_text(path, t);
	v->err = t->err;
	v->v = 0;
	if (!t->err && (n = host_cpulist_count(t->s)) >= 0)
		v->v = (uint64_t)n;
	else if (!t->err)
		v->err = EINVAL;
}

/* ---- CPUs ------------------------------------------------------------- */

static void read_cpuinfo(struct host_cpu *c)
{
	char buf[16384];
	int e = read_file("/proc/cpuinfo", buf, sizeof(buf));

	c->vendor.err = c->model.err = e;
	if (e)
		return;
	/* x86: vendor_id, model name; arm64: CPU implementer (no model name) */
	if (host_cpuinfo_field(buf, "vendor_id", c->vendor.s, sizeof(c->vendor.s)) &&
	    host_cpuinfo_field(buf, "CPU implementer", c->vendor.s, sizeof(c->vendor.s)))
		c->vendor.err = ENOENT;
	if (host_cpuinfo_field(buf, "model name", c->model.s, sizeof(c->model.s)))
		c->model.err = ENOENT;
}

static void read_cstates(struct host_cpu *c)
{
	char path[128];

	c->n_cstates = 0;
	c->cstates_err = 0;
	for (int i = 0; i < HOST_MAX_CSTATES; i++) {
		struct host_text name;
		struct host_val lat;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/name", i);
		read_text(path, &name);
		if (name.err) {
			if (i == 0)
				c->cstates_err = name.err;
			return;
		}
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/latency", i);
		read_val(path, &lat);
		snprintf(c->cstate[i].name, sizeof(c->cstate[i].name), "%.*s", (int)sizeof(c->cstate[i].name) - 1, name.s);
		c->cstate[i].latency_us = lat.err ? 0 : lat.v;
		c->n_cstates = i + 1;
	}
}

void host_read_cpu(struct host_cpu *c)
{
	struct host_text nodes;

	memset(c, 0, sizeof(*c));
	read_cpulist("/sys/devices/system/cpu/online", &c->online, &c->online_list);
	read_cpuinfo(c);
	read_cpulist("/sys/devices/system/node/online", &c->numa_nodes, &nodes);
	read_text("/sys/devices/system/cpu/cpuidle/current_driver", &c->idle_driver);
	read_text("/sys/devices/system/cpu/cpuidle/current_governor", &c->idle_governor);
	if (c->idle_governor.err)	/* kernels before 5.? have only the _ro file */
		read_text("/sys/devices/system/cpu/cpuidle/current_governor_ro", &c->idle_governor);
	read_cstates(c);
}

/* ---- sysctls ---------------------------------------------------------- */

static const char *const sysctl_names[HOST_SYSCTL_COUNT] = {
	[HOST_NETDEV_BUDGET] = "netdev_budget",
	[HOST_NETDEV_BUDGET_USECS] = "netdev_budget_usecs",
	[HOST_DEV_WEIGHT] = "dev_weight",
	[HOST_NETDEV_MAX_BACKLOG] = "netdev_max_backlog",
	[HOST_BUSY_POLL] = "busy_poll",
	[HOST_BUSY_READ] = "busy_read",
	[HOST_RPS_SOCK_FLOW_ENTRIES] = "rps_sock_flow_entries",
};

const char *host_sysctl_name(enum host_sysctl s)
{
	static char full[HOST_SYSCTL_COUNT][40];

	if (s >= HOST_SYSCTL_COUNT)
		return "?";
	if (!full[s][0])
		snprintf(full[s], sizeof(full[s]), "net.core.%s", sysctl_names[s]);
	return full[s];
}

/* In a namespace other than the first, the kernel registers these files
 * for the initial namespace only (net/core/sysctl_net_core.c
 * net_core_table): they are ENOENT there, and named so. */
void host_read_sysctls(struct host_val out[HOST_SYSCTL_COUNT])
{
	char path[96];

	for (int s = 0; s < HOST_SYSCTL_COUNT; s++) {
		snprintf(path, sizeof(path), "/proc/sys/net/core/%s", sysctl_names[s]);
		read_val(path, &out[s]);
	}
}

/* ---- the interface's sysfs -------------------------------------------- */

static void nic_file(const struct host_nic *n, const char *file, struct host_val *v)
{
	char path[160];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", n->ifname, file);
	read_val(path, v);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* /sys/class/net/IF/device/msi_irqs/N: the device's vectors (absent for
 * virtual devices: ENOENT), each with its affinity list. */
static void read_irqs(struct host_nic *n)
{
	char path[160];
	unsigned irqs[HOST_MAX_QUEUES];
	struct dirent *de;
	DIR *d;
	int k = 0;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device/msi_irqs", n->ifname);
	d = opendir(path);
	n->n_irq = 0;
	n->irq_err = d ? 0 : errno;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL && k < HOST_MAX_QUEUES)
		if (isdigit((unsigned char)de->d_name[0]))
			irqs[k++] = (unsigned)strtoul(de->d_name, NULL, 10);
	closedir(d);
	qsort(irqs, (size_t)k, sizeof(irqs[0]), cmp_uint);
	for (int i = 0; i < k; i++) {
		n->irq[i].irq = irqs[i];
		snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irqs[i]);
		read_text(path, &n->irq[i].affinity);
	}
	n->n_irq = k;
}

/* queues/rx-N/rps_cpus for N = 0.. until one is missing. */
static void read_rps(struct host_nic *n)
{
	char path[160], buf[256];

	n->n_rxq = 0;
	n->rxq_err = 0;
	for (int q = 0; q < HOST_MAX_QUEUES; q++) {
		struct host_text *t = &n->rps[q];

		snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-%d/rps_cpus", n->ifname, q);
		t->s[0] = '\0';
		t->err = read_file(path, buf, sizeof(buf));
		if (t->err == ENOENT) {
			if (q == 0)
				n->rxq_err = ENOENT;	/* CONFIG_RPS off, or no queue */
			return;
		}
		if (!t->err && host_mask_to_list(buf, t->s, sizeof(t->s)))
			t->err = EINVAL;
		n->n_rxq = q + 1;
	}
}

/* The affinity of each NAPI's IRQ (napi-get irq). */
static void read_napi_irqs(struct host_nic *n)
{
	char path[64];

	for (int i = 0; i < n->n_napi; i++) {
		struct host_napi *p = &n->napi[i];

		p->affinity.s[0] = '\0';
		p->affinity.err = p->irq.err;
		if (p->irq.err)
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", (unsigned)p->irq.v);
		read_text(path, &p->affinity);
	}
}

int host_read_nic(const char *ifname, struct host_nic *n)
{
	char err[128];

	memset(n, 0, sizeof(*n));
	if (rxl_ifname_check(ifname, err, sizeof(err)))
		return -EINVAL;
	snprintf(n->ifname, sizeof(n->ifname), "%s", ifname);
	n->ifindex = (int)if_nametoindex(ifname);
	if (n->ifindex == 0)
		return -ENODEV;
	nic_file(n, "mtu", &n->mtu);
	nic_file(n, "threaded", &n->sys_threaded);
	nic_file(n, "napi_defer_hard_irqs", &n->sys_defer_hard_irqs);
	nic_file(n, "gro_flush_timeout", &n->sys_gro_flush_timeout);
	read_irqs(n);
	read_rps(n);
	host_read_ethtool(n);
	host_read_napi(n);
	read_napi_irqs(n);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

int host_list_ifaces(char (*names)[16], int max)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *de;
	int k = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL && k < max) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= 16)
			continue;
		memcpy(names[k++], de->d_name, strlen(de->d_name) + 1);	/* < 16, checked above */
	}
	closedir(d);
	qsort(names, (size_t)k, 16, cmp_name);
	return k;
}
