/* registry.c - the moderation schemes and the presets of rxlab compare
 * (include/rxlab/scheme.h).
 *
 * Tune's levels are roughly logarithmic, spanning what drivers and the
 * kernel documentation use: rx-usecs 0..256 (mlx5 defaults to 8, DIM's
 * profiles reach 256), e1000 InterruptThrottleRate 100..100000
 * interrupts/s and its dynamic modes 1/3/4, napi_defer_hard_irqs up to 100
 * and gro_flush_timeout 2..500 us (Documentation/networking/napi.rst uses
 * 20 us and 2 here), busy_poll 5..200 us (net.rst suggests 50),
 * irq_suspend_timeout 1..50 ms (the IRQ suspension series' benchmark used
 * 20 ms).
 *
 * IRQ suspension follows napi.rst "IRQ suspension": irq-suspend-timeout,
 * napi_defer_hard_irqs and gro_flush_timeout (low values, "strongly
 * recommended"), prefer_busy_poll set on the epoll context (EPIOCSPARAMS),
 * and the application's epoll_wait does the busy polling.  The document
 * asks for no busy_poll_usecs: with prefer_busy_poll, epoll makes one
 * non-blocking pass through napi_busy_loop() even at busy_poll_usecs 0
 * (the series' cover letter), which is what the simulator's
 * apps.prefer_busy_poll = on with apps.busy_poll = 0 models (src/sim/sock.c:
 * busy_polling()).  So suspend sets busy_poll 0: the CPU it shows is the
 * work epoll finds, not a busy-poll spin.
 */
#include "rxlab/scheme.h"

#include <stdio.h>
#include <string.h>

#define NAPI_RST "Documentation/networking/napi.rst"
#define E1000_DOC "Documentation/networking/device_drivers/ethernet/intel/e1000.rst"

/* IRQ suspension's setting where nothing searches it (compare's row, the
 * irq-suspend live mode): the series' benchmark, 20 us and 20 ms. */
#define SUSPEND_GRO_NS 20000
#define SUSPEND_TIMEOUT_NS 20000000

const char *const rxl_scheme_off[] = {
	"host.rxpath=napi", "nic.*.driver=generic", "nic.*.rx-usecs=0", "nic.*.rx-frames=1",
	"nic.*.adaptive-rx=off", "nic.*.InterruptThrottleRate=0", "nic.*.napi_defer_hard_irqs=0",
	"nic.*.gro_flush_timeout=0", "nic.*.irq-suspend-timeout=0", NULL,
};

const char *const rxl_scheme_off_sink[] = {
	"apps.busy_poll=0", "apps.prefer_busy_poll=off", NULL,
};

