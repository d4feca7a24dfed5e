/* A core object with an assert (kept in every build type: NDEBUG undone):
 * purity.sh must name __assert_fail. */
#include "core/napi.c"

#undef NDEBUG
#include <assert.h>

void rxlab_mutant_assert(int x);
void rxlab_mutant_assert(int x)
{
	assert(x > 0);
}
