/* A core object that also prints: purity.sh must name printf. */
#include "core/napi.c"

#include <stdio.h>

void rxlab_mutant_printf(int x);
void rxlab_mutant_printf(int x)
{
	printf("%d %d\n", x, x + 1);
}
