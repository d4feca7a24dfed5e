/* queues.h - several receive queues on the test bed: one receive socket,
 * thread and loop per queue (live_run.c), steered and identified here.
 *
 * The receive sockets share the port with SO_REUSEPORT; a classic BPF
 * program on the group (SO_ATTACH_REUSEPORT_CBPF) picks socket q for a
 * packet processed on queue q's CPU (SKF_AD_CPU: each queue's NAPI kthread
 * is pinned to a CPU of its own), so each thread receives exactly one
 * queue's packets, and SO_INCOMING_NAPI_ID on its socket names the NAPI
 * that served it.  Without the program the group would pick a socket by
 * the flow's hash, independent of the queue.
 *
 * The sender needs one flow per queue: veth delivers a packet to the RX
 * queue numbered as the TX queue the sender's stack picked, which is fixed
 * per socket by its random sk_txhash (testbed.h).  queues_probe() opens
 * connected sockets (each with its own source port) and sends one probe
 * datagram on each until every queue has one, keeping the first socket
 * that reached each queue.
 */
#ifndef RXLAB_LIVE_QUEUES_H
#define RXLAB_LIVE_QUEUES_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QUEUES_PROBE_TRIES 64	/* sockets tried: P(a queue of 2 never hit) = 2^-63 */

/* Attach the steering program to the reuseport group of @fd: a packet
 * processed on @cpu[q] goes to the group's q-th socket (bind order), any
 * other CPU to socket 0.  0, or -1 with errno. */
int queues_steer(int fd, const int *cpu, int nq);

/* Open connected UDP sockets in namespace @ns to @dst until each of the @nq
 * receive sockets @rx has received a probe from one: @tx[q] is the sender
 * socket whose packets reach queue q, @napi_id[q] the NAPI id @rx[q] saw.
 * The probes are read off @rx.  0, or -1 with a message in @err. */
int queues_probe(int ns, const struct sockaddr_in *dst, const int *rx, int nq, int *tx,
		 uint32_t *napi_id, char *err, size_t errlen);

/* The NAPI id of the last packet @fd received (SO_INCOMING_NAPI_ID), 0
 * when none or unknown. */
uint32_t queues_napi_id(int fd);

#endif
