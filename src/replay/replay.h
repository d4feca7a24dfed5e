/* replay.h - run one core mechanism on recorded inputs (issue #9).
 *
 *   rxlab replay dim      SAMPLES.csv   time_ns,packets,bytes,events (cumulative)
 *   rxlab replay itr      SAMPLES.csv   time_ns,rx_packets,rx_bytes,tx_packets,tx_bytes
 *                                       (per interrupt cycle)
 *   rxlab replay adaptive SAMPLES.csv   time_ns,packets,bytes,events (cumulative)
 *   rxlab replay coalesce ARRIVALS.csv  time_ns (one row per completion)
 *   rxlab replay defer    POLLS.csv     time_ns,work (one row per poll)
 *
 * The code mirrors src/core: replay/csv.c reads the rows for every kind,
 * one file per core module drives it (replay/dim.c, itr.c, adaptive.c,
 * coalesce.c, defer.c; their private header is replay/mechanisms.h), and
 * replay.c picks the mechanism by kind (replay_run()).
 *
 * Each replay feeds the rows, in order, to exactly the src/core function
 * the simulator calls (net_dim(), itr_on_irq_done(), adaptive_sample(),
 * coal_fire_time()/coal_fire(), napi_complete_done()) and prints one row
 * per decision; docs/replay.md describes the columns and how to record the
 * inputs.  Times are nanoseconds of one clock; rows must not go back in
 * time.  The first line of a file is the header, exactly the column names
 * above; blank lines and lines starting with '#' are skipped.  "-" reads
 * standard input.
 *
 * Errors (a malformed row) are reported as one line naming the file, the
 * line, the column and the accepted form, e.g.
 *   "in.csv:7: column 'bytes': '12x' is not a whole number; accepted 0..18446744073709551615"
 * The command line (`rxlab replay`, its options) is src/cli/replay_args.h.
 */
#ifndef RXLAB_REPLAY_REPLAY_H
#define RXLAB_REPLAY_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/table.h"
#include "rxlab/coalesce.h"
#include "rxlab/dim.h"
#include "rxlab/itr.h"

enum replay_kind {
	REPLAY_DIM = 0,
	REPLAY_ITR,
	REPLAY_ADAPTIVE,
	REPLAY_COALESCE,
	REPLAY_DEFER,
	REPLAY_N,
};

/* Everything the options can say, in the options' own units (the names
 * carry them); replay_run() turns them into core configurations and checks
 * them there.  Defaults come from replay_opts_default(). */
struct replay_opts {
	enum replay_kind kind;
	enum out_format fmt;          /* --format */
	/* dim */
	enum dim_table dim_table;     /* --profile rx-eqe|rx-cqe|tx-eqe|tx-cqe */
	uint64_t start_ix;            /* --start-ix, 0..4 */
	/* itr */
	struct itr_config itr;        /* --mode 0|1|3|4|fixed:N */
	uint64_t link_bps;            /* --speed, bit/s */
	/* adaptive (rx_usecs_ns / rx_frames are also the coalesce values) */
	uint64_t pkt_rate_low_pps, pkt_rate_high_pps;
	uint64_t rx_usecs_low_ns, rx_frames_low;
	uint64_t rx_usecs_ns, rx_frames;
	uint64_t rx_usecs_high_ns, rx_frames_high;
	uint64_t sample_interval_ns;
	/* coalesce */
	uint64_t rx_usecs_irq_ns, rx_frames_irq;
	enum coal_timer_mode timer;   /* --timer absolute|restart */
	uint64_t itr_ns;              /* --itr-ns: minimum gap between interrupts */
	uint64_t rdtr, radv;          /* e1000 RxIntDelay / RxAbsIntDelay, x 1.024 us */
	uint64_t service_ns;          /* --service-ns: fire -> re-enable */
	uint64_t pcap;                /* --pcap: the input is a capture (also when the
	                               * file name ends in .pcap, .pcapng or .cap) */
	uint64_t rx_given;            /* 1 when --rx-usecs/--rx-frames/--timer was given */
	/* defer */
	uint64_t defer_hard_irqs;     /* --napi-defer-hard-irqs */
	uint64_t gro_flush_timeout_ns;
	uint64_t weight;              /* --weight, NAPI weight 1..64 */
};

/* Parse "dim", "itr", ... into @k; 0, or -1 for anything else. */
int replay_kind_parse(const char *s, enum replay_kind *k);

/* The name of @k ("dim", ...). */
const char *replay_kind_name(enum replay_kind k);

/* The names of DIM's profile tables (--profile), indexed by enum dim_table,
 * NULL-ended. */
extern const char *const replay_dim_tables[];

/* The defaults of @k (docs/replay.md lists them). */
void replay_opts_default(struct replay_opts *o, enum replay_kind k);

/* Replay the rows of @in (called @name in messages) under @o and return
 * the decisions as a new table in *@out (caller frees).  0, or -1 with a
 * one-line message in @err and *@out NULL. */
int replay_run(const struct replay_opts *o, FILE *in, const char *name, struct table **out,
	       char *err, size_t errlen);

/* The coalesce replay on a pcap/pcapng capture @f (closed by it): packet
 * times, relative to the first, are the arrivals.  As replay_run(). */
int replay_coalesce_pcap(const struct replay_opts *o, FILE *f, const char *name,
			 struct table **out, char *err, size_t errlen);

#endif
