/* col_units.h - the unit of an output column, from its table and key.
 *
 * Columns are named with their unit as a suffix (`_pct`, `_us`, `_pps`,
 * `_per_s`, ...: DESIGN.md "units in names"), so most units follow from
 * the key alone; the few keys that imitate a tool's own header (mpstat's
 * usr/sys/irq, vmstat's in/cs/us/sy, /proc/interrupts' irq) are named
 * here per table.  table_col_unit() (table.h) asks this first and falls
 * back on the column's cells (text, bool, count).  docs/outputs-schema.md
 * lists every table's columns with these units; tests/sim/outputs_schema.sh
 * checks it against what the program prints.
 */
#ifndef RXLAB_REPORT_COL_UNITS_H
#define RXLAB_REPORT_COL_UNITS_H

/* The unit of column @key of table @table: "%", "us", "ms", "s", "ns",
 * "pkt/s", "1/s", "Mbit/s", "bytes", "packets", "id", "pkt/irq",
 * "pkt/poll", "seg/skb", "cycles/query", or NULL when neither the key's
 * suffix nor the table's own names say (the caller decides from the
 * cells).  A static string. */
const char *col_unit_rule(const char *table, const char *key);

#endif
