/* perf_script.c - tracepoint events as `perf script --ns` lines (see
 * perf_script.h). */
#include "report/perf_script.h"

#include <inttypes.h>

/* The width perf gives the event name: the longest of the four. */
#define NAME_WIDTH 21

const char *perf_script_event_name(enum rxl_tp_kind k)
{
	switch (k) {
	case RXL_TP_IRQ_ENTRY:
		return "irq:irq_handler_entry";
	case RXL_TP_IRQ_EXIT:
		return "irq:irq_handler_exit";
	case RXL_TP_NAPI_POLL:
		return "napi:napi_poll";
	case RXL_TP_NETIF_RECEIVE_SKB:
		return "net:netif_receive_skb";
	}
	return "?";
}

/* The TP_printk part (/sys/kernel/tracing/events/GROUP/NAME/format). */
static int fields(FILE *f, const struct rxl_tp_event *e)
{
	switch (e->kind) {
	case RXL_TP_IRQ_ENTRY:
		return fprintf(f, "irq=%" PRId32 " name=%s\n", e->irq, e->name);
	case RXL_TP_IRQ_EXIT: /* "REC->ret ? \"handled\" : \"unhandled\"": a NIC's always is */
		return fprintf(f, "irq=%" PRId32 " ret=handled\n", e->irq);
	case RXL_TP_NAPI_POLL:
		return fprintf(f, "napi poll on napi struct 0x%" PRIx64 " for device %s work %" PRIu32
			       " budget %" PRIu32 "\n", e->addr, e->name, e->work, e->budget);
	case RXL_TP_NETIF_RECEIVE_SKB:
		return fprintf(f, "dev=%s skbaddr=0x%" PRIx64 " len=%" PRIu32 "\n", e->name, e->addr,
			       e->len);
	}
	return -1;
}

int perf_script_line(FILE *f, const struct rxl_tp_event *e)
{
	int64_t t = e->t_ns < 0 ? 0 : e->t_ns;

	if (fprintf(f, "%16.15s %5" PRId32 " [%03u] %5" PRId64 ".%09" PRId64 ": %*s: ", e->comm,
		    e->pid, (unsigned)e->cpu, t / 1000000000, t % 1000000000, NAME_WIDTH,
		    perf_script_event_name(e->kind)) < 0)
		return -1;
	return fields(f, e) < 0 ? -1 : 0;
}
