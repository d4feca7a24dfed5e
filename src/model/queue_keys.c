/* queue_keys.c - values of the multi-queue [nic] keys and of
 * flow-popularity (see queue_keys.h).  They are read after the whole
 * section, because each is checked against combined, which may come later
 * in the file or in a --set. */
#include "model/queue_keys.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next blank-separated token of *@p into @buf; false at the end. */
static bool next_token(const char **p, char *buf, size_t len)
{
	size_t n = 0;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (!**p)
		return false;
	while (**p && **p != ' ' && **p != '\t') {
		if (n + 1 < len)
			buf[n++] = **p;
		(*p)++;
	}
	buf[n] = '\0';
	return true;
}

static int indir_weights(const char *p, const char *text, struct scn_nic *n, char *msg,
                         size_t msglen)
{
	char tok[32];
	uint64_t sum = 0, v;

	n->indir_weights = 0;
	while (next_token(&p, tok, sizeof(tok))) {
		if (n->indir_weights == n->combined) {
			snprintf(msg, msglen, "indir = %s: more weights than queues (combined = %u)",
			         text, n->combined);
			return -1;
		}
		if (unit_parse_key(UNIT_COUNT, "weight", tok, 0, 1000000, NULL, &v, msg, msglen))
			return -1;
		n->indir_weight[n->indir_weights++] = (uint32_t)v;
		sum += v;
	}
	if (sum == 0) {
		snprintf(msg, msglen, "indir = %s: give at least one non-zero weight, e.g. "
		         "indir = weight 1 1 2 2", text);
		return -1;
	}
	if (sum > n->indir_size) { /* ethtool -X refuses it too: each unit is an entry */
		snprintf(msg, msglen, "indir = %s: the weights add up to %llu, more than the "
		         "indir-size of %u entries", text, (unsigned long long)sum, n->indir_size);
		return -1;
	}
	return 0;
}

int queue_keys_indir(const char *text, struct scn_nic *n, char *msg, size_t msglen)
{
	const char *p = text;
	char tok[32];
	uint64_t v;

	n->indir_n = n->indir_weights = 0;
	if (!next_token(&p, tok, sizeof(tok)))
		tok[0] = '\0';
	if (strcmp(tok, "weight") == 0)
		return indir_weights(p, text, n, msg, msglen);
	if (strcmp(tok, "equal") == 0 && next_token(&p, tok, sizeof(tok)) &&
	    !next_token(&p, (char[32]){ 0 }, 32)) {
		if (unit_parse(UNIT_COUNT, tok, &v, NULL, 0) != UNIT_OK || v < 1 || v > n->combined) {
			snprintf(msg, msglen, "indir = %s is out of range: accepted equal 1..%u "
			         "(combined = %u queues)", text, n->combined, n->combined);
			return -1;
		}
		n->indir_n = (uint32_t)v;
		return 0;
	}
	snprintf(msg, msglen, "indir = %s: accepted 'equal N' (spread over the first N queues) or "
	         "'weight W0 W1 ...' (one weight per queue), as ethtool -X", text);
	return -1;
}

int queue_keys_irq_affinity(const char *text, uint32_t ncpus, struct scn_nic *n, char *msg,
                            size_t msglen)
{
	char why[160];
	int got;
	uint32_t k;

	n->irq_spread = strcmp(text, "spread") == 0;
	n->irq_affinity_n = 0;
	if (n->irq_spread)
		return 0;
	got = unit_cpu_list(text, ncpus, n->irq_affinity, SCN_MAX_QUEUES, why, sizeof(why));
	if (got < 0) {
		snprintf(msg, msglen, "irq-affinity = %s: %s", text, why);
		return -1;
	}
	k = (uint32_t)got;
	if (k != 1 && k != n->combined) {
		snprintf(msg, msglen, "irq-affinity = %s: %u CPUs for combined = %u queues; give "
		         "one CPU per queue in queue order, one CPU for all, or spread", text, k,
		         n->combined);
		return -1;
	}
	for (uint32_t i = k; i < n->combined; i++)
		n->irq_affinity[i] = n->irq_affinity[0];
	n->irq_affinity_n = n->combined;
	return 0;
}

int queue_keys_threaded_cpus(const char *text, uint32_t ncpus, struct scn_nic *n, char *msg,
                              size_t msglen)
{
	char why[160];
	int got;

	n->threaded_cpus = THREADED_CPUS_IRQ;
	if (strcmp(text, "irq") == 0)
		return 0;
	if (strcmp(text, "all") == 0) {
		n->threaded_cpus = THREADED_CPUS_ALL;
		return 0;
	}
	got = unit_cpu_list(text, ncpus, n->threaded_cpu, SCN_MAX_QUEUES, why, sizeof(why));
	if (got < 0) {
		snprintf(msg, msglen, "threaded-cpus = %s: %s (or irq: each kthread on its queue's "
		         "IRQ CPU; all: no affinity)", text, why);
		return -1;
	}
	if ((uint32_t)got != 1 && (uint32_t)got != n->combined) {
		snprintf(msg, msglen, "threaded-cpus = %s: %d CPUs for combined = %u queues; give "
		         "one CPU per queue in queue order, one CPU for all, irq or all", text, got,
		         n->combined);
		return -1;
	}
	for (uint32_t i = (uint32_t)got; i < n->combined; i++)
		n->threaded_cpu[i] = n->threaded_cpu[0];
	n->threaded_cpus = THREADED_CPUS_LIST;
	return 0;
}

