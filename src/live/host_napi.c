/* host_napi.c - the NAPI instances of one interface and their settings,
 * as `ynl --family netdev --dump napi-get` shows them: a napi-get dump of
 * the netdev generic netlink family (Linux 6.9+; the per-NAPI settings
 * defer-hard-irqs, gro-flush-timeout 6.13+, irq-suspend-timeout 6.13+,
 * threaded 6.18+).  An attribute the kernel does not send is ENOENT. */
#define _GNU_SOURCE
#include "live/host_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/genetlink.h>

#include "live/nl.h"

static void attr(const struct nlattr *a, struct host_val *v)
{
	v->v = a ? nl_get_uint(a) : 0;
	v->err = a ? 0 : ENOENT;
}

static int napi_reply(const struct nlmsghdr *m, void *arg)
{
	struct host_nic *n = arg;
	const struct nlattr *tb[RXL_NAPI_A_MAX + 1];
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;
	struct host_napi *p;

	if (m->nlmsg_len < off)
		return 0;
	nl_parse((const char *)m + off, m->nlmsg_len - off, tb, RXL_NAPI_A_MAX);
	if (!tb[RXL_NAPI_A_ID] || !tb[RXL_NAPI_A_IFINDEX] ||
	    (int)nl_get_u32(tb[RXL_NAPI_A_IFINDEX]) != n->ifindex || n->n_napi >= HOST_MAX_NAPI)
		return 0;
	p = &n->napi[n->n_napi++];
	p->id = nl_get_u32(tb[RXL_NAPI_A_ID]);
	attr(tb[RXL_NAPI_A_IRQ], &p->irq);
	attr(tb[RXL_NAPI_A_PID], &p->pid);
	attr(tb[RXL_NAPI_A_DEFER_HARD_IRQS], &p->defer_hard_irqs);
	attr(tb[RXL_NAPI_A_GRO_FLUSH_TIMEOUT], &p->gro_flush_timeout);
	attr(tb[RXL_NAPI_A_IRQ_SUSPEND_TIMEOUT], &p->irq_suspend_timeout);
	attr(tb[RXL_NAPI_A_THREADED], &p->threaded);
	return 0;
}

static int by_id(const void *a, const void *b)
{
	uint32_t x = ((const struct host_napi *)a)->id, y = ((const struct host_napi *)b)->id;

	return (x > y) - (x < y);
}

/* The dump lists the device's napi_list, newest first (list_add_rcu at
 * netif_napi_add()); ids are handed out in creation order, so ascending
 * id is the order the driver created its queues' NAPIs in. */
void host_read_napi(struct host_nic *n)
{
	struct nlb b;
	struct genlmsghdr *g;
	int fd = nl_open(NETLINK_GENERIC), fam, rc;

	n->n_napi = 0;
	if (fd < 0) {
		n->napi_err = errno ? errno : EIO;
		return;
	}
	fam = genl_family(fd, RXL_NETDEV_FAMILY);
	if (fam < 0) {
		n->napi_err = -fam;
		close(fd);
		return;
	}
	nlb_init(&b, (uint16_t)fam, NLM_F_DUMP);
	g = nlb_put(&b, GENL_HDRLEN);
	g->cmd = RXL_NETDEV_CMD_NAPI_GET;
	g->version = 1;
	nlb_u32(&b, RXL_NAPI_A_IFINDEX, (uint32_t)n->ifindex);
	rc = nl_talk(fd, &b, napi_reply, n);
	close(fd);
	n->napi_err = rc < 0 ? -rc : n->n_napi == 0 ? ENODATA : 0;
	qsort(n->napi, (size_t)n->n_napi, sizeof(n->napi[0]), by_id);
}
