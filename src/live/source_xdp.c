/* source_xdp.c - an AF_XDP socket as a packet source (see loop_impl.h for
 * the ops contract; Documentation/networking/af_xdp.rst), built on libxdp's
 * xsk API.
 *
 * One UMEM of xdp-frames frames of 4096 bytes; every frame starts in the
 * fill ring.  poll() takes up to max descriptors from the RX ring and
 * remembers their frames; release() puts those frames back in the fill
 * ring.  With need_wakeup (XDP_USE_NEED_WAKEUP, the default) the kernel
 * says through the fill ring's flag when it must be kicked; an empty poll
 * then calls recvfrom() once, as af_xdp.rst describes, and otherwise makes
 * no system call at all.
 *
 * libxdp attaches its default program (xsk_def_xdp_prog, redirect the
 * queue to the socket) through its dispatcher; without a bpffs mount it
 * cannot record that and leaves the program attached when the socket
 * goes.  So close() detaches it explicitly when the interface had no XDP
 * program before the source was opened.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live/loop_impl.h"

#ifndef RXLAB_HAVE_XDP

struct rxl_source *rxl_source_xdp(const char *ifname, uint32_t queue, const struct rxl_config *c,
				  char *err, size_t errlen)
{
	(void)ifname;
	(void)queue;
	(void)c;
	snprintf(err, errlen, "AF_XDP: this build has no libxdp (install libxdp-dev and libbpf-dev, then rebuild)");
	return NULL;
}

#else

#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <net/if.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>
#include <xdp/xsk.h>

#define XDP_FRAME_BYTES XSK_UMEM__DEFAULT_FRAME_SIZE

/* libbpf and libxdp log their fallbacks (no bpffs, no dispatcher) to
 * stderr; the error that matters comes back as a return value and goes
 * into the caller's message.  Quiet them for the duration of a call and
 * give the program's own printers back afterwards. */
static int quiet(enum libbpf_print_level l, const char *f, va_list ap)
{
	(void)l;
	(void)f;
	(void)ap;
	return 0;
}

static int quiet_xdp(enum libxdp_print_level l, const char *f, va_list ap)
{
	(void)l;
	(void)f;
	(void)ap;
	return 0;
}

struct printers {
	libbpf_print_fn_t bpf;
	libxdp_print_fn_t xdp;
};

static struct printers printers_quiet(void)
{
	struct printers p = { libbpf_set_print(quiet), libxdp_set_print(quiet_xdp) };
	return p;
}

static void printers_restore(struct printers p)
{
	libbpf_set_print(p.bpf);
	libxdp_set_print(p.xdp);
}


struct xdp_source {
	struct rxl_source base;
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	struct xsk_ring_prod fq;
	struct xsk_ring_cons cq;
	struct xsk_ring_cons rx;
	uint8_t *area;
	size_t area_bytes;
	int ifindex;
	bool had_prog;        /* the interface had an XDP program before */
	uint32_t npending;
	uint64_t *pending;    /* frames handed out since the last release */
	uint64_t wakeups;     /* need_wakeup kicks */
};

static int xdp_poll(struct rxl_source *s, struct rxl_pkt *pkts, uint32_t max)
{
	struct xdp_source *x = (struct xdp_source *)s;
	uint32_t idx;
	uint32_t n = xsk_ring_cons__peek(&x->rx, max, &idx);
	if (n == 0) {
		if (xsk_ring_prod__needs_wakeup(&x->fq)) {
			x->wakeups++;
			recvfrom(s->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
		}
		return 0;
	}
	int64_t now = rxl_now();
	for (uint32_t i = 0; i < n; i++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&x->rx, idx + i);
		pkts[i] = (struct rxl_pkt){ .data = xsk_umem__get_data(x->area, d->addr), .len = d->len,
					    .rx_ns = (uint64_t)now };
		x->pending[x->npending++] = xsk_umem__extract_addr(d->addr);
	}
	xsk_ring_cons__release(&x->rx, n);
	return (int)n;
}

