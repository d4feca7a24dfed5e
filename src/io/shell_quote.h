/* shell_quote.h - words for a POSIX shell, as rxlab prints commands.
 *
 * Every word of a command rxlab prints for someone to run (the "to apply
 * it on Linux, as root" lines of `rxlab tune`, its apply.sh) goes through
 * sh_quote(), also words rxlab checked before (interface names, numbers,
 * paths): quoting is the second defence, after the checks.
 */
#ifndef RXLAB_IO_SHELL_QUOTE_H
#define RXLAB_IO_SHELL_QUOTE_H

#include <stdio.h>

/* Write @word to @f so that a POSIX shell reads it back as exactly one
 * argument equal to @word: bare when it is made only of bytes no shell
 * treats specially there (letters, digits and % + , - . / : = @ _, '='
 * not first: zsh expands a leading '='), otherwise in single quotes with
 * each ' written as '\'' ('' for the empty word).  For arguments, not
 * command names: a bare NAME=VALUE in a command's place is an assignment.
 * Negative on a write error, else non-negative. */
int sh_quote(FILE *f, const char *word);

#endif
