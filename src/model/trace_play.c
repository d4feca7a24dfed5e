/* trace_play.c - spans, whole-trace runs and link checks of traces (see
 * trace_play.h). */
#include "model/trace_play.h"

#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "model/scenario_load.h"
#include "model/units.h"

#define WINDOW_NS 1000000	/* the peak rate's window: 1 ms */

/* floor(t * 1000 / milli) for t >= 0, saturating. */
static int64_t scaled(int64_t t, uint32_t milli)
{
	int64_t q = t / milli, r = t % milli;

	if (q > (INT64_MAX - 1000) / 1000)
		return INT64_MAX;
	return q * 1000 + r * 1000 / milli;
}

int64_t trace_play_ns(const struct scn_trace *tr, uint32_t milli)
{
	return scaled(tr->t_ns[tr->n - 1], milli);
}

int64_t trace_run_ns(const struct scn_trace *tr, uint32_t milli, int64_t start_ns)
{
	int64_t span_us = trace_play_ns(tr, milli) / 1000;

	if (span_us > (INT64_MAX - start_ns) / 1000 - 1001)
		return INT64_MAX;
	return start_ns + (span_us + 1001) * 1000;
}

static uint64_t wire_bits(uint32_t len)
{
	return (uint64_t)(len + 20) * 8;
}

void trace_link_check(const struct scn_trace *tr, uint32_t milli, uint64_t speed_bps,
		      int64_t link_queue_ns, struct trace_link *out)
{
	unsigned __int128 free_ps = 0;	/* when the wire is free */
	uint64_t bits = 0, first = 0;	/* bits of the 1 ms window ending at packet i */

	*out = (struct trace_link){ 0 };
	for (uint64_t i = 0; i < tr->n; i++) {
		int64_t t = scaled(tr->t_ns[i], milli);
		unsigned __int128 offer_ps = (unsigned __int128)t * 1000;
		unsigned __int128 start_ps = offer_ps > free_ps ? offer_ps : free_ps;

		bits += wire_bits(tr->len[i]);
		while (scaled(tr->t_ns[first], milli) <= t - WINDOW_NS)
			bits -= wire_bits(tr->len[first++]);
		if (bits * (1000000000 / WINDOW_NS) > out->peak_bps)
			out->peak_bps = bits * (1000000000 / WINDOW_NS);
		if (start_ps - offer_ps > (unsigned __int128)link_queue_ns * 1000) {
			out->drops++;
			continue;
		}
		if ((int64_t)((start_ps - offer_ps) / 1000) > out->max_wait_ns)
			out->max_wait_ns = (int64_t)((start_ps - offer_ps) / 1000);
		free_ps = start_ps + (unsigned __int128)wire_bits(tr->len[i]) * 1000000000000ull /
				     speed_bps;
	}
}

/* @ns for reading: "2.000 s", "60.931 ms", "250.000 us". */
static const char *human_ns(int64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000)
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3f us", (double)ns / 1e3);
	return buf;
}

static void note_part(FILE *f, const struct scenario *s, const struct scn_traffic *t)
{
	int64_t span = trace_play_ns(t->trace, t->trace_speed_milli);
	int64_t played = s->run.duration_ns - t->start_ns;
	char d[32], p[32], sp[32], whole[32];

	if (played > span)
		return;
	fprintf(f, "rxlab: note: run.duration = %s plays the first %s of the trace %s, which "
		"lasts %s at trace-speed %s; --set run.duration=%s plays it whole\n",
		unit_format(UNIT_TIME_NS, (uint64_t)s->run.duration_ns, d, sizeof(d)),
		human_ns(played > 0 ? played : 0, p, sizeof(p)), t->trace_path,
		human_ns(span, sp, sizeof(sp)), t->trace_speed,
		unit_format(UNIT_TIME_NS, (uint64_t)trace_run_ns(t->trace, t->trace_speed_milli,
								 t->start_ns), whole, sizeof(whole)));
}

static void note_link(FILE *f, const struct scenario *s, const struct scn_traffic *t)
{
	const struct scn_nic *n = &s->nic[scenario_nic_index(s, t->port)];
	struct trace_link l;
	char q[32];

	trace_link_check(t->trace, t->trace_speed_milli, n->speed_bps, n->link_queue_ns, &l);
	if (l.peak_bps <= n->speed_bps && l.drops == 0)
		return;
	fprintf(f, "rxlab: note: the trace %s (at trace-speed %s) peaks at %.1f Mbit/s on the "
		"wire over 1 ms, above the %.1f Mbit/s link of nic %s: ", t->trace_path,
		t->trace_speed, (double)l.peak_bps / 1e6, (double)n->speed_bps / 1e6, n->name);
	if (l.drops)
		fprintf(f, "%" PRIu64 " of its %" PRIu64 " frames would wait longer than "
			"link-queue = %s and are dropped at the link\n", l.drops, t->trace->n,
			unit_format(UNIT_TIME_NS, (uint64_t)n->link_queue_ns, q, sizeof(q)));
	else
		fprintf(f, "frames wait on the link up to %.1f us (none dropped)\n",
			(double)l.max_wait_ns / 1000.0);
}

void trace_notes(FILE *f, const struct scenario *s)
{
	for (uint32_t i = 0; i < s->n_traffic; i++) {
		const struct scn_traffic *t = &s->traffic[i];

		if (t->pattern != TRAFFIC_TRACE || !t->trace)
			continue;
		note_part(f, s, t);
		note_link(f, s, t);
	}
	scenario_driver_notes(f, s);	/* what a port's driver made of its values */
}

void trace_notes_for(const char *scenario, const char *const *sets, size_t n_sets)
{
	struct scenario *scn;
	struct stat st;
	char err[1024];

	/* a pipe (rxlab run /dev/stdin) can be read once: the run's own load */
	if (stat(scenario, &st) == 0 && !S_ISREG(st.st_mode))
		return;
	scn = malloc(sizeof(*scn));
	if (scn && scenario_load(scn, scenario, sets, n_sets, err, sizeof(err)) == 0)
		trace_notes(stderr, scn);
	free(scn);
}
