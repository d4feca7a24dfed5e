/* shell_quote.c - POSIX single-quote quoting (see shell_quote.h).
 *
 * Inside '...' a POSIX shell (XCU 2.2.2) gives every byte its literal
 * value except ' itself, which cannot appear there even escaped: a quote
 * is written as '\'' (close, an escaped quote, reopen).  Words made only
 * of "safe" bytes stay bare so that the usual commands stay readable:
 * "ethtool -C eth0 rx-usecs 8", "/sys/class/net/eth0/gro_flush_timeout".
 * The safe set leaves out '~' (tilde expansion at the start) and every
 * other punctuation; '=' is safe in an argument but not first (zsh's
 * "=cmd" expansion); an empty word prints as ''.
 */
#include "io/shell_quote.h"

#include <string.h>

static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789%+,-./:=@_";

static int bare(const char *w)
{
	return w[0] && w[0] != '=' && strspn(w, safe) == strlen(w);
}

int sh_quote(FILE *f, const char *word)
{
	int rc;

	if (bare(word))
		return fputs(word, f);
	rc = fputc('\'', f);
	for (const char *p = word; *p && rc >= 0; p++)
		rc = *p == '\'' ? fputs("'\\''", f) : fputc(*p, f);
	return rc < 0 ? rc : fputc('\'', f);
}
