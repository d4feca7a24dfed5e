/* knobs.c - device knobs with save and restore (see knobs.h).
 *
 * Roadmap: names and ranges; the three back ends (netdev netlink per NAPI,
 * sysfs per device, ethtool ioctl); then the saved set and its journal.
 */
#define _GNU_SOURCE
#include "live/knobs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>

#include "live/nl.h"
#include "rxlab/live.h"

#define JOURNAL_DIR "/run/rxlab"

static const char *const names[KNOB_COUNT] = {
	[KNOB_NAPI_DEFER_HARD_IRQS] = "napi_defer_hard_irqs",
	[KNOB_GRO_FLUSH_TIMEOUT] = "gro_flush_timeout",
	[KNOB_IRQ_SUSPEND_TIMEOUT] = "irq-suspend-timeout",
	[KNOB_THREADED] = "threaded",
	[KNOB_GRO] = "gro",
	[KNOB_TSO] = "tso",
	[KNOB_XDP] = "xdp",
};

const char *knob_name(enum knob k)
{
	return k < KNOB_COUNT ? names[k] : "?";
}

static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

int knob_parse(const char *name, enum knob *out)
{
	for (int k = 0; k < KNOB_COUNT; k++) {
		if (same_name(name, names[k])) {
			*out = (enum knob)k;
			return 0;
		}
	}
	return -1;
}

uint64_t knob_max(enum knob k)
{
	switch (k) {
	case KNOB_NAPI_DEFER_HARD_IRQS:
		return INT32_MAX;	/* net-sysfs.c: ERANGE above S32_MAX */
	case KNOB_GRO_FLUSH_TIMEOUT:
	case KNOB_IRQ_SUSPEND_TIMEOUT:
		return 3600ull * 1000000000ull;
	case KNOB_THREADED:
		return 2;
	case KNOB_XDP:
		return 0;
	case KNOB_GRO:
	case KNOB_TSO:
	case KNOB_COUNT:
		break;
	}
	return 1;
}

bool knob_is_time(enum knob k)
{
	return k == KNOB_GRO_FLUSH_TIMEOUT || k == KNOB_IRQ_SUSPEND_TIMEOUT;
}

/* ---- netdev netlink: napi-get / napi-set ------------------------------ */

static const uint16_t napi_attr[KNOB_COUNT] = {
	[KNOB_NAPI_DEFER_HARD_IRQS] = RXL_NAPI_A_DEFER_HARD_IRQS,
	[KNOB_GRO_FLUSH_TIMEOUT] = RXL_NAPI_A_GRO_FLUSH_TIMEOUT,
	[KNOB_IRQ_SUSPEND_TIMEOUT] = RXL_NAPI_A_IRQ_SUSPEND_TIMEOUT,
	[KNOB_THREADED] = RXL_NAPI_A_THREADED,
};

struct napi_dump {
	int ifindex, n, max;
	uint32_t *ids;
	int *pids;
	uint16_t attr;		/* value wanted from the first NAPI, 0 none */
	bool have;
	uint64_t value;
};

static int napi_reply(const struct nlmsghdr *m, void *arg)
{
	struct napi_dump *d = arg;
	const struct nlattr *tb[RXL_NAPI_A_MAX + 1];
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;

	nl_parse((const char *)m + off, m->nlmsg_len - off, tb, RXL_NAPI_A_MAX);
	if (!tb[RXL_NAPI_A_ID] || !tb[RXL_NAPI_A_IFINDEX] ||
	    (int)nl_get_u32(tb[RXL_NAPI_A_IFINDEX]) != d->ifindex || d->n >= d->max)
		return 0;
	d->ids[d->n] = nl_get_u32(tb[RXL_NAPI_A_ID]);
	if (d->pids)
		d->pids[d->n] = tb[RXL_NAPI_A_PID] ? (int)nl_get_u32(tb[RXL_NAPI_A_PID]) : 0;
	if (d->attr && !d->have && tb[d->attr]) {
		d->value = nl_get_uint(tb[d->attr]);
		d->have = true;
	}
	d->n++;
	return 0;
}

/* Open a netdev-family socket in @ns_fd; fd or negative errno, family in *fam.
 * A failed open with errno 0 must not read as fd 0 with *fam unset. */
