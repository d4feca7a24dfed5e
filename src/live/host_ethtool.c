/* host_ethtool.c - what `ethtool -i -l -g -c -k -x` and the link speed
 * show, read with the SIOCETHTOOL ioctl (include/uapi/linux/ethtool.h,
 * net/ethtool/ioctl.c) rather than by running ethtool: rxlab needs no
 * ethtool binary, and each operation's errno is kept for the report (a
 * driver without the operation answers EOPNOTSUPP). */
#define _GNU_SOURCE
#include "live/host_read.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

/* One SIOCETHTOOL request on @fd for @ifname: 0 or a positive errno
 * (@fd < 0: no socket, -@fd is why). */
static int ethtool(int fd, const char *ifname, void *req)
{
	struct ifreq ifr;

	if (fd < 0)
		return -fd;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = req;
	return ioctl(fd, SIOCETHTOOL, &ifr) == 0 ? 0 : errno;
}

static void set(struct host_val *v, uint64_t x, int err)
{
	v->v = err ? 0 : x;
	v->err = err;
}

static void text(struct host_text *t, const char *s, size_t len, int err)
{
	t->err = err;
	snprintf(t->s, sizeof(t->s), "%.*s", err ? 0 : (int)strnlen(s, len), s);
	if (!err && !t->s[0])
		t->err = ENODATA;	/* the driver fills nothing: "" in ethtool -i */
}

static void drvinfo(int fd, struct host_nic *n)
{
	struct ethtool_drvinfo d = { .cmd = ETHTOOL_GDRVINFO };
	int e = ethtool(fd, n->ifname, &d);

	text(&n->driver, d.driver, sizeof(d.driver), e);
	text(&n->version, d.version, sizeof(d.version), e);
	text(&n->firmware, d.fw_version, sizeof(d.fw_version), e);
	text(&n->bus, d.bus_info, sizeof(d.bus_info), e);
}

static void channels(int fd, struct host_nic *n)
{
	struct ethtool_channels c = { .cmd = ETHTOOL_GCHANNELS };
	int e = ethtool(fd, n->ifname, &c);

	set(&n->combined, c.combined_count, e);
	set(&n->rx_channels, c.rx_count, e);
	set(&n->tx_channels, c.tx_count, e);
	set(&n->max_combined, c.max_combined, e);
	set(&n->max_rx, c.max_rx, e);
}

static void rings(int fd, struct host_nic *n)
{
	struct ethtool_ringparam r = { .cmd = ETHTOOL_GRINGPARAM };
	int e = ethtool(fd, n->ifname, &r);

	set(&n->rx_ring, r.rx_pending, e);
	set(&n->tx_ring, r.tx_pending, e);
	set(&n->rx_ring_max, r.rx_max_pending, e);
	set(&n->tx_ring_max, r.tx_max_pending, e);
}

static void coalesce(int fd, struct host_nic *n)
{
	struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };
	int e = ethtool(fd, n->ifname, &c);

	set(&n->rx_usecs, c.rx_coalesce_usecs, e);
	set(&n->rx_frames, c.rx_max_coalesced_frames, e);
	set(&n->tx_usecs, c.tx_coalesce_usecs, e);
	set(&n->tx_frames, c.tx_max_coalesced_frames, e);
	set(&n->adaptive_rx, c.use_adaptive_rx_coalesce, e);
	set(&n->adaptive_tx, c.use_adaptive_tx_coalesce, e);
}

static void gro(int fd, struct host_nic *n)
{
	struct ethtool_value v = { .cmd = ETHTOOL_GGRO };
	int e = ethtool(fd, n->ifname, &v);

	set(&n->gro, v.data != 0, e);
}

/* ETHTOOL_GLINKSETTINGS: a first call with no mask words answers how many
 * the kernel has (negated), the second gets the settings. */
static void speed(int fd, struct host_nic *n)
{
	/* the settings and the three link-mode masks after them; nwords is
	 * an s8, so at most 127 words each */
	uint32_t buf[(sizeof(struct ethtool_link_settings) + 3 * 127 * 4) / 4 + 1];
	struct ethtool_link_settings *s = (struct ethtool_link_settings *)buf;
	int e;

	memset(buf, 0, sizeof(buf));
	s->cmd = ETHTOOL_GLINKSETTINGS;
	e = ethtool(fd, n->ifname, s);
	if (!e && s->link_mode_masks_nwords >= 0)
		e = EPROTO;
	if (!e) {
		int8_t nw = (int8_t)-s->link_mode_masks_nwords;

		memset(buf, 0, sizeof(buf));
		s->cmd = ETHTOOL_GLINKSETTINGS;
		s->link_mode_masks_nwords = nw;
		e = ethtool(fd, n->ifname, s);
	}
	if (!e && (s->speed == 0 || s->speed == (uint32_t)SPEED_UNKNOWN))
		e = ENODATA;	/* no link, or a driver that does not know */
	set(&n->speed_mbps, s->speed, e);
}

/* The indirection table: ETHTOOL_GRSSH (sizes, then table), or the older
 * ETHTOOL_GRXFHINDIR where the driver lacks it.  A table larger than
 * HOST_INDIR_MAX keeps its size and no entries (E2BIG). */
static int rss_table(int fd, struct host_nic *n, uint32_t size, uint32_t key)
{
	size_t len = sizeof(struct ethtool_rxfh) + size * 4u + key;
	struct ethtool_rxfh *r = calloc(1, len);
	int e;

	if (!r)
		return ENOMEM;
	r->cmd = ETHTOOL_GRSSH;
	r->indir_size = size;
	r->key_size = key;
	e = ethtool(fd, n->ifname, r);
	if (!e)
		memcpy(n->indir, r->rss_config, size * 4u);
	free(r);
	return e;
}

static int rss_old(int fd, struct host_nic *n)
{
	struct ethtool_rxfh_indir q = { .cmd = ETHTOOL_GRXFHINDIR }, *r;
	int e = ethtool(fd, n->ifname, &q);

	set(&n->indir_size, q.size, e);
	if (e || q.size > HOST_INDIR_MAX)
		return e ? e : E2BIG;
	r = calloc(1, sizeof(*r) + q.size * 4u);
	if (!r)
		return ENOMEM;
	r->cmd = ETHTOOL_GRXFHINDIR;
	r->size = q.size;
	e = ethtool(fd, n->ifname, r);
	if (!e)
		memcpy(n->indir, r->ring_index, q.size * 4u);
	free(r);
	return e;
}

static void rss(int fd, struct host_nic *n)
{
	struct ethtool_rxfh q = { .cmd = ETHTOOL_GRSSH };
	int e = ethtool(fd, n->ifname, &q);

	set(&n->key_size, q.key_size, e);
	if (e == EOPNOTSUPP) {
		e = rss_old(fd, n);
		if (e)
			n->indir_size.err = e;
		return;
	}
	set(&n->indir_size, q.indir_size, e);
	if (!e && q.indir_size == 0)
		n->indir_size.err = ENODATA;	/* RSS without a table */
	else if (!e && q.indir_size > HOST_INDIR_MAX)
		n->indir_size.err = E2BIG;
	else if (!e && (e = rss_table(fd, n, q.indir_size, q.key_size)) != 0)
		n->indir_size.err = e;
}

void host_read_ethtool(struct host_nic *n)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		fd = -errno;	/* every read then fails with the socket's reason */
	drvinfo(fd, n);
	speed(fd, n);
	channels(fd, n);
	rings(fd, n);
	coalesce(fd, n);
	gro(fd, n);
	rss(fd, n);
	if (fd >= 0)
		close(fd);
}
