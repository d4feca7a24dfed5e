/* merge.h - `rxlab merge SHARD... [--out FILE]`: join the outputs of
 * `rxlab sweep ... --shard K/N` (K = 1..N, any order) into the file the
 * sweep prints without --shard, byte for byte.  Refuses, with a message
 * naming the files: shards of different sweeps, formats or sizes; a shard
 * given twice; a missing shard; a shard with missing or partial points. */
#ifndef RXLAB_EXPERIMENT_MERGE_H
#define RXLAB_EXPERIMENT_MERGE_H

/* Arguments after "merge"; returns the exit status (0, or 2). */
int merge_main(int argc, char **argv);

#endif
