/* cmd_live.c - `rxlab live`: the modes to run, the report; `rxlab live
 * calibrate`.
 *
 *   rxlab live [MODE[,MODE...]|all|userspace|kernel ...] [options]  (live_args.h)
 *   rxlab live calibrate [options]          (live_calibrate.c, live_run.h)
 *
 * Every mode runs on a fresh test bed (live_run.h), one after the other,
 * with the same sender settings, so rows differ by the receive mode only.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/live_args.h"
#include "cli/opts.h"
#include "experiment/calib_sim.h"
#include "experiment/live_sim.h"
#include "io/outfile.h"
#include "live/host_iface.h"
#include "model/units.h"
#include "report/live_table.h"

const char live_usage[] =
	"usage: rxlab live [MODE[,MODE...]] [options]\n"
	"       rxlab live calibrate [--duration D] [--repeat N] [--out FILE]\n"
	"                 [--iface IFACE --sender-ns NAME [--allow-host-iface]]\n"
	"\n"
	"Runs receive modes of the live engine on real packets: a test bed of two\n"
	"network namespaces joined by a veth pair (removed on every exit path), the\n"
	"built-in sender on one CPU and the receiver on the other.  Needs root.\n"
	"\n"
	"modes: interrupt coalesce napi dim itr bsd-poll busy hybrid dpdk-power ixy\n"
	"       seastar epoll so-busy-poll prefer-busy irq-suspend threaded tpacket\n"
	"       af-xdp; also all, userspace, kernel (default: napi)\n"
	"\n"
	"options:\n"
	"  --rate R            offered rate (pps, kpps, Mpps) or max (default 10kpps)\n"
	"  --pattern P         constant, poisson, onoff:ON/OFF (e.g. onoff:10ms/40ms),\n"
	"                      csv:FILE (send times in us, one per line, optional\n"
	"                      ,bytes) or pcap:FILE (the capture's times and sizes)\n"
	"  --duration D        sending time per mode (default 1s, 10ms..600s; a\n"
	"                      csv/pcap timeline: its length)\n"
	"  --size BYTES        UDP payload (default 32, 24..1472)\n"
	"  --batch N           packets per sendmmsg (default 32, 1..256)\n"
	"  --seed N            Poisson seed (default 1)\n"
	"  --set KEY=VALUE     loop parameter (budget, rx-usecs, rx-frames, ...: see\n"
	"                      docs/live.md) or device setting dev.KEY / KEY for\n"
	"                      napi_defer_hard_irqs, gro_flush_timeout (ns or unit),\n"
	"                      irq-suspend-timeout, threaded (0/1/2), gro, tso\n"
	"  --iface IFACE       receive on an existing interface instead of the test\n"
	"                      bed (the sender runs only for lo, to 127.0.0.1); an\n"
	"                      interface with the default route or a global address\n"
	"                      is refused\n"
	"  --allow-host-iface  use such an interface anyway (its settings change with\n"
	"                      --set dev.*, af-xdp attaches an XDP program to it)\n"
	"  --port N            UDP port (default 9000)\n"
	"  --rx-cpu N, --tx-cpu N   CPUs of receiver and sender (default 1 and 0)\n"
	"  --no-threaded       leave the test bed's NAPI in softirq context\n"
	"  --queues N          veth queues (1..CPUs), each with its NAPI kthread and\n"
	"                      receive thread (SO_REUSEPORT) on a CPU of its own, the\n"
	"                      sender one flow per queue; a table row per queue\n"
	"  --compare-sim       also run each workload in the simulator and print the\n"
	"                      figures side by side\n"
	"  --profile P         cost profile for --compare-sim (default veth-host)\n"
	"  --format table|csv|json\n"
	"\n"
	"calibrate: measures this machine's receive costs into a cost profile\n"
	"  --out FILE          the profile (default calibrated-HOSTNAME.ini; - stdout)\n"
	"  --duration D        sending time of each of the five runs (default 1s,\n"
	"                      100ms..60s)\n"
	"  --repeat N          calibrations (default 3, 1..20): the profile has the\n"
	"                      means, each cost's spread printed and written beside\n"
	"  --iface IFACE       receive on IFACE (threaded NAPI on it) instead of the\n"
	"                      test bed; refused as above unless --allow-host-iface\n"
	"  --sender-ns NAME    with --iface: the built-in sender runs in network\n"
	"                      namespace NAME (/run/netns/NAME) and sends to IFACE's\n"
	"                      IPv4 address\n";

/* ---- run and report ------------------------------------------------------- */

