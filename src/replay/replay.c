/* replay.c - core mechanisms on recorded inputs (see replay/replay.h).
 *
 * Roadmap of src/replay:
 *   csv.c        the shared reader: header check, exact unsigned integers,
 *                time order, "file:line: column 'x': ..." messages
 *   dim.c, itr.c, adaptive.c, coalesce.c, defer.c
 *                one replay per src/core module (replay/mechanisms.h)
 *   replay.c     the kinds' names and defaults, replay_run() picking the
 *                mechanism by kind
 *   policy.c     a registered user policy (rxlab/policy.h) on samples
 * The command line that sets the options is src/cli/replay_args.c.
 *
 * Each replay drives the core exactly as the simulator does (src/sim/nic.c,
 * src/sim/adaptive.c) so that the two can be compared decision by decision;
 * nothing here decides anything the core does not.
 */
#include "replay/replay.h"

#include <string.h>

#include "replay/mechanisms.h"
#include "rxlab/napi.h"

/* ---- options ----------------------------------------------------------- */

static const char *const kind_names[REPLAY_N] = { "dim", "itr", "adaptive", "coalesce",
						  "defer" };
const char *const replay_dim_tables[] = { "rx-eqe", "rx-cqe", "tx-eqe", "tx-cqe", NULL };

int replay_kind_parse(const char *s, enum replay_kind *k)
{
	for (int i = 0; i < REPLAY_N; i++) {
		if (!strcmp(s, kind_names[i])) {
			*k = (enum replay_kind)i;
			return 0;
		}
	}
	return -1;
}

const char *replay_kind_name(enum replay_kind k)
{
	return (unsigned)k < REPLAY_N ? kind_names[k] : "?";
}

void replay_opts_default(struct replay_opts *o, enum replay_kind k)
{
	memset(o, 0, sizeof(*o));
	o->kind = k;
	o->fmt = OUT_TABLE;
	o->dim_table = DIM_RX_EQE;
	o->start_ix = DIM_DEF_PROFILE_IX;
	o->itr.mode = ITR_DEFAULT_MODE;
	o->link_bps = 1000000000;
	/* adaptive: rxlab's own defaults (the uapi has none), so that each set
	 * is reachable on a gigabit link: per-frame interrupts below 10 kpps,
	 * 20 us / 16 frames up to 100 kpps, 100 us / 64 frames above. */
	o->pkt_rate_low_pps = 10000;
	o->pkt_rate_high_pps = 100000;
	o->rx_usecs_low_ns = 0;
	o->rx_frames_low = 1;
	o->rx_usecs_ns = k == REPLAY_ADAPTIVE ? 20 * US : 0;
	o->rx_frames = k == REPLAY_ADAPTIVE ? 16 : 1;
	o->rx_usecs_high_ns = 100 * US;
	o->rx_frames_high = 64;
	o->sample_interval_ns = 1 * SEC;
	o->timer = COAL_TIMER_ABSOLUTE;
	o->weight = NAPI_POLL_WEIGHT;
}

/* ---- entry points ------------------------------------------------------ */

static const char *const *const kind_cols[REPLAY_N] = {
	[REPLAY_DIM] = dim_cols, [REPLAY_ITR] = itr_cols, [REPLAY_ADAPTIVE] = dim_cols,
	[REPLAY_COALESCE] = coal_cols, [REPLAY_DEFER] = defer_cols,
};

static int replay_rows(struct csv *c, const struct replay_opts *o, struct table **out,
		       char *err, size_t errlen)
{
	switch (o->kind) {
	case REPLAY_DIM:
		*out = dim_table_new(o);
		return dim_replay(c, o, *out);
	case REPLAY_ITR:
		*out = itr_table_new();
		return itr_replay(c, o, *out);
	case REPLAY_ADAPTIVE:
		*out = adapt_table_new();
		return adapt_replay(c, o, *out, err, errlen);
	case REPLAY_COALESCE:
		*out = coal_table_new();
		return coal_replay(c, o, *out, err, errlen);
	case REPLAY_DEFER:
		*out = defer_table_new();
		return defer_replay(c, o, *out);
	case REPLAY_N:
		break;
	}
	snprintf(err, errlen, "unknown replay kind %d", (int)o->kind);
	return -1;
}

int replay_run(const struct replay_opts *o, FILE *in, const char *name, struct table **out,
	       char *err, size_t errlen)
{
	struct csv c;
	int rc;

	*out = NULL;
	if ((unsigned)o->kind >= REPLAY_N) {
		snprintf(err, errlen, "unknown replay kind %d", (int)o->kind);
		return -1;
	}
	rc = csv_open(&c, in, name, kind_cols[o->kind], err, errlen);
	if (rc == 0)
		rc = replay_rows(&c, o, out, err, errlen);
	csv_close(&c);
	if (rc < 0) {
		table_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
