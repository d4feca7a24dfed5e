/* merge.h - join the outputs of `rxlab sweep ... --shard K/N` (K = 1..N,
 * any order) into the file the sweep prints without --shard, byte for byte.  Refuses, with a message
 * naming the files: shards of different sweeps, formats or sizes; a shard
 * given twice; a missing shard; a shard with missing or partial points. */
#ifndef RXLAB_EXPERIMENT_MERGE_H
#define RXLAB_EXPERIMENT_MERGE_H

#include <stddef.h>

/* Merge the @n (>= 1) shard files @path into @out ("-" or NULL: standard
 * output; a file is written atomically).  0, or -1 with a message naming
 * the file(s) in @err. */
int merge_files(char **path, size_t n, const char *out, char *err, size_t errlen);

#endif