static int run_all(struct live_opts *o, struct live_result *res, struct live_job *jobs,
		   size_t *done)
{
	char err[1400];

	for (*done = 0; *done < o->n_modes && !rxlab_signal; (*done)++) {
		int rc;

		jobs[*done] = o->job;
		jobs[*done].mode = o->modes[*done];
		rc = live_run(&jobs[*done], &res[*done], err, sizeof(err));
		if (rc) {
			fprintf(stderr, "rxlab live: %s: %s\n", rxl_mode_name(o->modes[*done]), err);
			return rc;
		}
	}
	return 0;
}

static int report(struct live_opts *o, const struct live_result *res, const struct live_job *jobs,
		  size_t n)
{
	struct report *rep = report_new();
	char err[1024];

	report_add(rep, live_table(res, n));
	report_add(rep, live_kernel_table(res, n));
	if (o->job.queues > 1)
		report_add(rep, live_queues_table(res, n));
	if (o->compare_sim) {
		struct table *t = live_sim_table(res, n, jobs, o->profile, &rxlab_signal, err,
						  sizeof(err));

		if (!t) {
			fprintf(stderr, "rxlab live: --compare-sim: %s\n", err);
			report_free(rep);
			return 2;
		}
		report_add(rep, t);
	}
	report_print(rep, stdout, o->fmt);
	report_free(rep);
	return 0;
}

/* --iface: not the host's own connection unless --allow-host-iface. */
static int check_host_iface(const char *iface, bool allow, const char *who)
{
	char why[256];
	int rc;

	if (!iface || allow)
		return 0;
	rc = host_iface_check(iface, why, sizeof(why));
	if (rc == 0)
		return 0;
	if (rc > 0)
		fprintf(stderr, "%s: --iface %s carries %s: it looks like this host's own "
			"network connection, whose settings --set dev.* would change and to which "
			"af-xdp would attach an XDP program; pass --allow-host-iface to use it anyway\n",
			who, iface, why);
	else
		fprintf(stderr, "%s: --iface %s: cannot tell whether it carries the "
			"default route or a global address: %s; pass --allow-host-iface to use it "
			"anyway\n", who, iface, why);
	return 2;
}

static void reap_log(const char *line)
{
	fprintf(stderr, "rxlab live: %s\n", line);
}

/* `rxlab live calibrate [options]`: every wrong word gets the same message. */
struct calibrate_args {
	const char *out;		/* NULL: calibrated-HOST.ini */
	uint64_t dur, repeat;
	const char *iface, *sender_ns;
	bool allow_host_iface;
};

#define CALIBRATE_ACCEPTED "--out FILE, --duration D, --repeat N, --iface IFACE, " \
	"--sender-ns NAME, --allow-host-iface"

static int calibrate_on_opt(void *ctx, const char *name, const char *val)
{
	struct calibrate_args *c = ctx;
	char msg[1024];

	if (!strcmp(name, "--out"))
		c->out = val;
	else if (!strcmp(name, "--iface"))
		c->iface = val;
	else if (!strcmp(name, "--sender-ns"))
		c->sender_ns = val;
	else if (!strcmp(name, "--allow-host-iface"))
		c->allow_host_iface = true;
	else if (!strcmp(name, "--repeat")) {
		if (unit_parse_key(UNIT_COUNT, "--repeat", val, 1, LIVE_CALIB_MAX_REPEAT, NULL,
				   &c->repeat, msg, sizeof(msg)))
			return fprintf(stderr, "rxlab live calibrate: %s\n", msg), 2;
	} else if (unit_parse_key(UNIT_TIME_NS, "--duration", val, 100000000, 60000000000ull, NULL,
				  &c->dur, msg, sizeof(msg)))
		return fprintf(stderr, "rxlab live calibrate: %s\n", msg), 2;
	return 0;
}

