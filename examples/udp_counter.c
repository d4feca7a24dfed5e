/* udp_counter.c - count UDP packets with the rxlab live library.
 *
 * The smallest useful program on include/rxlab/live.h: open a loop on a
 * UDP socket, count packets in the batch callback, and print what the
 * library measured (rate, loss and one-way latency from the rxlab payload
 * header, CPU, wake-ups) when the run ends.
 *
 *   udp_counter -p 9000 -m napi -s budget=32 -d 10
 *   udp_counter -p 9000 -n 1000000         stop after a million packets
 */
#include <inttypes.h>
#include <time.h>

#include "common.h"

struct counter {
	struct rxl_loop *loop;
	uint64_t packets, bytes, stop_at;
};

static void on_batch(void *arg, const struct rxl_pkt *pkts, size_t n)
{
	struct counter *c = arg;
	c->packets += n;
	for (size_t i = 0; i < n; i++)
		c->bytes += pkts[i].len;
	if (c->stop_at && c->packets >= c->stop_at)
		rxl_stop(c->loop);
}

static double per_s(uint64_t v, uint64_t ns)
{
	return ns ? (double)v * 1e9 / (double)ns : 0;
}

static void report(const struct rxl_config *cfg, const struct counter *c, const struct rxl_stats *st)
{
	double us = 1e-3;
	printf("mode %s\n", rxl_mode_name(cfg->mode));
	printf("packets %" PRIu64 "\n", c->packets);
	printf("bytes %" PRIu64 "\n", c->bytes);
	printf("seconds %.3f\n", st->run_ns * 1e-9);
	printf("rx_pps %.0f\n", per_s(st->packets, st->run_ns));
	printf("lost %" PRIu64 "\n", st->seq_lost);
	printf("reordered %" PRIu64 "\n", st->seq_reordered);
	printf("seq_next %" PRIu64 "\n", st->seq_next);
	printf("latency_us p50 %.1f p99 %.1f p99.9 %.1f max %.1f\n",
	       hist_quantile(&st->latency, 0.5) * us, hist_quantile(&st->latency, 0.99) * us,
	       hist_quantile(&st->latency, 0.999) * us, (double)st->latency.max * us);
	printf("cpu_pct %.1f\n", st->run_ns ? 100.0 * (double)(st->cpu_user_ns + st->cpu_sys_ns) /
					      (double)st->run_ns : 0);
	printf("wakeups_per_s %.0f\n", per_s(st->wakeups, st->run_ns));
	printf("pkts_per_wakeup %.2f\n", st->wakeups ? (double)st->packets / (double)st->wakeups : 0);
	printf("sleeps %" PRIu64 "\n", st->sleeps);
	printf("moderation_changes %" PRIu64 "\n", st->moderation_changes);
	printf("source_drops %" PRIu64 "\n", st->source_drops);
	printf("polls %" PRIu64 " empty %" PRIu64 "\n", st->polls, st->empty_polls);
}

int main(int argc, char **argv)
{
	struct ex_args a;
	char err[512];
	ex_parse(argc, argv, &a, "count UDP packets; print rate, loss, latency and CPU at the end");
	int fd = ex_socket(&a);
	struct counter c = { .stop_at = a.count };
	struct rxl_loop *l = rxl_open_udp(fd, &a.cfg, on_batch, &c, err, sizeof err);
	if (!l) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
		return 2;
	}
	c.loop = l;
	ex_signals(l);
	ex_announce(&a, fd);
	int rc = rxl_run(l, (uint64_t)(a.seconds * 1e9));
	struct rxl_stats st;
	rxl_stats_get(l, &st);
	report(&a.cfg, &c, &st);
	rxl_close(l);
	close(fd);
	if (rc < 0) {
		fprintf(stderr, "%s: receive loop failed: %s\n", argv[0], strerror(-rc));
		return 1;
	}
	return 0;
}
