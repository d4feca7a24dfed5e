/* A core object that calls libm's log, which is not correctly rounded and
 * differs between libm versions: purity.sh must name log. */
#include "core/napi.c"

#include <math.h>

double rxlab_mutant_log(double x);
double rxlab_mutant_log(double x)
{
	return log(x);
}