static int netdev_open(int ns_fd, int *fam)
{
	int fd = nl_open_in(ns_fd, NETLINK_GENERIC), rc;

	if (fd < 0)
		return errno > 0 ? -errno : -EIO;
	rc = genl_family(fd, RXL_NETDEV_FAMILY);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	*fam = rc;
	return fd;
}

static void genl_start(struct nlb *b, int fam, uint8_t cmd, uint16_t flags)
{
	struct genlmsghdr *g;

	nlb_init(b, (uint16_t)fam, flags);
	g = nlb_put(b, GENL_HDRLEN);
	g->cmd = cmd;
	g->version = 1;
}

static int napi_dump_run(const struct knob_dev *dev, struct napi_dump *d)
{
	struct nlb b;
	int fam, fd = netdev_open(dev->ns_fd, &fam), rc;

	if (fd < 0)
		return fd;
	genl_start(&b, fam, RXL_NETDEV_CMD_NAPI_GET, NLM_F_DUMP);
	nlb_u32(&b, RXL_NAPI_A_IFINDEX, (uint32_t)dev->ifindex);
	rc = nl_talk(fd, &b, napi_reply, d);
	close(fd);
	return rc;
}

int knob_napi_list(const struct knob_dev *dev, uint32_t *ids, int *pids, int max)
{
	struct napi_dump d = { .ifindex = dev->ifindex, .max = max, .ids = ids, .pids = pids };
	int rc = napi_dump_run(dev, &d);

	return rc ? rc : d.n;
}

static int napi_set_one(int fd, int fam, uint32_t id, enum knob k, uint64_t v)
{
	struct nlb b;

	genl_start(&b, fam, RXL_NETDEV_CMD_NAPI_SET, 0);
	nlb_u32(&b, RXL_NAPI_A_ID, id);
	if (k == KNOB_NAPI_DEFER_HARD_IRQS || k == KNOB_THREADED)
		nlb_u32(&b, napi_attr[k], (uint32_t)v);
	else
		nlb_u64(&b, napi_attr[k], v);
	return nl_talk(fd, &b, NULL, NULL);
}

/* 0, -ENODEV when the device has no NAPI, or another negative errno. */
static int napi_put(const struct knob_dev *dev, enum knob k, uint64_t v)
{
	uint32_t ids[64];
	int n = knob_napi_list(dev, ids, NULL, 64), fam, fd, rc = 0;

	if (n <= 0)
		return n < 0 ? n : -ENODEV;
	fd = netdev_open(dev->ns_fd, &fam);
	if (fd < 0)
		return fd;
	for (int i = 0; i < n && rc == 0; i++)
		rc = napi_set_one(fd, fam, ids[i], k, v);
	close(fd);
	return rc;
}

static int napi_get(const struct knob_dev *dev, enum knob k, uint64_t *v)
{
	uint32_t ids[64];
	struct napi_dump d = { .ifindex = dev->ifindex, .max = 64, .ids = ids,
			       .attr = napi_attr[k] };
	int rc = napi_dump_run(dev, &d);

	if (rc)
		return rc;
	if (d.n == 0)
		return -ENODEV;
	if (!d.have)
		return -EOPNOTSUPP;	/* kernel without this attribute */
	*v = d.value;
	return 0;
}

/* ---- sysfs ------------------------------------------------------------ */

static const char *const sysfs_file[KNOB_COUNT] = {
	[KNOB_NAPI_DEFER_HARD_IRQS] = "napi_defer_hard_irqs",
	[KNOB_GRO_FLUSH_TIMEOUT] = "gro_flush_timeout",
	[KNOB_THREADED] = "threaded",
};

static int sysfs_path(const struct knob_dev *d, enum knob k, char *p, size_t n)
{
	if (d->ns_fd >= 0 || !sysfs_file[k])
		return -EOPNOTSUPP;
	snprintf(p, n, "/sys/class/net/%s/%s", d->ifname, sysfs_file[k]);
	return 0;
}

static int sysfs_get(const struct knob_dev *d, enum knob k, uint64_t *v)
{
	char p[128];
	FILE *f;
	int rc = sysfs_path(d, k, p, sizeof(p));

	if (rc)
		return rc;
	f = fopen(p, "re");
	if (!f)
		return -errno;
	rc = fscanf(f, "%" SCNu64, v) == 1 ? 0 : -EINVAL;
	fclose(f);
	return rc;
}

