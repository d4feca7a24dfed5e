/* procfs.c - parsers of /proc/interrupts and /proc/net/softnet_stat (see
 * procfs.h). */
#include "io/procfs.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool procfs_getline(FILE *f, char *buf, size_t len, bool *truncated)
{
	size_t n;
	int c;

	if (truncated)
		*truncated = false;
	if (!fgets(buf, (int)len, f))
		return false;
	n = strlen(buf);
	if (n && buf[n - 1] == '\n') {
		buf[n - 1] = '\0';
		return true;
	}
	while ((c = fgetc(f)) != EOF && c != '\n')	/* the rest of a long line */
		if (truncated)
			*truncated = true;
	return true;
}

int procfs_irq_header(const char *line, int *cpu_id, int max)
{
	const char *p = line;
	int n = 0;

	while ((p = strstr(p, "CPU")) != NULL) {
		char *end;
		long id = strtol(p + 3, &end, 10);

		if (end == p + 3 || id < 0 || id > 1 << 20)
			return -1;
		if (n < max)
			cpu_id[n] = (int)id;
		n++;
		p = end;
	}
	return n ? n : -1;
}

/* Copy @s (@n bytes) into @dst (@len bytes), cut to fit, without the
 * blanks at either end. */
static void copy_trimmed(char *dst, size_t len, const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* The word at @s (up to a blank) and where it ends. */
static size_t word_len(const char *s)
{
	size_t n = 0;

	while (s[n] && !isspace((unsigned char)s[n]))
		n++;
	return n;
}

static const char *skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* "5-edge", "-edge" (no irq domain: blanks, then the name) or "5" (no
 * name): the hwirq and the flow handler's name, else false. */
static bool hwirq_word(const char *w, size_t n, struct procfs_irq *out)
{
	size_t d = 0;

	while (d < n && isdigit((unsigned char)w[d]))
		d++;
	if (d == n && d)
		out->hwirq = strtol(w, NULL, 10);
	else if (w[d] == '-' && d + 1 < n)
		out->hwirq = d ? strtol(w, NULL, 10) : -1;
	else
		return false;
	if (d < n)
		copy_trimmed(out->handler, sizeof(out->handler), w + d + 1, n - d - 1);
	return true;
}

/* desc of a numbered IRQ: chip, hwirq-handler, the handlers' names. */
static void split_desc(struct procfs_irq *out)
{
	const char *s = out->desc;
	size_t n = word_len(s);

	copy_trimmed(out->chip, sizeof(out->chip), s, n);
	s = skip_blanks(s + n);
	n = word_len(s);
	if (n && hwirq_word(s, n, out))
		s = skip_blanks(s + n);
	copy_trimmed(out->action, sizeof(out->action), s, strlen(s));
}

int procfs_irq_line(const char *line, struct procfs_irq *out)
{
	const char *colon = strchr(line, ':'), *s;
	char *end;

	memset(out, 0, sizeof(*out));
	out->irq = out->hwirq = -1;
	if (!colon)
		return -1;
	copy_trimmed(out->label, sizeof(out->label), line, (size_t)(colon - line));
	if (!out->label[0])
		return -1;
	if (isdigit((unsigned char)out->label[0])) {
		out->irq = strtol(out->label, &end, 10);
		if (*end)
			out->irq = -1;
	}
	for (s = colon + 1;; s = end) {
		unsigned long long v;

		if (!isdigit((unsigned char)*skip_blanks(s)))
			break;
		v = strtoull(s, &end, 10);
		if (out->ncounts < PROCFS_MAX_CPUS)
			out->count[out->ncounts] = v;
		out->ncounts++;
	}
	copy_trimmed(out->desc, sizeof(out->desc), s, strlen(s));
	if (out->irq >= 0)
		split_desc(out);
	return 0;
}

int procfs_softnet_line(const char *line, int row, struct procfs_softnet *out)
{
	const char *s = line;

	memset(out, 0, sizeof(*out));
	while (out->ncols < PROCFS_SN_COLS) {
		char *end;
		unsigned long v;

		s = skip_blanks(s);
		if (!isxdigit((unsigned char)*s))
			break;
		v = strtoul(s, &end, 16);
		if (v > UINT32_MAX || (*end && !isspace((unsigned char)*end)))
			return -1;
		out->v[out->ncols++] = (uint32_t)v;
		s = end;
	}
	if (out->ncols < 3)
		return -1;
	out->cpu = out->ncols > PROCFS_SN_CPU ? (int)out->v[PROCFS_SN_CPU] : row;
	return 0;
}
