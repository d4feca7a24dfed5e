/* o1rq.h - the run queue of the O(1) scheduler ([host] scheduler = o1),
 * kernel/sched.c of Linux 2.6.12, as keys of the per-CPU heap (runq.h).
 *
 * 2.6's run queue is two priority arrays per CPU, active and expired, each
 * a list per priority (0..139) with a bitmap: schedule() runs the head of
 * the best non-empty list of the active array, and when the active array
 * is empty the two swap.  A task enters at the tail of its list (wake-up,
 * round robin); a task whose timeslice ends goes to the expired array,
 * unless it is interactive and the expired ones do not starve.  The
 * running task stays in its list, at the head.
 *
 * The model keeps the order and not the lists: a queued fair thread's key
 * in cpu.fair is (generation of its array, priority, sequence number).
 * Each CPU numbers its arrays: the active one is generation `active`, the
 * expired one `active + 1`; a swap is the active generation moving on by
 * one, which happens by itself when the least key left is an expired one
 * (the active array has emptied).  The sequence number orders a list: the
 * tail is the largest.  So the heap's first is exactly the task
 * schedule() would pick, in O(log n), and a requeue is an erase and an
 * insert.  The priority arithmetic is src/core/o1sched.c. */
#ifndef RXLAB_SIM_O1RQ_H
#define RXLAB_SIM_O1RQ_H

#include <stdbool.h>
#include <stdint.h>

/* Key layout: generation in bits 62..39, priority 38..31, sequence 30..0. */
#define O1RQ_SEQ_BITS 31
#define O1RQ_PRIO_BITS 8
#define O1RQ_SEQ_MAX ((UINT32_C(1) << O1RQ_SEQ_BITS) - 1)
#define O1RQ_GEN_MAX ((UINT32_C(1) << 24) - 1)

/* One CPU's O(1) state besides its queued threads. */
struct o1rq {
	uint32_t active;       /* generation of the active array */
	uint32_t seq;          /* the next sequence number (a list's next tail) */
	int64_t expired_ns;    /* rq->expired_timestamp: when a task first went to the
	                        * expired array since the last swap, -1: none */
	int16_t best_expired;  /* rq->best_expired_prio: best static priority in the
	                        * expired array, 140 (MAX_PRIO) when none */
};

void o1rq_init(struct o1rq *q);
/* The key of a thread of @prio entering the tail of its list in the active
 * array (@expired false) or the expired array; false when the CPU's
 * sequence numbers are used up (the caller fails the run). */
bool o1rq_tail(struct o1rq *q, int prio, bool expired, int64_t *key);
/* schedule() picks the thread of @key: when it is in the expired array
 * (the active one is empty) the arrays swap (expired_ns none,
 * best_expired 140). */
void o1rq_picked(struct o1rq *q, int64_t key);
/* The CPU goes idle (schedule() with nr_running 0 clears expired_timestamp). */
void o1rq_idle(struct o1rq *q);
/* Is the thread of @key in the expired array of @q? */
bool o1rq_in_expired(const struct o1rq *q, int64_t key);
/* Priority of @key. */
int o1rq_prio(int64_t key);
/* move_tasks()'s preference among the queued threads of a busy CPU: the
 * expired array before the active one, then the best priority, then the
 * tail of the list first.  Does thread @ia of key @a come before @ib of
 * @b? */
bool o1rq_pull_before(int64_t a, int32_t ia, int64_t b, int32_t ib);

#endif
