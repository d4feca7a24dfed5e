/* testbed.h - rxlab's own network: two network namespaces joined by a veth
 * pair, a sender side and a receiver side.
 *
 *   [ns tx]  rxlabPIDs 169.254.77.1/24  <==veth==>  rxlabPIDr 169.254.77.2/24  [ns rx]
 *
 * Cleanup cannot be forgotten, even after SIGKILL: the two namespaces are
 * anonymous (unshare(CLONE_NEWNET) in the calling thread, which keeps only
 * a file descriptor and goes back home), so nothing names them in
 * /run/netns, and the kernel destroys them - and the veth pair, its
 * addresses, its threaded-NAPI kthread and any XDP program attached to it -
 * as soon as the last descriptor closes, which process exit does.  The
 * alternative turned down: named namespaces (`ip netns add`) survive the
 * process and need a reaper keyed on the pid in their name.
 *
 * Link-local IPv4 addresses, fixed MAC addresses (02:72:78:6c:00:01/02,
 * locally administered) and permanent neighbour entries, so no ARP traffic
 * and no unresolved-neighbour queue drop the first packets.
 *
 * Receive processing: veth normally delivers inside the sender's
 * sendmsg() on the sender's CPU.  With @napi, GRO is turned on at the
 * receiving veth and TSO off at the sending one, which makes veth queue
 * packets on its 256-entry ring and poll them with NAPI (drivers/net/veth.c
 * veth_skb_is_eligible_for_gro); with @threaded, that NAPI runs in its own
 * kthread pinned to @rx_cpu, so receive work lands on the receiver's core
 * as with a NIC whose IRQ is bound there.
 *
 * Queues (@queues > 1): both veth devices get that many RX and TX queues
 * (IFLA_NUM_RX_QUEUES / IFLA_NUM_TX_QUEUES, as `ip link add ... numrxqueues
 * N numtxqueues N`; veth's real queue counts start at those, `ethtool -L`
 * could lower them).  veth_xmit() hands a packet to the peer's RX queue of
 * the same index as the TX queue the sender's stack picked
 * (skb_get_queue_mapping(), drivers/net/veth.c), and the stack picks the TX
 * queue of a connected socket from its random sk_txhash (netdev_pick_tx ->
 * skb_tx_hash, no XPS on veth), once per socket: so flows spread over the
 * queues by socket, not by packet, and which socket lands where is random.
 * Each RX queue has its own NAPI and, threaded, its own kthread.
 */
#ifndef RXLAB_LIVE_TESTBED_H
#define RXLAB_LIVE_TESTBED_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "live/counters.h"

#define TESTBED_PREFIX "rxlab"
#define TESTBED_MAX_QUEUES COUNTERS_MAX_QUEUES

struct testbed_opts {
	int rx_cpu, tx_cpu;	/* CPUs for the receiver and the sender, -1 = any */
	bool napi;		/* veth NAPI on the receiver (GRO rx, TSO off tx) */
	bool threaded;		/* threaded NAPI kthread pinned to rx_cpu (needs napi) */
	int napi_prio;		/* > 0: run that kthread SCHED_FIFO at this priority,
				 * as softirq work preempts threads on a NIC host */
	int queues;		/* veth queue pairs (numrxqueues = numtxqueues), 1..
				 * TESTBED_MAX_QUEUES; 0 means 1 */
	int queue_cpu[TESTBED_MAX_QUEUES];	/* CPU of queue q's NAPI kthread when
						 * queues > 1 (queue 0: rx_cpu) */
};

enum testbed_side { TESTBED_HOME, TESTBED_RX, TESTBED_TX };

struct testbed {
	int ns_home, ns_rx, ns_tx;	/* namespace fds, -1 = none */
	char rx_if[16], tx_if[16];	/* "rxlabPIDr", "rxlabPIDs" */
	int rx_ifindex, tx_ifindex;	/* in their namespaces */
	struct in_addr rx_addr, tx_addr;
	struct testbed_opts opts;
	uint32_t napi_id;		/* receiver's NAPI id, 0 when none (queue 0's) */
	pid_t napi_pid;			/* its threaded kthread, 0 when none */
	int n_napi;			/* NAPI instances of the receiver (one per queue) */
	uint32_t napi_ids[TESTBED_MAX_QUEUES];	/* ascending: queue order (veth adds
						 * them queue by queue, ids increase) */
	pid_t napi_pids[TESTBED_MAX_QUEUES];	/* their kthreads, pinned to queue_cpu[] */
};

/* Build the test bed.  0, or -1 with a message in @err and nothing left
 * behind (fds are -1 then).  The message starts with "cannot create a network namespace"
 * when the caller lacks the privilege (CAP_SYS_ADMIN); tests skip then. */
int testbed_create(struct testbed *tb, const struct testbed_opts *o, char *err, size_t errlen);

/* Move the calling thread into @side's namespace (sockets, AF_XDP and
 * AF_PACKET sources must be opened there).  0, or -1 with errno. */
int testbed_enter(const struct testbed *tb, enum testbed_side side);

/* The namespace fd of @side (for socket_in(), knob_dev.ns_fd). */
int testbed_ns(const struct testbed *tb, enum testbed_side side);

/* Close everything; the kernel removes namespaces and devices.  Safe after
 * a failed testbed_create() and twice. */
void testbed_destroy(struct testbed *tb);

#endif
