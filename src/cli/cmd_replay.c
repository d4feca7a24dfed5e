/* cmd_replay.c - `rxlab replay KIND [OPTIONS] FILE|-`: one core mechanism
 * on recorded inputs (replay/replay.h; options: replay_args.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/replay_args.h"
#include "cli/version.h"
#include "io/infile.h"
#include "model/trace_pcap.h"
#include "replay/replay.h"

const char replay_usage[] =
	"usage: rxlab replay dim|itr|adaptive|coalesce|defer [OPTIONS] FILE.csv|-\n"
	"       rxlab replay coalesce [OPTIONS] CAPTURE.pcap (or --pcap FILE|-)\n"
	"\n"
	"options (each KIND takes its own; docs/replay.md has units and defaults):\n"
	"  all       --format table|csv|json\n"
	"  dim       --profile rx-eqe|rx-cqe|tx-eqe|tx-cqe, --start-ix N\n"
	"  itr       --mode 0|1|3|4|fixed:N, --speed BITRATE\n"
	"  adaptive  --pkt-rate-low, --pkt-rate-high, --rx-usecs-low, --rx-frames-low,\n"
	"            --rx-usecs, --rx-frames, --rx-usecs-high, --rx-frames-high,\n"
	"            --sample-interval\n"
	"  coalesce  --rx-usecs, --rx-frames, --rx-usecs-irq, --rx-frames-irq,\n"
	"            --timer absolute|restart, --itr-ns, --rdtr, --radv, --service-ns,\n"
	"            --pcap\n"
	"  defer     --napi-defer-hard-irqs, --gro-flush-timeout, --weight\n"
	"see docs/replay.md\n";

/* "rxlab: MSG" and the first lines of the usage on stderr; returns 2. */
static int usage_error(const char *msg)
{
	fprintf(stderr, "rxlab: %s\n", msg);
	fprintf(stderr, "usage: rxlab replay dim|itr|adaptive|coalesce|defer [OPTIONS] FILE.csv|-\n"
			"       rxlab replay coalesce [OPTIONS] CAPTURE.pcap (or --pcap FILE|-)\n"
			"see docs/replay.md\n");
	return 2;
}

static int replay_file(const struct replay_opts *o, const char *file, char *err, size_t errlen)
{
	bool stdin_ = !strcmp(file, "-");
	bool capture = o->kind == REPLAY_COALESCE && (o->pcap || pcap_trace_is_capture_name(file));
	struct table *t = NULL;
	struct report *rep;
	int rc;
	/* a FIFO is a stream like standard input (it waits for its writer);
	 * a character device is read bounded (/dev/zero stops at its first
	 * byte), a block device or a socket is refused before any read */
	FILE *f = stdin_ ? stdin : infile_open(file, INFILE_STREAM, "a replay input is a regular "
					       "file or a stream (a pipe, a FIFO, -)", NULL, err,
					       errlen);

	if (!f)
		return -1;
	if (capture) {
		rc = replay_coalesce_pcap(o, f, stdin_ ? "<stdin>" : file, &t, err, errlen);
	} else {
		rc = replay_run(o, f, stdin_ ? "<stdin>" : file, &t, err, errlen);
		if (!stdin_)
			fclose(f);
	}
	if (rc)
		return -1;
	rep = report_new();
	report_add(rep, t);
	report_print(rep, stdout, o->fmt);
	report_free(rep);
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	struct replay_opts o;
	enum replay_kind k;
	const char *file;
	char err[1024];
	int rc;

	if (argc < 2)
		return usage_error("replay needs a kind");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return fputs(replay_usage, stdout), 0;
	if (!strcmp(argv[1], "--version"))
		return version_print(stdout);
	if (replay_kind_parse(argv[1], &k)) {
		snprintf(err, sizeof(err), "unknown replay kind '%.40s'; accepted dim, itr, "
			 "adaptive, coalesce or defer", argv[1]);
		return usage_error(err);
	}
	replay_opts_default(&o, k);
	rc = replay_parse_args(&o, argc - 2, argv + 2, &file, err, sizeof(err));
	if (rc)
		return rc > 0 ? 0 : usage_error(err);
	if (replay_file(&o, file, err, sizeof(err))) {
		fprintf(stderr, "rxlab: %s\n", err);
		return 2;
	}
	return 0;
}
