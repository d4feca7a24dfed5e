/* plot_text.h - text in the gnuplot scripts rxlab writes, safe by construction.
 *
 * Every string a script holds (a title, a label, a legend, a file name, a
 * colour) is written by plot_text_quote() as a gnuplot single-quoted
 * literal; the scripts hold no double-quoted string.  What gnuplot 5.4 does
 * with the text of a script (checked by running gnuplot 5.4.4 on hostile
 * scripts; see tests/unit/test_plot_text.c):
 *
 *   - `cmd` is replaced by the output of the shell command cmd anywhere on a
 *     line, inside double-quoted strings too ("a`id`b"), but not inside a
 *     single-quoted string nor in a comment;
 *   - @name (a macro) is expanded outside strings only, on the whole line
 *     before it runs;
 *   - a single-quoted string has no escape but '' (one quote): a backslash,
 *     $(...), !, ; and @ in it are plain text;
 *   - a backslash at the end of a line continues the line, inside a string
 *     too; a string never spans a line;
 *   - enhanced text ({/Bold x}, x_1, x^2) is markup unless the terminal or
 *     the text says noenhanced; it formats, it never runs anything;
 *   - bytes that are not UTF-8 go into an SVG as they are and make it
 *     ill-formed XML.
 *
 * So a literal written here is a quote, the text with every ' doubled and
 * every byte that is not printable UTF-8 (a control character, NUL cannot
 * occur in a C string, DEL, a C1 control, a byte outside a well-formed
 * sequence) replaced by '?', then a quote: it holds no line break and ends
 * in a quote, so nothing in it is ever expanded and it never continues a line.
 */
#ifndef RXLAB_REPORT_PLOT_TEXT_H
#define RXLAB_REPORT_PLOT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Write @text to @f as one gnuplot single-quoted string literal, as above. */
void plot_text_quote(FILE *f, const char *text);

/* Write @text to @f with every byte that is not printable UTF-8 replaced by
 * '?' (the comment lines of data files: a line break cannot start a line). */
void plot_text_clean(FILE *f, const char *text);

/* Check that the @len bytes at @script (a script this program wrote) keep
 * to what plot_text_quote() promises, read as gnuplot 5.4 reads a script:
 * every string is single-quoted, printable UTF-8 and closed on its line;
 * outside strings and comments only the bytes of commands and numbers
 * (letters, digits, space, , . : [ ] + - _, a line break, a backslash that
 * continues a line); comments are printable ASCII; no backquote, double
 * quote, @, $, !, ; or ( outside a string, but for one list of numbers in
 * parentheses closing the line "set xtics (...)" or "set ytics (...)".  true when it does; else false,
 * with the offending line and byte in @why. */
bool plot_text_check_script(const char *script, size_t len, char *why, size_t whylen);

#endif