static int sysfs_put(const struct knob_dev *d, enum knob k, uint64_t v)
{
	char p[128], s[32];
	int fd, rc = sysfs_path(d, k, p, sizeof(p)), len;

	if (rc)
		return rc;
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(s, sizeof(s), "%" PRIu64 "\n", v);
	rc = write(fd, s, (size_t)len) == len ? 0 : -errno;
	close(fd);
	return rc;
}

/* ---- ethtool ioctl ---------------------------------------------------- */

static int ethtool_value(const struct knob_dev *d, uint32_t cmd, uint32_t *data)
{
	struct ethtool_value ev = { .cmd = cmd, .data = *data };
	struct ifreq ifr;
	int fd = socket_in(d->ns_fd, AF_INET, SOCK_DGRAM, 0), rc;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", d->ifname);
	ifr.ifr_data = (void *)&ev;
	rc = ioctl(fd, SIOCETHTOOL, &ifr) == 0 ? 0 : -errno;
	close(fd);
	*data = ev.data;
	return rc;
}

static int feature_get(const struct knob_dev *d, enum knob k, uint64_t *v)
{
	uint32_t data = 0;
	int rc = ethtool_value(d, k == KNOB_GRO ? ETHTOOL_GGRO : ETHTOOL_GTSO, &data);

	*v = data != 0;
	return rc;
}

static int feature_put(const struct knob_dev *d, enum knob k, uint64_t v)
{
	uint32_t data = (uint32_t)v;

	return ethtool_value(d, k == KNOB_GRO ? ETHTOOL_SGRO : ETHTOOL_STSO, &data);
}

/* ---- XDP program: attached?  detach ---------------------------------- */

static int xdp_reply(const struct nlmsghdr *m, void *arg)
{
	const struct nlattr *tb[IFLA_XDP + 1], *x[IFLA_XDP_MAX + 1];
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct ifinfomsg));

	if (m->nlmsg_type != RTM_NEWLINK || m->nlmsg_len < off)
		return 0;
	nl_parse((const char *)m + off, m->nlmsg_len - off, tb, IFLA_XDP);
	if (!tb[IFLA_XDP])
		return 0;
	nl_parse(nl_data(tb[IFLA_XDP]), tb[IFLA_XDP]->nla_len - NLA_HDRLEN, x, IFLA_XDP_MAX);
	if (x[IFLA_XDP_ATTACHED])
		*(uint64_t *)arg = *(const uint8_t *)nl_data(x[IFLA_XDP_ATTACHED]) != 0;
	return 0;
}

static int xdp_get(const struct knob_dev *d, uint64_t *v)
{
	struct nlb b;
	struct ifinfomsg *ifi;
	int fd = nl_open_in(d->ns_fd, NETLINK_ROUTE), rc;

	if (fd < 0)
		return -errno;
	*v = 0;
	nlb_init(&b, RTM_GETLINK, 0);
	ifi = nlb_put(&b, sizeof(*ifi));
	ifi->ifi_index = d->ifindex;
	rc = nl_talk(fd, &b, xdp_reply, v);
	close(fd);
	return rc;
}

/* Detach whatever XDP program is attached, in generic and in driver mode
 * (a detach names the mode it undoes). */
static int xdp_detach(const struct knob_dev *d)
{
	static const uint32_t modes[] = { XDP_FLAGS_SKB_MODE, XDP_FLAGS_DRV_MODE };
	int fd = nl_open_in(d->ns_fd, NETLINK_ROUTE), rc = 0;

	if (fd < 0)
		return -errno;
	for (size_t i = 0; i < 2 && rc == 0; i++) {
		struct nlb b;
		struct ifinfomsg *ifi;
		struct nlattr *x;

		nlb_init(&b, RTM_NEWLINK, 0);
		ifi = nlb_put(&b, sizeof(*ifi));
		ifi->ifi_index = d->ifindex;
		x = nlb_nest_start(&b, IFLA_XDP);
		nlb_u32(&b, IFLA_XDP_FD, (uint32_t)-1);
		nlb_u32(&b, IFLA_XDP_FLAGS, modes[i]);
		nlb_nest_end(&b, x);
		rc = nl_talk(fd, &b, NULL, NULL);
		if (rc == -EOPNOTSUPP)
			rc = 0;	/* a device without native XDP has nothing there */
	}
	close(fd);
	return rc;
}

