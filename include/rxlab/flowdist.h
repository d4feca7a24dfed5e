/* flowdist.h - which flow a frame belongs to (lead's placeholder). */
#ifndef RXLAB_RXLAB_FLOWDIST_H
#define RXLAB_RXLAB_FLOWDIST_H

#include <stdint.h>

#include "rxlab/rng.h"

enum flow_pop { FLOW_UNIFORM, FLOW_ZIPF };
struct flowdist {
	uint32_t n;
	uint64_t *cdf; /* Zipf: cumulative weights scaled to 2^53 */
};
int flowdist_init(struct flowdist *d, uint32_t n, enum flow_pop pop, double s);
uint32_t flowdist_draw(const struct flowdist *d, struct rng *r);
void flowdist_free(struct flowdist *d);

#endif
