/* queue_keys.h - the [nic] keys of a multi-queue port and the [traffic]
 * flow keys whose values are more than one number: indir, irq-affinity,
 * per-queue NAPI lists, flow-popularity (queue_keys.c).  Each parser
 * writes the complete message "KEY = VALUE: ..." into @msg on error
 * (the caller adds file and line) and returns 0 or -1. */
#ifndef RXLAB_MODEL_QUEUE_KEYS_H
#define RXLAB_MODEL_QUEUE_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "model/units.h"
#include "rxlab/scenario.h"

/* indir = equal N | weight W0 W1 ... (ethtool -X): into n->indir_n or
 * n->indir_weight[] / n->indir_weights, checked against n->combined. */
int queue_keys_indir(const char *text, struct scn_nic *n, char *msg, size_t msglen);

/* irq-affinity = spread | CPU list in queue order (one CPU per queue: the
 * list is as long as combined, or one CPU for every queue); CPUs below
 * @ncpus. */
int queue_keys_irq_affinity(const char *text, uint32_t ncpus, struct scn_nic *n, char *msg,
                            size_t msglen);

/* threaded-cpus = irq | all | CPU list in queue order (one CPU per queue, or
 * one CPU for every queue; CPUs below @ncpus): the affinity of the port's
 * NAPI kthreads into n->threaded_cpus and n->threaded_cpu[0..combined). */
int queue_keys_threaded_cpus(const char *text, uint32_t ncpus, struct scn_nic *n, char *msg,
                              size_t msglen);

/* rps-cpus = CPU list (the CPUs of a rps_cpus mask: 0-3 for f), stored in
 * increasing order without repeats, as the kernel's rps_map holds them;
 * CPUs below @ncpus. */
int queue_keys_rps(const char *text, uint32_t ncpus, struct scn_nic *n, char *msg,
                   size_t msglen);

/* How queue_keys_list() reads each value (its @is_bool). */
enum queue_val {
	QVAL_UNIT = 0,     /* a number of @kind within @min..@max */
	QVAL_BOOL = 1,     /* on/off */
	QVAL_THREADED = 2, /* queue_keys_threaded() */
};

/* @n_tok blank-separated values of @key for @combined queues: one value
 * (every queue) or exactly @combined.  Each is parsed as @is_bool (enum
 * queue_val) says into out[0..combined). */
int queue_keys_list(const char *key, const char *text, uint32_t combined, enum unit_kind kind,
                    uint64_t min, uint64_t max, const char *noun, int is_bool, uint64_t *out,
                    char *msg, size_t msglen);

/* threaded = 0 | 1 | 2, the names disabled | enabled | busy-poll of
 * netdev napi-set threaded, or on/off (the sysfs file's 1/0): into *@v as
 * enum napi_threaded's value.  Messages name @key. */
int queue_keys_threaded(const char *key, const char *tok, uint64_t *v, char *msg, size_t msglen);

/* flow-popularity = uniform | zipf:S (S a decimal 0.001..4, thousandths
 * into *@milli). */
int queue_keys_flow_pop(const char *text, enum flow_popularity *pop, uint32_t *milli, char *msg,
                        size_t msglen);

#endif
