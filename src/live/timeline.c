/* timeline.c - the sender's timeline from a CSV file or a capture (see
 * timeline.h). */
#include "live/timeline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/infile.h"
#include "model/trace_pcap.h"

static int push(struct timeline *t, size_t *cap, int64_t at, uint32_t len)
{
	if (t->n == TIMELINE_MAX)
		return -1;
	if (t->n == *cap) {
		int64_t *times;
		uint32_t *lens;

		*cap = *cap ? *cap * 2 : 4096;
		times = realloc(t->times_ns, *cap * sizeof(*times));
		if (times)
			t->times_ns = times;
		lens = realloc(t->lens, *cap * sizeof(*lens));
		if (lens)
			t->lens = lens;
		if (!times || !lens)
			return -1;
	}
	t->times_ns[t->n] = at;
	t->lens[t->n++] = len;
	return 0;
}

static int too_long(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "timeline too long (at most 10 million packets): %s", path);
	return -2;
}

/* CSV: "TIME_US[,BYTES]" per line. */
static int load_csv(struct timeline *t, FILE *f, const char *path, uint32_t payload_bytes,
		    char *err, size_t errlen)
{
	/* bounded like every reader (io/infile.h): 256-byte lines, 1 GiB */
	static const struct infile_limits lim = { 255, 1ull << 30 };
	struct linein in;
	size_t cap = 0, lineno = 0;
	int64_t last = 0;
	int rc;

	linein_init(&in, f, path, &lim, "expected TIME_US[,BYTES]");
	while ((rc = linein_next(&in, NULL, err, errlen)) == 1) {
		const char *line = in.buf;
		double us;
		unsigned bytes = payload_bytes;
		int k;

		lineno++;
		if (line[0] == '#' || line[0] == '\0')
			continue;
		k = sscanf(line, "%lf,%u", &us, &bytes);
		if (k < 1 && lineno == 1)
			continue;
		if (k < 1 || us < 0 || (int64_t)(us * 1000) < last || bytes < 24 || bytes > 1472) {
			snprintf(err, errlen, "%s:%zu: expected TIME_US[,BYTES] with times not going "
				 "back and 24..1472 bytes", path, lineno);
			linein_free(&in);
			return -1;
		}
		last = (int64_t)(us * 1000);
		if (push(t, &cap, last, bytes)) {
			linein_free(&in);
			return too_long(path, err, errlen);
		}
	}
	linein_free(&in);
	return rc < 0 ? -1 : 0;
}

/* A capture; pcap_trace_close() closes @f. */
static int load_pcap(struct timeline *t, FILE *f, const char *path, char *err, size_t errlen)
{
	struct pcap_trace *tr;
	size_t cap = 0;
	int64_t at;
	uint32_t len;
	int rc;

	if (pcap_trace_open(&tr, f, path, err, errlen)) {
		fclose(f);
		return -1;
	}
	while ((rc = pcap_trace_next(tr, &at, &len, err, errlen)) == 1) {
		/* the frame's UDP payload: minus Ethernet, IPv4, UDP headers and FCS */
		uint32_t payload = len > 46 + 24 ? len - 46 : 24;

		if (push(t, &cap, at, payload > 1472 ? 1472 : payload)) {
			rc = -2;
			break;
		}
	}
	pcap_trace_close(tr);
	if (rc == -2)
		return too_long(path, err, errlen);
	return rc == -1 ? -1 : 0;
}

int timeline_load(struct timeline *t, const char *path, bool pcap, uint32_t payload_bytes,
		  char *err, size_t errlen)
{
	int rc;
	FILE *f = infile_open(path, INFILE_REGULAR, "a timeline is a CSV or pcap file", &rc, err,
			      errlen);

	memset(t, 0, sizeof(*t));
	if (!f) {
		if (rc != -ENOTSUP && rc != -EISDIR)
			snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return -1;
	}
	if (pcap) {
		rc = load_pcap(t, f, path, err, errlen);
	} else {
		rc = load_csv(t, f, path, payload_bytes, err, errlen);
		fclose(f);
	}
	if (rc == 0 && t->n == 0) {
		snprintf(err, errlen, "no packets in %s", path);
		return -2;
	}
	return rc;
}

void timeline_free(struct timeline *t)
{
	free(t->times_ns);
	free(t->lens);
	memset(t, 0, sizeof(*t));
}
