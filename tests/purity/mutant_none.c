/* The control of tests/purity_mutation.sh: a core object copied as it is
 * (compiled with the build's flags), which purity.sh must accept. */
#include "core/napi.c"
