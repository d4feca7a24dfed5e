/* coalesce.c - the interrupt coalescing engine (src/core/coalesce.c) on
 * recorded completions (see replay/mechanisms.h): the engine runs to each
 * completion, then takes it; one table row per interrupt.  The capture
 * replay (replay_coalesce_pcap(), replay/replay.h) drives the same host.
 */
#include "replay/mechanisms.h"

#include <stdbool.h>
#include <stdio.h>

#include "model/trace_pcap.h"
#include "rxlab/coalesce.h"

const char *const coal_cols[] = { "time_ns", NULL };

/* The host side of the line: masked between an interrupt and its
 * re-enable @service_ns later (0: the host is infinitely fast). */
struct coal_host {
	struct coal c;
	bool masked;
	int64_t unmask_ns;
	int64_t now_ns;            /* time of the last thing that happened */
	int64_t service_ns;
};

static const char *coal_cause_name(enum coal_cause c)
{
	switch (c) {
	case COAL_CAUSE_NONE:
		return "none";
	case COAL_CAUSE_FRAMES:
		return "frames";
	case COAL_CAUSE_TIMER:
		return "timer";
	case COAL_CAUSE_GAP:
		return "itr-release";
	}
	return "?";
}

/* struct coal_params from the options; e1000 RDTR/RADV as src/sim/nic.c
 * maps RxIntDelay/RxAbsIntDelay (1.024 us units, RDTR restarts per frame).
 * 0, or -1 with a message in @err. */
static int coal_config(const struct replay_opts *o, struct coal_params *p, char *err,
		       size_t errlen)
{
	const char *why = NULL;

	*p = (struct coal_params){
		.usecs_ns = (int64_t)o->rx_usecs_ns, .frames = (uint32_t)o->rx_frames,
		.usecs_irq_ns = (int64_t)o->rx_usecs_irq_ns, .frames_irq = (uint32_t)o->rx_frames_irq,
		.mode = o->timer, .min_gap_ns = (int64_t)o->itr_ns,
	};
	if (o->radv && !o->rdtr)
		why = "--radv needs --rdtr > 0 (RxIntDelay 0 disables RxAbsIntDelay)";
	else if (o->rdtr && o->rx_given)
		why = "--rdtr replaces --rx-usecs, --rx-frames and --timer; give one or the other";
	coal_params_e1000((uint32_t)o->rdtr, (uint32_t)o->radv, p);
	if (why || coal_params_check(p, &why)) {
		snprintf(err, errlen, "coalescing options: %s", why);
		return -1;
	}
	return 0;
}

struct table *coal_table_new(void)
{
	struct table *t = table_new("replay_coalesce", "Interrupts of the coalescing engine");

	table_add_col(t, "time_ns", "time_ns", -1);
	table_add_col(t, "packets", "packets", -1);
	table_add_col(t, "cause", "cause", -1);
	table_add_col(t, "wait_ns", "wait_ns", -1);
	return t;
}

/* Every interrupt (one row of @t each) and re-enable of @h that happens
 * before a completion at @until (NEVER: until nothing is left).  As in
 * src/sim/nic.c lookahead(), an interrupt due at the same time as a
 * completion fires first, and a re-enable due then happens before the
 * completion too. */
static void coal_run_until(struct coal_host *h, struct table *t, int64_t until)
{
	for (;;) {
		enum coal_cause why;
		int64_t ft;

		if (h->masked) {
			if (h->unmask_ns > until)
				return;
			h->masked = false;
			h->now_ns = h->unmask_ns;
			coal_unmask(&h->c, h->unmask_ns);
			continue;
		}
		ft = coal_fire_time(&h->c, h->now_ns, &why);
		if (ft == COAL_NEVER || ft > until)
			return;
		table_row(t);
		table_i64(t, ft);
		table_u64(t, h->c.pending);
		table_str(t, coal_cause_name(why));
		table_i64(t, ft - h->c.t_first);
		coal_fire(&h->c, ft, why);
		/* The ISR reads and clears the cause register at once. */
		coal_ack(&h->c, ft);
		h->masked = true;
		h->unmask_ns = add_sat(ft, h->service_ns);
		h->now_ns = ft;
	}
}

int coal_replay(struct csv *c, const struct replay_opts *o, struct table *t, char *err,
		size_t errlen)
{
	struct coal_params p;
	struct coal_host h = { .service_ns = (int64_t)o->service_ns, .now_ns = INT64_MIN };
	int64_t tn = 0;
	int rc;

	if (coal_config(o, &p, err, errlen))
		return -1;
	coal_init(&h.c, &p);
	while ((rc = csv_next(c)) == 1) {
		if (csv_time(c, 0, &tn))
			return -1;
		coal_run_until(&h, t, tn);
		coal_complete(&h.c, tn);
		h.now_ns = tn;
	}
	if (rc == 0)
		coal_run_until(&h, t, NEVER - 1);
	return rc;
}

/* coalesce on a capture: its packets' times are the arrivals. */
int replay_coalesce_pcap(const struct replay_opts *o, FILE *f, const char *name,
			 struct table **out, char *err, size_t errlen)
{
	struct coal_host h = { .service_ns = (int64_t)o->service_ns, .now_ns = INT64_MIN };
	struct pcap_trace *tr;
	struct coal_params p;
	uint64_t n = 0;
	uint32_t len;
	int64_t tn;
	int rc;

	*out = NULL;
	if (coal_config(o, &p, err, errlen) || pcap_trace_open(&tr, f, name, err, errlen)) {
		fclose(f); /* libpcap did not take it */
		return -1;
	}
	*out = coal_table_new();
	coal_init(&h.c, &p);
	while ((rc = pcap_trace_next(tr, &tn, &len, err, errlen)) == 1) {
		if (++n > REPLAY_MAX_ROWS) {
			snprintf(err, errlen, "%s: packet %llu (byte offset %ld): more than %llu packets; "
				 "a replay keeps its decisions in memory: split the capture", name,
				 (unsigned long long)n, pcap_trace_offset(tr), REPLAY_MAX_ROWS);
			rc = -1;
			break;
		}
		coal_run_until(&h, *out, tn);
		coal_complete(&h.c, tn);
		h.now_ns = tn;
	}
	if (rc == 0)
		coal_run_until(&h, *out, NEVER - 1);
	pcap_trace_close(tr);
	if (rc < 0) {
		table_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
