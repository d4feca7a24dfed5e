/* server.h - what a run reports about its socket readers: the epoll
 * server's workers, or the one UDP sink / rr-server thread (part of struct
 * results, rxlab/sim.h; filled by src/sim/sock.c). */
#ifndef RXLAB_RXLAB_SERVER_H
#define RXLAB_RXLAB_SERVER_H

#include <stdbool.h>
#include <stdint.h>

/* One reader thread, measurement window. */
struct worker_result {
	char name[48];          /* its thread's name (top's COMMAND) */
	uint16_t cpu;           /* the CPU it runs on */
	uint64_t served;        /* requests answered (datagrams read, for a sink) */
	double served_pps;      /* ... per second */
	double cpu_pct;         /* its thread's CPU, % of one CPU (top's %CPU) */
	uint64_t busy_polls;    /* polls its busy loop made (napi_busy_loop) */
	uint64_t busy_poll_pkts; /* frames those polls took */
	uint64_t suspends;      /* epoll returns that suspended IRQs (napi_suspend_irqs) */
	uint64_t resumes;       /* busy loops that ended empty and resumed them */
	uint64_t epoll_timeouts; /* epoll_wait() calls that returned on their timeout */
};

/* Every reader; n_workers = 0 when the scenario has no socket reader. */
struct server_result {
	bool epoll;             /* [apps] server = epoll (not a plain sink = on) */
	uint16_t n_workers;
	struct worker_result *w; /* n_workers entries, owned; NULL when none */
	double served_pps;      /* sum over the workers */
	double server_cpu_pct;  /* sum of the workers' cpu_pct (100 = one CPU) */
	double lat_p95_us;      /* latency p95, us, of every request (the run's
	                         * latency histogram: 0.8% bucket resolution) */
	double cpu_ns_per_query; /* busy CPU time of the whole host (user, system,
	                          * hard and soft IRQ, every CPU) per request
	                          * served, ns; NaN when none was served.
	                          * profile_cycles() turns it into cycles */
	uint64_t cycles_per_query; /* ... in cycles of the profile's ghz; 0 when the
	                            * profile gives no ghz (print it as unknown) */
};

#endif
