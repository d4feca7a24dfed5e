/* merge.c - `rxlab merge`: the shards of a sweep back into one file.
 *
 * Shard K of N holds the points p with p % N == K - 1, in order, so point
 * p is row p / N of shard p % N + 1; the merged rows are the shards' rows
 * interleaved, text unchanged: the file is byte for byte the one an
 * unsharded run prints.  Everything that would make it something else is
 * refused: shards of different sweeps, formats or sizes, the same shard
 * twice, a shard missing, a shard with missing or partial points.
 */
#include "experiment/merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/sweep_file.h"
#include "io/infile.h"
#include "report/rowfile.h"

/* @b agrees with the first shard @a on sweep, format and size. */
static int same_sweep(const struct rowfile *a, const char *pa, const struct rowfile *b,
		      const char *pb, char *err, size_t errlen)
{
	if (!b->shards)
		return snprintf(err, errlen, "%s is not a shard (it has no 'shard' table): only "
				"the outputs of rxlab sweep --shard K/N merge", pb), -1;
	if (strcmp(a->sweep_id, b->sweep_id))
		return snprintf(err, errlen, "%s is a shard of sweep %s, %s of sweep %s: shards "
				"of different sweeps (scenario, --set or --vary differ) do not "
				"merge", pb, b->sweep_id, pa, a->sweep_id), -1;
	if (a->shards != b->shards || a->points != b->points)
		return snprintf(err, errlen, "%s is shard %u/%u of %llu points, %s is %u/%u of "
				"%llu", pb, b->shard, b->shards, (unsigned long long)b->points, pa,
				a->shard, a->shards, (unsigned long long)a->points), -1;
	if (a->fmt != b->fmt)
		return snprintf(err, errlen, "%s and %s are in different formats (CSV and JSON)",
				pa, pb), -1;
	return 0;
}

/* Shard @f (path @p) is complete: every point of its slice, none partial. */
static int complete(const struct rowfile *f, const char *p, char *err, size_t errlen)
{
	size_t want = shard_points(f->points, f->shard, f->shards), partial = 0;
	int col = rowfile_col(f, "partial");

	for (size_t r = 0; col >= 0 && r < f->nrows; r++)
		partial += f->row[r].cell[col] && !strcmp(f->row[r].cell[col], "true");
	if (f->nrows != want || partial)
		return snprintf(err, errlen, "%s: shard %u/%u has %zu finished of its %zu points "
				"(%zu rows, %zu partial): it was interrupted; finish it with the "
				"same rxlab sweep command plus --resume %s", p, f->shard, f->shards,
				f->nrows - partial, want, f->nrows, partial, p), -1;
	return 0;
}

/* Check the set of shards; @by_k[k-1] = index of shard k in @f. */
static int check_set(struct rowfile *f, char **path, size_t n, size_t *by_k, char *err,
		     size_t errlen)
{
	unsigned shards = f[0].shards;

	if (n && !f[0].shards)
		return same_sweep(&f[0], path[0], &f[0], path[0], err, errlen);
	for (size_t k = 0; k < shards; k++)
		by_k[k] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		if (same_sweep(&f[0], path[0], &f[i], path[i], err, errlen) ||
		    complete(&f[i], path[i], err, errlen))
			return -1;
		if (by_k[f[i].shard - 1] != SIZE_MAX)
			return snprintf(err, errlen, "%s and %s are both shard %u/%u", path[by_k[f[i].shard - 1]],
					path[i], f[i].shard, shards), -1;
		by_k[f[i].shard - 1] = i;
	}
	for (size_t k = 0; k < shards; k++)
		if (by_k[k] == SIZE_MAX)
			return snprintf(err, errlen, "shard %zu/%u is missing (%zu of %u shards "
					"given)", k + 1, shards, n, shards), -1;
	return 0;
}

static int merge(struct rowfile *f, char **path, size_t n, const char *out, char *err,
		 size_t errlen)
{
	size_t *by_k = calloc(f[0].shards ? f[0].shards : 1, sizeof(*by_k));
	struct rowfile m;
	int rc = -1;

	if (!by_k || check_set(f, path, n, by_k, err, errlen))
		goto out;
	rowfile_init(&m, f[0].fmt);
	m.ncols = f[0].ncols;
	m.key = f[0].key;
	m.row = calloc(f[0].points + 1, sizeof(*m.row));
	if (!m.row)
		goto out;
	for (size_t p = 0; p < f[0].points; p++)
		m.row[m.nrows++] = f[by_k[p % f[0].shards]].row[p / f[0].shards];
	for (size_t i = 1; i < n && m.ncols; i++)
		for (size_t c = 0; c < m.ncols; c++)
			if (f[i].ncols != m.ncols || strcmp(f[i].key[c], m.key[c])) {
				snprintf(err, errlen, "%s and %s have different columns", path[0],
					 path[i]);
				goto out_rows;
			}
	rc = rowfile_write(&m, out ? out : "-", err, errlen);
out_rows:
	free(m.row);
out:
	free(by_k);
	return rc;
}

int merge_files(char **path, size_t n, const char *out, char *err, size_t errlen)
{
	struct rowfile *f = calloc(n + 1, sizeof(*f));
	size_t loaded;
	int rc = -1;

	if (!f)
		return snprintf(err, errlen, "out of memory"), -1;
	for (loaded = 0; loaded < n; loaded++)
		if (rowfile_read(&f[loaded], path[loaded], err, errlen))
			break;
	for (size_t i = 0; loaded == n && i < n; i++)
		path[i] = (char *)infile_name(path[i]);	/* messages name "-" "<stdin>" */
	if (loaded == n)
		rc = merge(f, path, n, out, err, errlen);
	for (size_t i = 0; i < loaded; i++)
		rowfile_free(&f[i]);
	free(f);
	return rc;
}