static const struct rxl_scheme schemes[] = {
	{ "coalesce", "NAPI + static interrupt coalescing (ethtool -C rx-usecs, rx-frames)",
	  "ethtool(8) -C rx-usecs, rx-frames (the device's coalescing, which " NAPI_RST
	  " \"Software IRQ coalescing\" says NAPI batches on)",
	  { NULL }, 2,
	  { { "nic.*.rx-usecs", "rx-usecs", 9, { "0", "2", "4", "8", "16", "32", "64", "128", "256" } },
	    { "nic.*.rx-frames", "rx-frames", 7, { "1", "2", "4", "8", "16", "32", "64" } } },
	  1, { RXL_MODE_COALESCE }, { { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_LIVE | RXL_SCHEME_REPLAY | RXL_SCHEME_TUNE |
	  RXL_SCHEME_COMPARE },
	{ "dim", "NAPI + Linux DIM (ethtool -C adaptive-rx on)",
	  "Documentation/networking/net_dim.rst",
	  { "nic.*.adaptive-rx=dim", NULL }, 0, { { 0 } },
	  1, { RXL_MODE_DIM }, { { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_LIVE | RXL_SCHEME_REPLAY | RXL_SCHEME_TUNE |
	  RXL_SCHEME_COMPARE },
	{ "itr-dynamic", "NAPI + e1000 dynamic InterruptThrottleRate (modes 1, 3, 4)",
	  E1000_DOC " \"InterruptThrottleRate\" (dynamic modes)",
	  { NULL }, 1,
	  { { "nic.*.InterruptThrottleRate", "InterruptThrottleRate", 3, { "1", "3", "4" } } },
	  1, { RXL_MODE_ITR }, { { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_LIVE | RXL_SCHEME_REPLAY | RXL_SCHEME_TUNE |
	  RXL_SCHEME_COMPARE },
	{ "itr", "NAPI + e1000 fixed InterruptThrottleRate (interrupts/s)",
	  E1000_DOC " \"InterruptThrottleRate\" (100-100000)",
	  { NULL }, 1,
	  { { "nic.*.InterruptThrottleRate", "InterruptThrottleRate", 9,
	      { "500", "1000", "2000", "4000", "8000", "16000", "32000", "64000", "100000" } } },
	  1, { RXL_MODE_ITR }, { { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_LIVE | RXL_SCHEME_REPLAY | RXL_SCHEME_TUNE },
	{ "defer", "NAPI + interrupt deferral (napi_defer_hard_irqs, gro_flush_timeout)",
	  NAPI_RST " \"Software IRQ coalescing\"",
	  { NULL }, 2,
	  { { "nic.*.napi_defer_hard_irqs", "napi_defer_hard_irqs", 8,
	      { "1", "2", "3", "5", "10", "20", "50", "100" } },
	    { "nic.*.gro_flush_timeout", "gro_flush_timeout", 8,
	      { "2us", "5us", "10us", "20us", "50us", "100us", "200us", "500us" } } },
	  0, { 0 }, { { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_REPLAY | RXL_SCHEME_TUNE | RXL_SCHEME_COMPARE },
	{ "busy-poll", "NAPI + busy polling from the socket (SO_BUSY_POLL)",
	  NAPI_RST " \"Busy polling\"",
	  { NULL }, 1,
	  { { "apps.busy_poll", "busy_poll", 6, { "5us", "10us", "20us", "50us", "100us", "200us" } } },
	  1, { RXL_MODE_SO_BUSY_POLL }, { { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_LIVE | RXL_SCHEME_TUNE | RXL_SCHEME_COMPARE |
	  RXL_SCHEME_SINK },
	{ "suspend", "preferred busy polling from epoll with IRQ suspension (prefer_busy_poll, "
	  "busy_poll 0, napi_defer_hard_irqs 100, irq-suspend-timeout)",
	  NAPI_RST " \"IRQ suspension\"",
	  { "apps.prefer_busy_poll=on", "apps.busy_poll=0", "nic.*.napi_defer_hard_irqs=100",
	    NULL },
	  2,
	  { { "nic.*.gro_flush_timeout", "gro_flush_timeout", 6,
	      { "5us", "10us", "20us", "50us", "100us", "200us" } },
	    { "nic.*.irq-suspend-timeout", "irq-suspend-timeout", 6,
	      { "1ms", "2ms", "5ms", "10ms", "20ms", "50ms" } } },
	  1, { RXL_MODE_IRQ_SUSPEND },
	  { { "napi_defer_hard_irqs", 100 }, { "gro_flush_timeout", SUSPEND_GRO_NS },
	    { "irq-suspend-timeout", SUSPEND_TIMEOUT_NS }, { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_LIVE | RXL_SCHEME_TUNE | RXL_SCHEME_COMPARE |
	  RXL_SCHEME_SINK },
	{ "per-packet-irq", "classic kernel, an interrupt per frame (no NAPI)",
	  "Documentation/networking/NAPI_HOWTO.txt (Linux 2.4, before NAPI)",
	  { "host.rxpath=classic", NULL }, 0, { { 0 } }, 0, { 0 }, { { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_COMPARE },
	{ "napi", "NAPI, no moderation: an interrupt, then polls until the ring is empty",
	  NAPI_RST " \"Scheduling and IRQ masking\"",
	  { NULL }, 0, { { 0 } },
	  3, { RXL_MODE_INTERRUPT, RXL_MODE_EPOLL, RXL_MODE_NAPI }, { { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_LIVE | RXL_SCHEME_COMPARE },
	{ "prefer-busy", "preferred busy polling (SO_PREFER_BUSY_POLL, busy_poll 50us, "
	  "napi_defer_hard_irqs 2, gro_flush_timeout 200us)",
	  NAPI_RST " \"IRQ mitigation\"",
	  { "apps.prefer_busy_poll=on", "apps.busy_poll=50us", "nic.*.napi_defer_hard_irqs=2",
	    "nic.*.gro_flush_timeout=200us", NULL }, 0, { { 0 } },
	  1, { RXL_MODE_PREFER_BUSY },
	  { { "napi_defer_hard_irqs", 2 }, { "gro_flush_timeout", 200000 }, { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_LIVE | RXL_SCHEME_SINK },
	{ "threaded", "threaded NAPI: polls in a kernel thread per NAPI (live: a busy-polling "
	  "kthread)",
	  NAPI_RST " \"Threaded NAPI\", \"Threaded NAPI busy polling\"",
	  { "nic.*.threaded=on", NULL }, 0, { { 0 } },
	  1, { RXL_MODE_THREADED }, { { "threaded", 2 }, { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_LIVE },
	{ "bsd-poll", "FreeBSD DEVICE_POLLING: polls on the clock tick, no receive interrupt",
	  "FreeBSD polling(4), sys/kern/kern_poll.c",
	  { "host.rxpath=bsd-poll", NULL }, 0, { { 0 } },
	  1, { RXL_MODE_BSD_POLL }, { { NULL, 0 } },
	  RXL_SCHEME_SIM | RXL_SCHEME_LIVE | RXL_SCHEME_COMPARE },
};

#define N_SCHEMES (sizeof(schemes) / sizeof(schemes[0]))

/* compare's rows, in its order; the descriptions are the ones it prints. */
static const struct rxl_scheme_preset presets[] = {
	{ "per-packet-irq", "classic kernel, an interrupt per frame", "per-packet-irq", { NULL } },
	{ "static-coalesce", "NAPI + rx-usecs 50, rx-frames 32", "coalesce", { "50", "32" } },
	{ "dim", "NAPI + adaptive-rx (Linux DIM)", "dim", { NULL } },
	{ "e1000-itr3", "NAPI + InterruptThrottleRate=3", "itr-dynamic", { "3" } },
	{ "napi", "NAPI, no moderation", "napi", { NULL } },
	{ "napi-defer", "NAPI + napi_defer_hard_irqs 2, gro_flush_timeout 20us", "defer",
	  { "2", "20us" } },
	{ "busy-poll", "NAPI + SO_BUSY_POLL 50us", "busy-poll", { "50us" } },
	{ "suspend", "prefer busy poll from epoll + defer 100/20us + irq-suspend-timeout 20ms",
	  "suspend", { "20us", "20ms" } },
	{ "bsd-poll", "FreeBSD DEVICE_POLLING, HZ 1000, user_frac 50", "bsd-poll", { NULL } },
};

#define N_PRESETS (sizeof(presets) / sizeof(presets[0]))

const struct rxl_scheme *rxl_scheme_find(const char *name)
{
	for (size_t i = 0; i < N_SCHEMES; i++)
		if (!strcmp(schemes[i].name, name))
			return &schemes[i];
	return NULL;
}

static bool selected(const struct rxl_scheme *s, unsigned has, unsigned lacks)
{
	return (s->flags & has) == has && !(s->flags & lacks);
}

size_t rxl_scheme_count(unsigned has, unsigned lacks)
{
	size_t n = 0;

	for (size_t i = 0; i < N_SCHEMES; i++)
		n += selected(&schemes[i], has, lacks);
	return n;
}

const struct rxl_scheme *rxl_scheme_at(unsigned has, unsigned lacks, size_t i)
{
	for (size_t k = 0; k < N_SCHEMES; k++)
		if (selected(&schemes[k], has, lacks) && i-- == 0)
			return &schemes[k];
	return NULL;
}

int rxl_scheme_index(unsigned has, unsigned lacks, const char *name)
{
	const struct rxl_scheme *s;

	for (size_t i = 0; (s = rxl_scheme_at(has, lacks, i)) != NULL; i++)
		if (!strcmp(s->name, name))
			return (int)i;
	return -1;
}

size_t rxl_scheme_names(char *buf, size_t len, unsigned has, unsigned lacks)
{
	size_t n = rxl_scheme_count(has, lacks), at = 0;

	if (len > 0)
		buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *sep = i == 0 ? "" : i + 1 == n ? " and " : ", ";
		int w = snprintf(buf + (at < len ? at : len), at < len ? len - at : 0, "%s%s", sep,
				 rxl_scheme_at(has, lacks, i)->name);

		at += (size_t)w;
	}
	return at;
}

const struct rxl_scheme *rxl_scheme_of_mode(enum rxl_mode m)
{
	for (size_t i = 0; i < N_SCHEMES; i++)
		for (size_t k = 0; k < schemes[i].n_modes; k++)
			if (schemes[i].mode[k] == m)
				return &schemes[i];
	return NULL;
}

int rxl_scheme_key(char *out, size_t len, const char *key, const char *port)
{
	const char *star = strchr(key, '*');
	int w = star ? snprintf(out, len, "%.*s%s%s", (int)(star - key), key, port, star + 1)
		     : snprintf(out, len, "%s", key);

	return w < 0 || (size_t)w >= len ? -1 : 0;
}

size_t rxl_preset_count(void)
{
	return N_PRESETS;
}

const struct rxl_scheme_preset *rxl_preset_at(size_t i)
{
	return i < N_PRESETS ? &presets[i] : NULL;
}

const struct rxl_scheme_preset *rxl_preset_find(const char *name)
{
	for (size_t i = 0; i < N_PRESETS; i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}
