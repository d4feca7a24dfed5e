/* o1rq.c - the O(1) scheduler's two priority arrays as heap keys (o1rq.h). */
#include "sim/o1rq.h"

#include "rxlab/o1sched.h"

#define PRIO_SHIFT O1RQ_SEQ_BITS
#define GEN_SHIFT (O1RQ_SEQ_BITS + O1RQ_PRIO_BITS)

static uint32_t gen_of(int64_t key)
{
	return (uint32_t)(key >> GEN_SHIFT);
}

int o1rq_prio(int64_t key)
{
	return (int)(key >> PRIO_SHIFT & ((1 << O1RQ_PRIO_BITS) - 1));
}

static uint32_t seq_of(int64_t key)
{
	return (uint32_t)(key & O1RQ_SEQ_MAX);
}

void o1rq_init(struct o1rq *q)
{
	*q = (struct o1rq){ .expired_ns = -1, .best_expired = O1_MAX_PRIO };
}

bool o1rq_tail(struct o1rq *q, int prio, bool expired, int64_t *key)
{
	uint32_t gen = q->active + (expired ? 1 : 0);

	if (q->seq > O1RQ_SEQ_MAX || gen > O1RQ_GEN_MAX)
		return false;
	*key = (int64_t)gen << GEN_SHIFT | (int64_t)prio << PRIO_SHIFT | (int64_t)q->seq++;
	return true;
}

void o1rq_picked(struct o1rq *q, int64_t key)
{
	if (gen_of(key) == q->active)
		return;
	q->active = gen_of(key);
	q->expired_ns = -1;
	q->best_expired = O1_MAX_PRIO;
}

void o1rq_idle(struct o1rq *q)
{
	q->expired_ns = -1;
}

bool o1rq_in_expired(const struct o1rq *q, int64_t key)
{
	return gen_of(key) != q->active;
}

bool o1rq_pull_before(int64_t a, int32_t ia, int64_t b, int32_t ib)
{
	if (gen_of(a) != gen_of(b))
		return gen_of(a) > gen_of(b);
	if (o1rq_prio(a) != o1rq_prio(b))
		return o1rq_prio(a) < o1rq_prio(b);
	if (seq_of(a) != seq_of(b))
		return seq_of(a) > seq_of(b);
	return ia < ib;
}
