/* version.h - what `rxlab --version`, `rxlab version` and `rxlab CMD
 * --version` print.
 *
 * The two strings are generated at build time (cmake/version.cmake):
 * rxlab_version is the project(VERSION ...) of CMakeLists.txt, rxlab_git
 * the `git describe --always --dirty --tags` of the source tree, or ""
 * when it was built from a tree that is not a git work tree of its own.
 */
#ifndef RXLAB_CLI_VERSION_H
#define RXLAB_CLI_VERSION_H

#include <stdio.h>

extern const char rxlab_version[], rxlab_git[];

/* "rxlab 0.1.0\n" and, from a git tree, "git 1ad0246-dirty\n" on @f: the
 * GNU form (program name and version on the first line), which help2man
 * reads for the man page.  Returns 0. */
int version_print(FILE *f);

#endif
