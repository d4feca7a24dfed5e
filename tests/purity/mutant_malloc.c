/* A core object that also allocates: purity.sh must name malloc. */
#include "core/napi.c"

#include <stdlib.h>

void *rxlab_mutant_malloc(size_t n);
void *rxlab_mutant_malloc(size_t n)
{
	return malloc(n);
}
