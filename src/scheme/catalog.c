/* tune_catalog.c - the search space of `rxlab tune`.
 *
 * Levels are roughly logarithmic, spanning what drivers and the kernel
 * documentation use: rx-usecs 0..256 (mlx5 defaults to 8, DIM's profiles
 * reach 256), e1000 InterruptThrottleRate 100..100000 interrupts/s and its
 * dynamic modes 1/3/4, napi_defer_hard_irqs up to 100 and
 * gro_flush_timeout 2..500 us (Documentation/networking/napi.rst uses
 * 20 us and 2 here), busy_poll 5..200 us (net.rst suggests 50),
 * irq_suspend_timeout 1..50 ms (the series' benchmark used 20 ms).
 */
#include "scheme/catalog.h"

#include <string.h>

const char *const tune_baseline[] = {
	"host.rxpath=napi", "nic.*.driver=generic", "nic.*.rx-usecs=0", "nic.*.rx-frames=1",
	"nic.*.adaptive-rx=off", "nic.*.InterruptThrottleRate=0", "nic.*.napi_defer_hard_irqs=0",
	"nic.*.gro_flush_timeout=0", "nic.*.irq-suspend-timeout=0", NULL,
};

const char *const tune_baseline_sink[] = {
	"apps.busy_poll=0", "apps.prefer_busy_poll=off", NULL,
};


const struct tune_policy tune_policies[] = {
	{ "coalesce", "NAPI + static interrupt coalescing (ethtool -C rx-usecs, rx-frames)",
	  { NULL }, 2,
	  { { "nic.*.rx-usecs", "rx-usecs", 9, { "0", "2", "4", "8", "16", "32", "64", "128", "256" } },
	    { "nic.*.rx-frames", "rx-frames", 7, { "1", "2", "4", "8", "16", "32", "64" } } },
	  false },
	{ "dim", "NAPI + Linux DIM (ethtool -C adaptive-rx on)",
	  { "nic.*.adaptive-rx=dim", NULL }, 0, { { 0 } }, false },
	{ "itr-dynamic", "NAPI + e1000 dynamic InterruptThrottleRate (modes 1, 3, 4)",
	  { NULL }, 1,
	  { { "nic.*.InterruptThrottleRate", "InterruptThrottleRate", 3, { "1", "3", "4" } } },
	  false },
	{ "itr", "NAPI + e1000 fixed InterruptThrottleRate (interrupts/s)",
	  { NULL }, 1,
	  { { "nic.*.InterruptThrottleRate", "InterruptThrottleRate", 9,
	      { "500", "1000", "2000", "4000", "8000", "16000", "32000", "64000", "100000" } } },
	  false },
	{ "defer", "NAPI + interrupt deferral (napi_defer_hard_irqs, gro_flush_timeout)",
	  { NULL }, 2,
	  { { "nic.*.napi_defer_hard_irqs", "napi_defer_hard_irqs", 8,
	      { "1", "2", "3", "5", "10", "20", "50", "100" } },
	    { "nic.*.gro_flush_timeout", "gro_flush_timeout", 8,
	      { "2us", "5us", "10us", "20us", "50us", "100us", "200us", "500us" } } },
	  false },
	{ "busy-poll", "NAPI + busy polling from the socket (SO_BUSY_POLL)",
	  { NULL }, 1,
	  { { "apps.busy_poll", "busy_poll", 6, { "5us", "10us", "20us", "50us", "100us", "200us" } } },
	  true },
	{ "suspend", "preferred busy polling with IRQ suspension (SO_PREFER_BUSY_POLL, "
	  "busy_poll 50us, napi_defer_hard_irqs 100, irq-suspend-timeout)",
	  { "apps.prefer_busy_poll=on", "apps.busy_poll=50us", "nic.*.napi_defer_hard_irqs=100",
	    NULL }, 2,
	  { { "nic.*.gro_flush_timeout", "gro_flush_timeout", 6,
	      { "5us", "10us", "20us", "50us", "100us", "200us" } },
	    { "nic.*.irq-suspend-timeout", "irq-suspend-timeout", 6,
	      { "1ms", "2ms", "5ms", "10ms", "20ms", "50ms" } } },
	  true },
};

const size_t tune_n_policies = sizeof(tune_policies) / sizeof(tune_policies[0]);

int tune_policy_index(const char *name)
{
	for (size_t i = 0; i < tune_n_policies; i++)
		if (!strcmp(tune_policies[i].name, name))
			return (int)i;
	return -1;
}