static int calibrate_unknown(void *ctx, const char *word)
{
	(void)ctx;
	fprintf(stderr, "rxlab live calibrate: unknown or incomplete option '%s' "
		"(accepted: " CALIBRATE_ACCEPTED ")\n", word);
	return 2;
}

static int calibrate_on_error(void *ctx, enum cli_error e, const char *word)
{
	(void)e;
	return calibrate_unknown(ctx, word);
}

/* A name `ip netns add` could have made: /run/netns/NAME, no '/'. */
static bool netns_name_ok(const char *n)
{
	size_t len = strlen(n);

	if (len == 0 || len > 64 || !strcmp(n, ".") || !strcmp(n, ".."))
		return false;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && *n != '.' && *n != '_' && *n != '-')
			return false;
	return true;
}

/* The first IPv4 address of @iface in this namespace: the sender's target. */
static int iface_ipv4(const char *iface, struct in_addr *out)
{
	struct ifaddrs *ifa, *i;
	int rc = -1;

	if (getifaddrs(&ifa) != 0)
		return -1;
	for (i = ifa; i; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && !strcmp(i->ifa_name, iface)) {
			*out = ((const struct sockaddr_in *)(const void *)i->ifa_addr)->sin_addr;
			rc = 0;
			break;
		}
	freeifaddrs(ifa);
	return rc;
}

