/* progress.c - see progress.h. */
#define _POSIX_C_SOURCE 200809L
#include "report/progress.h"

#include <stdio.h>
#include <time.h>

#define BAR_WIDTH 24

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "m:ss" or "h:mm:ss" of @s seconds. */
static const char *clock_text(double s, char *buf, size_t len)
{
	long t = s < 0 ? 0 : (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
	return buf;
}

static void draw(const struct progress *p, double t)
{
	char bar[BAR_WIDTH + 1], el[48], eta[48];
	size_t fill = p->total ? p->done * BAR_WIDTH / p->total : BAR_WIDTH;
	double per = p->done ? (t - p->t0_s) / (double)p->done : 0;

	for (size_t i = 0; i < BAR_WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR_WIDTH] = '\0';
	fprintf(stderr, "\r[%s] %zu/%zu points %3zu%%  %s elapsed  ETA %s \033[K", bar, p->done,
		p->total, p->total ? 100 * p->done / p->total : 100,
		clock_text(t - p->t0_s, el, sizeof(el)),
		p->done ? clock_text(per * (double)(p->total - p->done), eta, sizeof(eta)) : "?");
	fflush(stderr);
}

void progress_start(struct progress *p, size_t total, bool on)
{
	p->on = on;
	p->done = 0;
	p->total = total;
	p->t0_s = now_s();
	p->drawn_s = p->t0_s;
	if (on)
		draw(p, p->t0_s);
}

void progress_step(struct progress *p)
{
	double t;

	p->done++;
	if (!p->on)
		return;
	t = now_s();
	if (t - p->drawn_s >= 0.1 || p->done == p->total) {
		draw(p, t);
		p->drawn_s = t;
	}
}

void progress_end(struct progress *p)
{
	double el;
	char buf[48];

	if (!p->on)
		return;
	el = now_s() - p->t0_s;
	fprintf(stderr, "\r%zu of %zu points in %s (%.1f points/s)\033[K\n", p->done, p->total,
		clock_text(el, buf, sizeof(buf)), el > 0 ? (double)p->done / el : 0.0);
	p->on = false;
}
