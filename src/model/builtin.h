/* builtin.h - scenarios and profiles compiled into the rxlab binary. */
#ifndef RXLAB_MODEL_BUILTIN_H
#define RXLAB_MODEL_BUILTIN_H

struct builtin_file {
	const char *name; /* "livelock", "seeds/001-...", "profiles/piii-933-e1000" */
	const char *path; /* path in the source tree, for messages */
	const char *text; /* NUL-terminated contents */
};

/* Terminated by an entry whose name is NULL. */
extern const struct builtin_file builtin_files[];

/* The built-in file called @name, or NULL. */
const struct builtin_file *builtin_find(const char *name);

#endif