/* --iface and --sender-ns: checked, the namespace opened into @tx. */
static int calibrate_iface(const struct calibrate_args *c, struct live_tx_ns *tx)
{
	char path[96];

	if (c->sender_ns && !c->iface)
		return fprintf(stderr, "rxlab live calibrate: --sender-ns goes with --iface (the "
			"test bed has its own sender)\n"), 2;
	if (!c->iface)
		return c->allow_host_iface ? fprintf(stderr, "rxlab live calibrate: "
			"--allow-host-iface goes with --iface\n"), 2 : 0;
	if (!c->sender_ns)
		return fprintf(stderr, "rxlab live calibrate: --iface %s needs --sender-ns NAME: the "
			"network namespace (ip netns add NAME) from which the built-in sender reaches "
			"%s at the calibration's rates (an outside generator cannot follow them)\n",
			c->iface, c->iface), 2;
	if (!netns_name_ok(c->sender_ns))
		return fprintf(stderr, "rxlab live calibrate: --sender-ns '%s': a name of "
			"/run/netns (letters, digits, '.', '_', '-'; 1..64 characters)\n",
			c->sender_ns), 2;
	if (check_host_iface(c->iface, c->allow_host_iface, "rxlab live calibrate"))
		return 2;
	if (if_nametoindex(c->iface) == 0)
		return fprintf(stderr, "rxlab live calibrate: --iface %s: no such interface\n",
			c->iface), 2;
	if (iface_ipv4(c->iface, &tx->dst) != 0)
		return fprintf(stderr, "rxlab live calibrate: --iface %s has no IPv4 address for "
			"the sender to send to\n", c->iface), 2;
	snprintf(path, sizeof(path), "/run/netns/%s", c->sender_ns);
	if ((tx->ns_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return fprintf(stderr, "rxlab live calibrate: --sender-ns %s: %s: %s\n",
			c->sender_ns, path, strerror(errno)), 2;
	return 0;
}

/* The profile's name: @out's base name without ".ini" (letters, digits,
 * '.', '_', '-'; others as '-'), or calibrated-HOST for stdout. */
static void calibrate_name(const char *out, char *name, size_t len)
{
	const char *base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
	size_t n = strlen(base);
	char host[48];

	if (!strcmp(out, "-") || n == 0) {
		live_calib_host(host, sizeof(host));
		snprintf(name, len, "calibrated-%s", host);
		return;
	}
	if (n > 4 && !strcmp(base + n - 4, ".ini"))
		n -= 4;
	snprintf(name, len, "%.*s", (int)n, base);
	for (char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-')
			*p = '-';
}

static int live_calibrate_main(int argc, char **argv)
{
	static const struct cli_opt opts[] = {
		{ "--out", true }, { "--duration", true }, { "--repeat", true }, { "--iface", true },
		{ "--sender-ns", true }, { "--allow-host-iface", false }, { NULL, false }
	};
	const struct cli_spec spec = { .opts = opts, .usage = live_usage,
				       .on_opt = calibrate_on_opt, .on_arg = calibrate_unknown,
				       .on_error = calibrate_on_error };
	struct calibrate_args c = { .dur = 1000000000, .repeat = 3 };
	struct live_tx_ns tx = { .ns_fd = -1 };
	char msg[1024], out[96], name[64], host[48];
	struct live_calib_opts o;
	struct outfile *of;
	int rc = cli_parse(&spec, &c, argc, argv);

	if (rc)
		return cli_status(rc);
	if ((rc = calibrate_iface(&c, &tx)) != 0)
		return rc;
	if (!c.out) {
		live_calib_host(host, sizeof(host));
		snprintf(out, sizeof(out), "calibrated-%s.ini", host);
		c.out = out;
	}
	calibrate_name(c.out, name, sizeof(name));
	o = (struct live_calib_opts){ .dur_ns = (int64_t)c.dur, .repeat = (int)c.repeat,
				      .iface = c.iface, .tx = c.iface ? &tx : NULL, .name = name,
				      .sim = calib_sim_busy };
	/* opened first: a wrong --out fails before a measurement of seconds */
	if (outfile_open(&of, c.out, msg, sizeof(msg))) {
		fprintf(stderr, "rxlab live calibrate: %s\n", msg);
		rc = 2;
	} else if ((rc = live_calibrate(outfile_fp(of), &o, &rxlab_signal)) != 0) {
		outfile_abort(of);
		rc = rxlab_signal ? 128 + rxlab_signal : rc;
	} else if (outfile_close(of, msg, sizeof(msg))) {
		fprintf(stderr, "rxlab live calibrate: %s\n", msg);
		rc = 2;
	} else if (strcmp(c.out, "-")) {
		fprintf(stderr, "rxlab live calibrate: wrote %s (profile %s; use it with "
			"--profile %s or --set host.profile=%s)\n", c.out, name, c.out, c.out);
	}
	if (tx.ns_fd >= 0)
		close(tx.ns_fd);
	return rc;
}

int cmd_live(int argc, char **argv)
{
	struct live_opts o = { .fmt = OUT_TABLE, .profile = "veth-host" };
	struct live_result res[RXL_MODE_COUNT];
	struct live_job jobs[RXL_MODE_COUNT];
	size_t done = 0;
	int rc;

	interrupt_install();
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
			 !strcmp(argv[1], "help")))
		return fputs(live_usage, stdout), 0;
	/* a subcommand only in the first place, as it always was */
	if (argc > 1 && !strcmp(argv[1], "calibrate"))
		return live_calibrate_main(argc - 1, argv + 1);
	live_job_default(&o.job, RXL_MODE_NAPI);
	o.job.stop = &rxlab_signal;
	o.job.sets = o.sets;
	knobs_reap_stale(reap_log);
	rc = live_parse_args(&o, argc, argv);
	if (rc == 0)
		rc = check_host_iface(o.job.iface, o.allow_host_iface, "rxlab live");
	if (rc == 0) {
		rc = run_all(&o, res, jobs, &done);
		if (done > 0 && report(&o, res, jobs, done) != 0 && rc == 0)
			rc = 2;
	}
	timeline_free(&o.tl);
	if (rxlab_signal) {
		fprintf(stderr, "rxlab live: interrupted by signal %d; the report covers the "
			"modes run, the last one up to the signal\n", (int)rxlab_signal);
		return 128 + rxlab_signal;
	}
	return cli_status(rc);
}