/* ---- one knob --------------------------------------------------------- */

static int knob_fail(const struct knob_dev *d, enum knob k, const char *op, int rc,
		     char *err, size_t errlen)
{
	const char *why = rc == -ENODEV ? "the device has no NAPI instance"
			: rc == -ENOENT ? "the kernel has no netdev netlink family"
			: strerror(-rc);

	snprintf(err, errlen, "%s: cannot %s %s: %s", d->ifname, op, knob_name(k), why);
	return -1;
}

int knob_get(const struct knob_dev *d, enum knob k, uint64_t *v, char *err, size_t errlen)
{
	int rc;

	if (k == KNOB_GRO || k == KNOB_TSO)
		rc = feature_get(d, k, v);
	else if (k == KNOB_XDP)
		rc = xdp_get(d, v);
	else if ((rc = napi_get(d, k, v)) != 0 && sysfs_file[k] && d->ns_fd < 0)
		rc = sysfs_get(d, k, v);
	return rc ? knob_fail(d, k, "read", rc, err, errlen) : 0;
}

int knob_put(const struct knob_dev *d, enum knob k, uint64_t v, char *err, size_t errlen)
{
	int rc;

	if (v > knob_max(k)) {
		snprintf(err, errlen, "%s: %s %" PRIu64 " is out of range 0..%" PRIu64,
			 d->ifname, knob_name(k), v, knob_max(k));
		return -1;
	}
	if (k == KNOB_GRO || k == KNOB_TSO)
		rc = feature_put(d, k, v);
	else if (k == KNOB_XDP)
		rc = xdp_detach(d);
	else if ((rc = napi_put(d, k, v)) != 0 && sysfs_file[k] && d->ns_fd < 0 &&
		 !(k == KNOB_THREADED && v > 1))
		rc = sysfs_put(d, k, v);
	return rc ? knob_fail(d, k, "set", rc, err, errlen) : 0;
}

/* ---- the saved set and its journal ------------------------------------ */

/* Start time of process @pid in clock ticks since boot (/proc/PID/stat
 * field 22), 0 if there is no such process or it is a zombie (dead, not
 * yet reaped: its run is over). */
static unsigned long long proc_start(long pid)
{
	char p[64], buf[1024], *s, state = 0;
	unsigned long long t = 0;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%ld/stat", pid);
	f = fopen(p, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (s = strrchr(buf, ')')) != NULL)
		sscanf(s + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u "
			      "%*d %*d %*d %*d %*d %*d %llu", &state, &t);
	fclose(f);
	return state == 'Z' || state == 'X' ? 0 : t;
}

void knobs_init(struct knobs *ks, const struct knob_dev *d, bool journal)
{
	memset(ks, 0, sizeof(*ks));
	ks->dev = *d;
	if (journal)
		snprintf(ks->journal, sizeof(ks->journal), JOURNAL_DIR "/knobs.%ld",
			 (long)getpid());
}

/* Append "IFNAME IFINDEX KNOB OLD" to the journal (first line: our start
 * time), flushed to disk before the change is made. */
static int journal_add(struct knobs *ks, enum knob k, uint64_t old, char *err, size_t errlen)
{
	FILE *f;
	bool fresh;

	mkdir(JOURNAL_DIR, 0700);
	fresh = access(ks->journal, F_OK) != 0;
	f = fopen(ks->journal, "ae");
	if (!f) {
		snprintf(err, errlen, "%s: %s", ks->journal, strerror(errno));
		return -1;
	}
	if (fresh)
		fprintf(f, "start %llu\n", proc_start(getpid()));
	fprintf(f, "%s %d %s %" PRIu64 "\n", ks->dev.ifname, ks->dev.ifindex, knob_name(k), old);
	fflush(f);
	fsync(fileno(f));
	fclose(f);
	return 0;
}

static bool saved_already(const struct knobs *ks, enum knob k)
{
	for (size_t i = 0; i < ks->n; i++)
		if (ks->saved[i].k == k)
			return true;
	return false;
}

