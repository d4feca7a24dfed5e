/* plot_text.c - gnuplot literals and the check of a script (see plot_text.h). */
#include "report/plot_text.h"

#include <stdint.h>
#include <string.h>

/* Length of the well-formed UTF-8 sequence of a printable character at @s
 * (at most @n bytes there), or 0: an ASCII control or DEL, a C1 control
 * (U+0080..U+009F), a stray continuation byte, an overlong form, a
 * surrogate, a code point above U+10FFFF, a sequence cut short.  The
 * ranges are those of the Unicode standard, table 3-7. */
static size_t printable_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
		   : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	unsigned char lo = s[0] == 0xe0 ? 0xa0 : s[0] == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = s[0] == 0xed ? 0x9f : s[0] == 0xf4 ? 0x8f : 0xbf;

	if (len == 1)
		return s[0] >= 0x20 && s[0] != 0x7f;
	if (len == 0 || len > n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	if (len == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0;
	return len;
}

/* @text, each character that is not printable UTF-8 as '?', each ' as @quote. */
static void put_clean(FILE *f, const char *text, const char *quote)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text);

	while (n) {
		size_t len = printable_len(s, n);

		if (len == 0)
			fputc('?', f);
		else if (*s == '\'')
			fputs(quote, f);
		else
			fwrite(s, 1, len, f);
		len += len == 0;
		s += len;
		n -= len;
	}
}

void plot_text_quote(FILE *f, const char *text)
{
	fputc('\'', f);
	put_clean(f, text, "''");
	fputc('\'', f);
}

void plot_text_clean(FILE *f, const char *text)
{
	put_clean(f, text, "'");
}

/* ---- the check -------------------------------------------------------------- */

struct scan {
	const unsigned char *s;
	size_t len, i;
	unsigned line;
	char *why;
	size_t whylen;
};

static bool bad(struct scan *sc, const char *what)
{
	snprintf(sc->why, sc->whylen, "line %u, byte %zu (0x%02x): %s", sc->line, sc->i,
		 sc->i < sc->len ? sc->s[sc->i] : 0, what);
	return false;
}

/* A single-quoted string from its opening quote at sc->i to past its end. */
static bool literal(struct scan *sc)
{
	for (sc->i++; sc->i < sc->len; ) {
		size_t n;

		if (sc->s[sc->i] == '\'' && (sc->i + 1 == sc->len || sc->s[sc->i + 1] != '\'')) {
			sc->i++;
			return true;
		}
		n = sc->s[sc->i] == '\'' ? 2 : printable_len(sc->s + sc->i, sc->len - sc->i);
		if (n == 0)
			return bad(sc, sc->s[sc->i] == '\n' ? "string not closed on its line"
				   : "not printable UTF-8 in a string");
		sc->i += n;
	}
	return bad(sc, "string not closed");
}

/* A comment from '#' to the end of its line (left at the '\n'). */
static bool comment(struct scan *sc)
{
	for (; sc->i < sc->len && sc->s[sc->i] != '\n'; sc->i++)
		if (sc->s[sc->i] < 0x20 || sc->s[sc->i] > 0x7e || sc->s[sc->i] == '`')
			return bad(sc, "not printable ASCII, or a backquote, in a comment");
	return true;
}

/* A list of tics, "set xtics (" or "set ytics (" then numbers, commas and
 * spaces, ")" at the end of the line: from its '(' at sc->i to past ')'.
 * A list of numbers calls nothing (a function call needs a name before
 * its parenthesis, and a string to run). */
static bool tics_list(struct scan *sc)
{
	size_t start = sc->i;

	while (start > 0 && sc->s[start - 1] != '\n')
		start--;
	if (sc->i - start != 10 || (memcmp(sc->s + start, "set xtics ", 10) &&
				    memcmp(sc->s + start, "set ytics ", 10)))
		return bad(sc, "a parenthesis that does not open a list of tics");
	for (sc->i++; sc->i < sc->len && strchr("0123456789.,+-e ", sc->s[sc->i]) &&
		      sc->s[sc->i]; sc->i++)
		;
	if (sc->i + 1 >= sc->len || sc->s[sc->i] != ')' || sc->s[sc->i + 1] != '\n')
		return bad(sc, "a list of tics that holds more than numbers");
	sc->i++;
	return true;
}

bool plot_text_check_script(const char *script, size_t len, char *why, size_t whylen)
{
	static const char command[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				      "0123456789 ,.:[]+-_";
	struct scan sc = { (const unsigned char *)script, len, 0, 1, why, whylen };

	while (sc.i < sc.len) {
		unsigned char c = sc.s[sc.i];

		if (c == '\'' && !literal(&sc))
			return false;
		if (c == '#' && !comment(&sc))
			return false;
		if (c == '(' && !tics_list(&sc))
			return false;
		if (c == '\'' || c == '#' || c == '(')
			continue;
		if (c == '\\' && (sc.i + 1 == sc.len || sc.s[sc.i + 1] != '\n'))
			return bad(&sc, "a backslash that does not end its line");
		if (c != '\\' && c != '\n' && (c == '\0' || !strchr(command, c)))
			return bad(&sc, "not a byte of a command outside a string");
		sc.line += c == '\n';
		sc.i++;
	}
	return true;
}