int queue_keys_rps(const char *text, uint32_t ncpus, struct scn_nic *n, char *msg,
                   size_t msglen)
{
	uint16_t cpus[SCN_MAX_CPUS];
	bool in[SCN_MAX_CPUS] = { false };
	char why[160];
	int got = unit_cpu_list(text, ncpus, cpus, SCN_MAX_CPUS, why, sizeof(why));

	if (got < 0) {
		snprintf(msg, msglen, "rps-cpus = %s: %s", text, why);
		return -1;
	}
	for (int i = 0; i < got; i++)
		in[cpus[i]] = true;
	n->rps_n = 0;
	for (uint32_t c = 0; c < ncpus; c++)
		if (in[c])
			n->rps_cpu[n->rps_n++] = (uint16_t)c;
	return 0;
}

int queue_keys_threaded(const char *key, const char *tok, uint64_t *v, char *msg, size_t msglen)
{
	/* enum netdev_napi_threaded's names (Documentation/netlink/specs/
	 * netdev.yaml, napi-threaded: disabled, enabled, busy-poll) and
	 * values, and the on/off of the sysfs file */
	static const char *const names[] = { "disabled", "enabled", "busy-poll" };
	bool b;

	for (uint64_t i = 0; i < 3; i++)
		if (strcmp(tok, names[i]) == 0 || (tok[0] == (char)('0' + i) && !tok[1])) {
			*v = i;
			return 0;
		}
	if (!unit_parse_bool(tok, &b)) {
		*v = b;
		return 0;
	}
	snprintf(msg, msglen, "%s = %s: accepted 0 | 1 | 2, or disabled | enabled | busy-poll "
	         "(netdev napi-set threaded), or off/on", key, tok);
	return -1;
}

/* Value @tok of queue @q: messages name it "KEY (queue Q) = TOK: ...". */
static int list_value(const char *key, uint32_t q, const char *tok, enum unit_kind kind,
                      uint64_t min, uint64_t max, const char *noun, int is_bool, uint64_t *v,
                      char *msg, size_t msglen)
{
	char label[96];
	bool b;

	snprintf(label, sizeof(label), "%s (queue %u)", key, q);
	key = label;
	if (is_bool == QVAL_THREADED)
		return queue_keys_threaded(key, tok, v, msg, msglen);
	if (!is_bool)
		return unit_parse_key(kind, key, tok, min, max, noun, v, msg, msglen);
	if (unit_parse_bool(tok, &b)) {
		snprintf(msg, msglen, "%s = %s: accepted on/off, yes/no, true/false, 1/0", key, tok);
		return -1;
	}
	*v = b;
	return 0;
}

int queue_keys_list(const char *key, const char *text, uint32_t combined, enum unit_kind kind,
                    uint64_t min, uint64_t max, const char *noun, int is_bool, uint64_t *out,
                    char *msg, size_t msglen)
{
	const char *p = text;
	char tok[64];
	uint32_t k = 0;

	while (next_token(&p, tok, sizeof(tok))) {
		if (k == combined) {
			k++;
			break;
		}
		if (list_value(key, k, tok, kind, min, max, noun, is_bool, &out[k], msg, msglen))
			return -1;
		k++;
	}
	if (k == 1) {
		for (uint32_t i = 1; i < combined; i++)
			out[i] = out[0];
		return 0;
	}
	if (k == combined)
		return 0;
	snprintf(msg, msglen, "%s = %s: %s%u values for combined = %u queues; give one value "
	         "(every queue) or %u (queue by queue, as napi-set per NAPI id)", key, text,
	         k > combined ? "more than " : "", k > combined ? combined : k, combined, combined);
	return -1;
}

int queue_keys_flow_pop(const char *text, enum flow_popularity *pop, uint32_t *milli, char *msg,
                        size_t msglen)
{
	char buf[48];
	uint64_t v;

	if (strcmp(text, "uniform") == 0) {
		*pop = FLOWPOP_UNIFORM;
		*milli = 0;
		return 0;
	}
	/* S read exactly as a time in us: its nanoseconds are the thousandths */
	if (strncmp(text, "zipf:", 5) == 0 && strlen(text + 5) < 32 && !strpbrk(text + 5, " \t")) {
		snprintf(buf, sizeof(buf), "%sus", text + 5);
		if (unit_parse(UNIT_TIME_NS, buf, &v, NULL, 0) == UNIT_OK && v >= 1 && v <= 4000) {
			*pop = FLOWPOP_ZIPF;
			*milli = (uint32_t)v;
			return 0;
		}
	}
	snprintf(msg, msglen, "flow-popularity = %s: accepted uniform or zipf:S with S in "
	         "0.001..4 (zipf:1 gives flow i a weight of 1/(i+1))", text);
	return -1;
}