static void xdp_release(struct rxl_source *s)
{
	struct xdp_source *x = (struct xdp_source *)s;
	uint32_t idx, n = x->npending;
	/* The fill ring holds every frame, so there is always room.  The
	 * reservation is all or nothing (it returns 0 or n, and sets idx
	 * only for n): should it ever fail, keep the frames for the next
	 * release instead of losing them. */
	if (n == 0 || xsk_ring_prod__reserve(&x->fq, n, &idx) == 0)
		return;
	for (uint32_t i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(&x->fq, idx + i) = x->pending[i];
	xsk_ring_prod__submit(&x->fq, n);
	x->npending = 0;
}

/* Detach what libxdp attached (see the top of the file). */
static void xdp_detach(struct xdp_source *x)
{
	if (x->had_prog || x->ifindex <= 0)
		return;
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(x->ifindex);
	if (!mp || libxdp_get_error(mp))
		return;
	xdp_multiprog__detach(mp);
	xdp_multiprog__close(mp);
}

static void xdp_close(struct rxl_source *s)
{
	struct xdp_source *x = (struct xdp_source *)s;
	struct printers p = printers_quiet();
	if (x->xsk)
		xsk_socket__delete(x->xsk);
	if (x->umem)
		xsk_umem__delete(x->umem);
	if (x->xsk || x->umem)
		xdp_detach(x);
	if (x->area && x->area != MAP_FAILED)
		munmap(x->area, x->area_bytes);
	free(x->pending);
	free(x);
	printers_restore(p);
}

static uint64_t xdp_drops(struct rxl_source *s)
{
	struct xdp_statistics st;
	socklen_t len = sizeof st;
	if (getsockopt(s->fd, SOL_XDP, XDP_STATISTICS, &st, &len) != 0)
		return 0;
	return st.rx_dropped + st.rx_ring_full;
}

static const struct rxl_source_ops xdp_ops = {
	.name = "af-xdp", .poll = xdp_poll, .release = xdp_release, .drops = xdp_drops,
	.close = xdp_close,
};

static bool has_prog(int ifindex)
{
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(ifindex);
	if (!mp || libxdp_get_error(mp))
		return false;
	xdp_multiprog__close(mp);
	return true;
}

static int xdp_fill_all(struct xdp_source *x, uint32_t frames)
{
	uint32_t idx;
	if (xsk_ring_prod__reserve(&x->fq, frames, &idx) != frames)
		return -ENOSPC;
	for (uint32_t i = 0; i < frames; i++)
		*xsk_ring_prod__fill_addr(&x->fq, idx + i) = (uint64_t)i * XDP_FRAME_BYTES;
	xsk_ring_prod__submit(&x->fq, frames);
	return 0;
}

/* The kernel releases the queue of a closed AF_XDP socket asynchronously
 * (the UMEM goes in deferred work), so binding the same queue again right
 * after a close fails with EBUSY for a moment: retry for up to
 * XSK_BUSY_RETRY_MS. */
#define XSK_BUSY_RETRY_MS 500

static int xsk_create_retry(struct xdp_source *x, const char *ifname, uint32_t queue,
			    const struct xsk_socket_config *sc)
{
	struct timespec ms = { .tv_nsec = 1000000 };
	int rc = 0;
	for (int i = 0; i <= XSK_BUSY_RETRY_MS; i++) {
		rc = xsk_socket__create(&x->xsk, ifname, queue, x->umem, &x->rx, NULL, sc);
		if (rc != -EBUSY)
			break;
		x->xsk = NULL;
		nanosleep(&ms, NULL);
	}
	return rc;
}

static int xdp_setup(struct xdp_source *x, const char *ifname, uint32_t queue,
		     const struct rxl_config *c)
{
	uint32_t frames = c->xdp_frames;
	x->area_bytes = (size_t)frames * XDP_FRAME_BYTES;
	x->area = mmap(NULL, x->area_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (x->area == MAP_FAILED)
		return -errno;
	struct xsk_umem_config uc = { .fill_size = frames, .comp_size = XSK_RING_CONS__DEFAULT_NUM_DESCS,
				      .frame_size = XDP_FRAME_BYTES };
	int rc = xsk_umem__create(&x->umem, x->area, x->area_bytes, &x->fq, &x->cq, &uc);
	if (rc)
		return rc;
	struct xsk_socket_config sc = {
		.rx_size = frames, .tx_size = XSK_RING_PROD__DEFAULT_NUM_DESCS,
		.xdp_flags = c->xdp_skb_mode ? XDP_FLAGS_SKB_MODE : XDP_FLAGS_DRV_MODE,
		.bind_flags = (uint16_t)((c->xdp_need_wakeup ? XDP_USE_NEED_WAKEUP : 0) |
					 (c->xdp_skb_mode ? XDP_COPY : 0)),
	};
	rc = xsk_create_retry(x, ifname, queue, &sc);
	if (rc)
		return rc;
	x->base.fd = xsk_socket__fd(x->xsk);
	return xdp_fill_all(x, frames);
}

static struct rxl_source *xdp_open(const char *ifname, uint32_t queue, const struct rxl_config *c,
				   char *err, size_t errlen)
{
	struct xdp_source *x = calloc(1, sizeof(*x));
	uint32_t slots = rxl_source_slots(c);
	if (x)
		x->pending = calloc(slots, sizeof(*x->pending));
	if (!x || !x->pending) {
		snprintf(err, errlen, "AF_XDP source: out of memory");
		free(x);
		return NULL;
	}
	x->base = (struct rxl_source){ .ops = &xdp_ops, .fd = -1, .slots = slots, .frames = true };
	x->ifindex = (int)if_nametoindex(ifname);
	if (x->ifindex == 0) {
		snprintf(err, errlen, "AF_XDP: no interface '%s'", ifname);
		xdp_close(&x->base);
		return NULL;
	}
	x->had_prog = has_prog(x->ifindex);
	int rc = xdp_setup(x, ifname, queue, c);
	if (rc) {
		snprintf(err, errlen, "AF_XDP socket on %s queue %u (%s mode): %s%s", ifname, queue,
			 c->xdp_skb_mode ? "skb" : "driver", strerror(-rc),
			 rc == -EPERM ? " (needs CAP_NET_ADMIN and CAP_BPF)" : "");
		xdp_close(&x->base);
		return NULL;
	}
	return &x->base;
}

struct rxl_source *rxl_source_xdp(const char *ifname, uint32_t queue, const struct rxl_config *c,
				  char *err, size_t errlen)
{
	struct printers p = printers_quiet();
	struct rxl_source *s = xdp_open(ifname, queue, c, err, errlen);
	printers_restore(p);
	return s;
}

#endif