int knobs_set(struct knobs *ks, enum knob k, uint64_t v, char *err, size_t errlen)
{
	uint64_t old;
	bool first = !saved_already(ks, k);

	if (first) {
		if (ks->n == KNOBS_MAX) {
			snprintf(err, errlen, "more than %d device settings in one run", KNOBS_MAX);
			return -1;
		}
		if (knob_get(&ks->dev, k, &old, err, errlen))
			return -1;
		if (ks->journal[0] && journal_add(ks, k, old, err, errlen))
			return -1;
	}
	if (knob_put(&ks->dev, k, v, err, errlen))
		return -1;
	if (first) {
		ks->saved[ks->n].k = k;
		ks->saved[ks->n].old = old;
		ks->n++;
	}
	return 0;
}

int knobs_record(struct knobs *ks, enum knob k, uint64_t old, char *err, size_t errlen)
{
	if (saved_already(ks, k))
		return 0;
	if (ks->n == KNOBS_MAX) {
		snprintf(err, errlen, "more than %d device settings in one run", KNOBS_MAX);
		return -1;
	}
	if (ks->journal[0] && journal_add(ks, k, old, err, errlen))
		return -1;
	ks->saved[ks->n].k = k;
	ks->saved[ks->n].old = old;
	ks->n++;
	return 0;
}

int knobs_restore(struct knobs *ks, char *err, size_t errlen)
{
	char e[256];
	int failed = 0;

	while (ks->n > 0) {
		ks->n--;
		if (knob_put(&ks->dev, ks->saved[ks->n].k, ks->saved[ks->n].old, e, sizeof(e))) {
			failed++;
			if (err)
				snprintf(err, errlen, "%s", e);
		}
	}
	if (ks->journal[0] && failed == 0)
		unlink(ks->journal);
	return failed;
}

/* Restore one journal's lines, last first. */
static int reap_journal(const char *path, void (*log)(const char *line))
{
	char lines[KNOBS_MAX + 1][128], e[256], msg[400];
	int n = 0, done = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	while (n <= KNOBS_MAX && fgets(lines[n], sizeof(lines[n]), f))
		n++;
	fclose(f);
	while (--n >= 1) {
		struct knob_dev d = { .ns_fd = -1 };
		char kname[40];
		uint64_t old;
		enum knob k;

		if (sscanf(lines[n], "%15s %d %39s %" SCNu64, d.ifname, &d.ifindex, kname, &old) != 4 ||
		    knob_parse(kname, &k) || rxl_ifname_check(d.ifname, e, sizeof(e)) ||
		    (int)if_nametoindex(d.ifname) != d.ifindex)
			continue;
		if (knob_put(&d, k, old, e, sizeof(e)) == 0) {
			done++;
			snprintf(msg, sizeof(msg), "restored %s %s = %" PRIu64 " (left by a run that died)",
				 d.ifname, kname, old);
		} else {
			snprintf(msg, sizeof(msg), "%s", e);
		}
		if (log)
			log(msg);
	}
	unlink(path);
	return done;
}

/* Is the run that wrote @path (knobs.PID, first line "start T") gone? */
static bool journal_stale(const char *dir_entry, const char *path)
{
	unsigned long long t = 0;
	long pid = strtol(dir_entry + 6, NULL, 10);
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	if (fscanf(f, "start %llu", &t) != 1)
		t = 0;
	fclose(f);
	if (pid == (long)getpid())
		return false;
	if (kill((pid_t)pid, 0) != 0)
		return errno == ESRCH;
	return proc_start(pid) != t;	/* a zombie, or the pid reused */
}

int knobs_reap_stale(void (*log)(const char *line))
{
	DIR *dir = opendir(JOURNAL_DIR);
	struct dirent *de;
	char path[512];
	int done = 0;

	if (!dir)
		return 0;
	while ((de = readdir(dir)) != NULL) {
		if (strncmp(de->d_name, "knobs.", 6))
			continue;
		snprintf(path, sizeof(path), JOURNAL_DIR "/%s", de->d_name);
		if (journal_stale(de->d_name, path))
			done += reap_journal(path, log);
	}
	closedir(dir);
	return done;
}
