/* trace_pcap.c - libpcap reading with nanosecond timestamps. */
#include "model/trace_pcap.h"

#include <pcap/pcap.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pcap_trace {
	pcap_t *p;
	const char *name;
	uint64_t n;        /* packets read */
	long off;          /* byte offset of the record being read, -1 if unknown */
	int64_t t0, prev;  /* first and previous absolute times, ns */
	int classic;       /* a pcap file (not pcapng): 32-bit unsigned seconds */
};

int pcap_trace_open(struct pcap_trace **tr, FILE *f, const char *name, char *err, size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	struct pcap_trace *t = calloc(1, sizeof(*t));

	if (!t) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	t->p = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, perr);
	if (!t->p) {
		snprintf(err, errlen, "%s: not a pcap or pcapng capture (libpcap: %s)", name, perr);
		free(t);
		return -1;
	}
	t->name = name;
	t->classic = pcap_major_version(t->p) == 2; /* pcapng reads as 1.0 */
	*tr = t;
	return 0;
}

/* The record's absolute time in ns.  A pcap file's ts_sec is an unsigned
 * 32-bit field (draft-ietf-opsawg-pcap section 5), which libpcap 1.10
 * reads as signed: seconds from 2^31 (January 2038) on come out negative
 * and are put back here.  pcapng's 64-bit stamps can exceed int64 ns. */
static int packet_time(struct pcap_trace *tr, const struct pcap_pkthdr *h, int64_t *abs,
		       char *err, size_t errlen)
{
	int64_t sec = (int64_t)h->ts.tv_sec;

	if (tr->classic && sec < 0 && sec >= -(1ll << 31))
		sec += 1ll << 32;
	if (sec < 0 || sec >= INT64_MAX / 1000000000 || h->ts.tv_usec < 0 ||
	    h->ts.tv_usec >= 1000000000) {
		snprintf(err, errlen, "%s: packet %llu (byte offset %ld): timestamp %lld.%09ld s is "
			 "out of range; accepted 0..%lld s", tr->name, (unsigned long long)tr->n + 1,
			 tr->off, (long long)h->ts.tv_sec, (long)h->ts.tv_usec,
			 (long long)(INT64_MAX / 1000000000 - 1));
		return -1;
	}
	*abs = sec * 1000000000 + (int64_t)h->ts.tv_usec;
	return 0;
}

int pcap_trace_next(struct pcap_trace *tr, int64_t *t_ns, uint32_t *len, char *err,
		    size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	int64_t abs;
	int rc;

	tr->off = ftell(pcap_file(tr->p));
	rc = pcap_next_ex(tr->p, &h, &data);
	if (rc == PCAP_ERROR_BREAK)
		return 0;
	if (rc != 1) {
		snprintf(err, errlen, "%s: packet %llu (byte offset %ld): %s", tr->name,
			 (unsigned long long)tr->n + 1, tr->off, pcap_geterr(tr->p));
		return -1;
	}
	if (h->caplen > h->len) {
		snprintf(err, errlen, "%s: packet %llu (byte offset %ld): captured length %u is larger "
			 "than the packet's length %u; the record is invalid (accepted caplen <= len)",
			 tr->name, (unsigned long long)tr->n + 1, tr->off, h->caplen, h->len);
		return -1;
	}
	if (packet_time(tr, h, &abs, err, errlen))
		return -1;
	if (tr->n == 0)
		tr->t0 = tr->prev = abs;
	if (abs < tr->prev) {
		snprintf(err, errlen, "%s: packet %llu (byte offset %ld): timestamp goes back by "
			 "%lld ns; the capture must be in time order", tr->name,
			 (unsigned long long)tr->n + 1, tr->off, (long long)(tr->prev - abs));
		return -1;
	}
	tr->n++;
	tr->prev = abs;
	*t_ns = abs - tr->t0;
	*len = h->len;
	return 1;
}

long pcap_trace_offset(const struct pcap_trace *tr)
{
	return tr->off;
}

void pcap_trace_close(struct pcap_trace *tr)
{
	if (!tr)
		return;
	pcap_close(tr->p); /* also closes the FILE: callers must not fclose it */
	free(tr);
}

int pcap_trace_is_capture_name(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && (!strcmp(dot, ".pcap") || !strcmp(dot, ".pcapng") || !strcmp(dot, ".cap"));
}
