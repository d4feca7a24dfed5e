/* runq.h - the containers of the per-CPU scheduler (runq.c): a run queue
 * ordered by vruntime, and an intrusive list of threads.  They hold thread
 * indices and know nothing of threads; cpu.c says what goes in them. */
#ifndef RXLAB_SIM_RUNQ_H
#define RXLAB_SIM_RUNQ_H

#include <stdbool.h>
#include <stdint.h>

/* One queued thread: its vruntime when queued (a queued thread does not
 * run, so its vruntime does not change while it waits) and its index. */
struct rq_ent {
	int64_t vruntime; /* ns */
	int32_t id;
};

/* A binary min-heap of threads by (vruntime, index): the least vruntime
 * first, equal vruntimes by the lower thread index (the order of the
 * threads table, which the scheduler has always used to break ties).
 * pos[id] is the slot of thread id in whichever queue holds it, -1 in
 * none; one pos array serves every queue of a host, as a thread waits in
 * at most one.  Insert and erase are O(log n), first is O(1), n being the
 * queue's own length.  @cap bounds n (the caller sizes it). */
struct runq {
	struct rq_ent *e;
	uint32_t n, cap;
};

/* Queue thread @id (not queued: pos[id] == -1) at @vruntime. */
void runq_insert(struct runq *q, int32_t *pos, int64_t vruntime, int32_t id);
/* Take thread @id (queued in @q) out. */
void runq_erase(struct runq *q, int32_t *pos, int32_t id);
/* The first thread, or NULL when @q is empty. */
const struct rq_ent *runq_first(const struct runq *q);
/* Does (va, ia) come before (vb, ib)?  The queue's order, for callers that
 * compare a queue's first against a thread outside it. */
bool runq_before(int64_t va, int32_t ia, int64_t vb, int32_t ib);

/* A doubly linked list of threads threaded through a links array indexed
 * by thread (links[id]); a thread is on at most one list of one links
 * array.  Add and del are O(1); walk from head through links[id].next
 * until -1. */
struct rq_link {
	int32_t next, prev;
};
struct rq_list {
	int32_t head; /* -1: empty */
	uint32_t n;
};

void rq_list_init(struct rq_list *l);
void rq_list_add(struct rq_list *l, struct rq_link *links, int32_t id);
void rq_list_del(struct rq_list *l, struct rq_link *links, int32_t id);

#endif
