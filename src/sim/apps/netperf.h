/* netperf.h - netperf TCP_STREAM over loopback (netperf.c). */
#ifndef RXLAB_SIM_APPS_NETPERF_H
#define RXLAB_SIM_APPS_NETPERF_H

#include <stdbool.h>
#include <stdint.h>

struct sim;

/* What to do when the running chunk of the sender ends. */
enum np_snd_step {
	NS_BEGIN = 0, /* netperf's user work before send() */
	NS_ENTER,     /* user work done: syscall entry */
	NS_SEGMENT,   /* send the next segment, or wait for the window */
	NS_XMIT,      /* segment built: queue it on the backlog */
	NS_AFTER,     /* segment queued: next segment, or return */
};

/* ... and of the receiver. */
enum np_rcv_step {
	NR_BEGIN = 0, /* recv() entry */
	NR_CHECK,     /* read what is queued, or sleep */
	NR_READ,      /* bytes copied: build the window update */
	NR_ACK,       /* queue the ACK, return from recv() */
	NR_USER,      /* netserver's user work */
};

/* One netperf TCP_STREAM connection over loopback (apps.netperf): the
 * netperf process sends, its netserver child receives. */
struct np_conn {
	int16_t snd, rcv;     /* the two threads */
	uint8_t snd_step, rcv_step; /* enum np_snd_step / np_rcv_step */
	bool snd_wait;        /* netperf sleeps in send(): the window is full */
	bool rcv_wait;        /* netserver sleeps in recv(): nothing to read */
	uint32_t unacked;     /* bytes sent and not yet acknowledged */
	uint32_t unread;      /* bytes in netserver's receive queue */
	uint32_t snd_left;    /* bytes of the send() in progress not yet segmented */
	uint32_t snd_seg;     /* bytes of the segment being built */
	uint32_t reading;     /* bytes the recv() in progress takes */
	uint64_t bytes;       /* bytes netserver has read */
	uint64_t sent;        /* bytes queued as segments */
	uint64_t acked;       /* bytes whose ACK the sender has processed */
};

/* All netperf connections, and their loopback frames in backlogs. */
struct netperf {
	uint32_t n;
	struct np_conn *c;
	uint64_t queued;      /* their frames in backlogs (not NIC frames: accounting) */
	uint64_t drops;       /* their frames dropped at a full backlog */
};

/* Create the connections' threads (after the kernel threads) and register
 * their loopback protocol.  0 or -1. */
int netperf_init(struct sim *s);
void netperf_free(struct sim *s);
/* Bytes read by all netservers so far. */
uint64_t netperf_bytes(const struct sim *s);

#endif
