/* A core object that reads the clock: purity.sh must name time. */
#include "core/napi.c"

#include <time.h>

long rxlab_mutant_time(void);
long rxlab_mutant_time(void)
{
	return (long)time(NULL);
}
