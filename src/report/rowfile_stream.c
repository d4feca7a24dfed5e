/* rowfile_stream.c - see rowfile_stream.h.  The layout is rowfile_print()'s
 * (report/rowfile.c), taken apart: tests/sim/sweep_*.sh compare the files. */
#define _POSIX_C_SOURCE 200809L
#include "report/rowfile_stream.h"

#include <stdlib.h>
#include <string.h>

static void head(struct rowstream *rs)
{
	const struct rowfile *fr = rs->frame;

	rs->head_done = true;
	if (fr->fmt == OUT_JSON) {
		if (fr->shards)
			fprintf(rs->f, "{\n  \"shard\": [\n    {\"sweep_id\": \"%s\", \"shard\": %u, "
				"\"shards\": %u, \"points\": %llu}\n  ],\n  \"sweep\": ", fr->sweep_id,
				fr->shard, fr->shards, (unsigned long long)fr->points);
		return;		/* the array opens with the first row: "[]" if none */
	}
	if (fr->shards)
		fprintf(rs->f, "# shard\nsweep_id,shard,shards,points\n%s,%u,%u,%llu\n\n# sweep\n",
			fr->sweep_id, fr->shard, fr->shards, (unsigned long long)fr->points);
	for (size_t c = 0; c < fr->ncols; c++) {
		fputs(c ? "," : "", rs->f);
		table_csv_field(rs->f, fr->key[c]);
	}
	if (fr->ncols)
		fputc('\n', rs->f);
}

void rowstream_begin(struct rowstream *rs, FILE *f, const struct rowfile *frame)
{
	rs->f = f;
	rs->frame = frame;
	rs->nrows = 0;
	rs->head_done = false;
}

void rowstream_row(struct rowstream *rs, const char *text)
{
	int indent = rs->frame->shards ? 4 : 2;

	if (!rs->head_done)
		head(rs);
	if (rs->frame->fmt == OUT_JSON)
		fprintf(rs->f, "%s%*s%s", rs->nrows ? ",\n" : "[\n", indent, "", text);
	else
		fprintf(rs->f, "%s\n", text);
	rs->nrows++;
}

void rowstream_end(struct rowstream *rs)
{
	bool shard = rs->frame->shards > 0;

	if (!rs->head_done)
		head(rs);
	if (rs->frame->fmt != OUT_JSON)
		return;
	if (rs->nrows == 0)
		fputs("[]", rs->f);
	else
		fprintf(rs->f, "\n%*s]", shard ? 2 : 0, "");
	fputs(shard ? "\n}\n" : "\n", rs->f);
}

char *rowstream_tail(const struct rowstream *rs, const char *const *texts, size_t n)
{
	struct rowstream copy = *rs;
	char *buf = NULL;
	size_t len = 0;

	copy.f = open_memstream(&buf, &len);
	if (!copy.f)
		return NULL;
	for (size_t i = 0; i < n; i++)
		rowstream_row(&copy, texts[i]);
	rowstream_end(&copy);
	if (fclose(copy.f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *rowstream_table_row(const struct table *t, size_t r, enum out_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		fprintf(stderr, "rxlab: out of memory\n");
		abort();
	}
	table_print_row(t, r, f, fmt);
	fclose(f);
	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return buf;
}
