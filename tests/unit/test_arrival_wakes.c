/* test_arrival_wakes.c - the line that does not wake for an arrival that
 * cannot move its RX fire time, nor ask again after a transmit that cannot
 * change its decision (src/sim/nic.c arrival_moot, xmit_moot), against the
 * line that does both every time (nic->wake_ref), on test_property's
 * 1000 random scenarios and fixed extreme cases: every counter of every
 * queue and CPU, the latency histogram, the threads' times and the end
 * time must be the same; only the number of events differs (the wakes
 * left out are events), so it is not compared.  test_property.c is built
 * again with PROPERTY_ARRIVAL_WAKES, which makes its reference run differ
 * from the fast one by this switch alone. */
#include "sim/sim.h"

#define PROPERTY_ARRIVAL_WAKES 1
#include "test_property.c"
