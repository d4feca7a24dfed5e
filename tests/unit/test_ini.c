/* test_ini.c - the generic INI reader: syntax, comments, every reader error
 * with its exact "origin:line: message", overrides, suggestions, files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/ini.h"

static struct ini_doc doc;
static char err[512];

static int parse(const char *text)
{
	err[0] = '\0';
	return ini_parse(&doc, text, "t.ini", err, sizeof(err));
}

static int teardown(void **state)
{
	(void)state;
	ini_free(&doc);
	return 0;
}

static void parse_fails(const char *text, const char *msg)
{
	assert_int_equal(parse(text), -EINVAL);
	assert_string_equal(err, msg);
	ini_free(&doc);
}

static void test_sections_and_keys(void **state)
{
	const struct ini_section *s;

	(void)state;
	assert_int_equal(parse("# a scenario\n"
	                       "\n"
	                       "[host]\n"
	                       "  cpus = 2  \n"
	                       "rxpath=napi\n"
	                       "[nic eth0]\n"
	                       "rx-usecs = 8 # comment after a blank\n"
	                       "rx-frames = 4\t; semicolon comment\n"
	                       "; a whole-line comment\n"
	                       "   # an indented comment\n"
	                       "[traffic flood]\n"
	                       "rate = 1.2Mpps\n"),
	                 0);
	assert_int_equal(doc.n_sec, 3);
	s = ini_find_section(&doc, "host", "");
	assert_non_null(s);
	assert_int_equal(s->line, 3);
	assert_string_equal(ini_find(s, "cpus")->value, "2");
	assert_int_equal(ini_find(s, "cpus")->line, 4);
	assert_string_equal(ini_find(s, "rxpath")->value, "napi");
	s = ini_find_section(&doc, "nic", "eth0");
	assert_non_null(s);
	assert_string_equal(ini_find(s, "rx-usecs")->value, "8");
	assert_string_equal(ini_find(s, "rx-frames")->value, "4");
	assert_null(ini_find(s, "rate"));
	assert_non_null(ini_find_section(&doc, "traffic", "flood"));
	assert_null(ini_find_section(&doc, "traffic", ""));
}

static void test_comment_needs_blank(void **state)
{
	const struct ini_section *s;

	(void)state;
	/* '#' and ';' inside a word are part of the value */
	assert_int_equal(parse("[profile]\r\n"
	                       "name = a#b;c\r\n"
	                       "description = \"PIII # 933 ; e1000\"   # quoted\r\n"),
	                 0);
	s = ini_find_section(&doc, "profile", "");
	assert_string_equal(ini_find(s, "name")->value, "a#b;c");
	assert_string_equal(ini_find(s, "description")->value, "PIII # 933 ; e1000");
}

static void test_empty_text(void **state)
{
	(void)state;
	assert_int_equal(parse(""), 0);
	assert_int_equal(doc.n_sec, 0);
	ini_free(&doc);
	assert_int_equal(parse("# only\n\n; comments\n"), 0);
	assert_int_equal(doc.n_sec, 0);
}

static void test_errors(void **state)
{
	(void)state;
	parse_fails("[host]\ncpus 2\n",
	            "t.ini:2: expected 'key = value' or '[section]', found 'cpus 2'");
	parse_fails("[host]\ncpus # = 2\n",
	            "t.ini:2: expected 'key = value' or '[section]', found 'cpus'");
	parse_fails("[host]\n= 2\n",
	            "t.ini:2: missing key before '='; expected 'key = value' or '[section]'");
	parse_fails("[host]\nrx usecs = 2\n",
	            "t.ini:2: 'rx usecs' is not a key; expected 'key = value' or '[section]'");
	parse_fails("[host]\ncpus =\n", "t.ini:2: missing value for 'cpus'; write 'cpus = VALUE'");
	parse_fails("[host]\ncpus = # none\n",
	            "t.ini:2: missing value for 'cpus'; write 'cpus = VALUE'");
	parse_fails("cpus = 2\n", "t.ini:1: 'cpus = 2' comes before the first [section]");
	parse_fails("\n[nic eth0\n",
	            "t.ini:2: unterminated section header; expected '[section]' or "
	            "'[section NAME]'");
	parse_fails("[]\n", "t.ini:1: empty section header; expected '[section]' or "
	                    "'[section NAME]'");
	parse_fails("[nic eth 0]\n", "t.ini:1: too many words in section header; expected "
	                             "'[section]' or '[section NAME]'");
	parse_fails("[nic eth0] x\n", "t.ini:1: unexpected text after ']'");
	parse_fails("[profile]\nname = \"abc\n", "t.ini:2: unterminated quoted value");
	parse_fails("[profile]\nname = \"abc\" d\n",
	            "t.ini:2: unexpected text after the closing quote");
}

static void test_duplicates(void **state)
{
	(void)state;
	parse_fails("[nic eth0]\n"
	            "rx-ring = 512\n"
	            "\n"
	            "\n"
	            "\n"
	            "\n"
	            "rx-usecs = 8\n"
	            "rx-usecs = 16\n",
	            "t.ini:8: duplicate key 'rx-usecs' (first set on line 7)");
	parse_fails("[nic eth0]\n[nic eth1]\n[nic eth0]\n",
	            "t.ini:3: duplicate section [nic eth0] (first on line 1)");
	parse_fails("[host]\ncpus = 1\n[host]\n", "t.ini:3: duplicate section [host] (first on line 1)");
	/* the same key in two sections is fine */
	assert_int_equal(parse("[nic eth0]\nrx-usecs = 8\n[nic eth1]\nrx-usecs = 8\n"), 0);
}

static void test_overrides(void **state)
{
	struct ini_section *s;
	struct ini_entry *e;
	char where[128], label[64];
	static const char set[] = "nic.eth0.rx-usecs=16";

	(void)state;
	assert_int_equal(parse("[nic eth0]\nrx-usecs = 8\n"), 0);
	s = ini_find_section(&doc, "nic", "eth0");
	e = ini_set(s, "rx-usecs", "16", 0, set);
	assert_non_null(e);
	assert_int_equal(s->n_ent, 1); /* replaced, not added */
	assert_string_equal(e->value, "16");
	assert_string_equal(ini_where(&doc, e->line, e->src, where, sizeof(where)),
	                    "--set nic.eth0.rx-usecs=16");
	assert_string_equal(ini_where(&doc, 7, NULL, where, sizeof(where)), "t.ini:7");
	assert_string_equal(ini_where(&doc, 0, NULL, where, sizeof(where)), "t.ini");
	s = ini_section_add(&doc, "traffic", "", 0, "traffic.rate=1Mpps");
	assert_non_null(s);
	assert_ptr_equal(ini_find_section(&doc, "traffic", ""), s);
	assert_string_equal(ini_section_label(s, label, sizeof(label)), "[traffic]");
	assert_string_equal(ini_section_label(doc.sec[0], label, sizeof(label)), "[nic eth0]");
}

static void test_suggest(void **state)
{
	static const char *const keys[] = { "rx-usecs", "rx-frames", "tx-usecs", "rate", NULL };

	(void)state;
	assert_int_equal(ini_edit_distance("rx-usec", "rx-usecs"), 1);
	assert_int_equal(ini_edit_distance("kitten", "sitting"), 3);
	assert_int_equal(ini_edit_distance("", "abc"), 3);
	assert_int_equal(ini_edit_distance("same", "same"), 0);
	assert_int_equal(ini_edit_distance("NAPI", "napi"), 0); /* case is ignored */
	assert_string_equal(ini_suggest("rx-usec", keys), "rx-usecs");
	assert_string_equal(ini_suggest("rx-fraems", keys), "rx-frames");
	assert_string_equal(ini_suggest("rat", keys), "rate");
	assert_null(ini_suggest("speed", keys));
	assert_null(ini_suggest("x", keys)); /* distance must be below the length */
}

static void test_read_file(void **state)
{
	char path[] = "/tmp/rxlab-test-ini-XXXXXX";
	char *text = NULL, msg[512];
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	/* empty */
	assert_int_equal(ini_read_file(path, &text, err, sizeof(err)), -ENODATA);
	snprintf(msg, sizeof(msg), "%s: file is empty", path);
	assert_string_equal(err, msg);
	assert_null(text);
	/* contents */
	{
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fputs("[host]\ncpus = 2\n", f);
		fclose(f);
	}
	assert_int_equal(ini_read_file(path, &text, err, sizeof(err)), 0);
	assert_string_equal(text, "[host]\ncpus = 2\n");
	free(text);
	/* binary */
	{
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fwrite("[host]\0x", 1, 8, f);
		fclose(f);
	}
	assert_int_equal(ini_read_file(path, &text, err, sizeof(err)), -EILSEQ);
	snprintf(msg, sizeof(msg), "%s: contains a NUL byte (not a text file?)", path);
	assert_string_equal(err, msg);
	unlink(path);
	/* gone */
	assert_int_equal(ini_read_file(path, &text, err, sizeof(err)), -ENOENT);
	snprintf(msg, sizeof(msg), "%s: cannot read: No such file or directory", path);
	assert_string_equal(err, msg);
	/* a directory */
	assert_int_equal(ini_read_file("/tmp", &text, err, sizeof(err)), -EISDIR);
	assert_string_equal(err, "/tmp: is a directory, not a file");
}

/* A BOM is skipped, CRLF is a line end, a lone CR is named. */
static void test_bom_and_line_ends(void **state)
{
	(void)state;
	assert_int_equal(parse("\xef\xbb\xbf[nic eth0]\r\nspeed = 1Gbit\r\n"), 0);
	assert_non_null(ini_find_section(&doc, "nic", "eth0"));
	assert_string_equal(ini_find(ini_find_section(&doc, "nic", "eth0"), "speed")->value,
			    "1Gbit");
	ini_free(&doc);
	parse_fails("[nic eth0]\rspeed = 1Gbit\r", "t.ini:1: CR-only line ends (a carriage return "
		    "without a line feed); save the file with LF or CRLF line ends");
}

/* A FIFO without a writer and a device are refused before any read. */
static void test_read_file_types(void **state)
{
	char dir[] = "/tmp/rxlab-ini-XXXXXX", path[64], msg[256], *text = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f.ini", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(ini_read_file(path, &text, err, sizeof(err)), -ENOTSUP);
	snprintf(msg, sizeof(msg), "%s: is a FIFO, not a regular file; scenarios and profiles must "
		 "be regular files", path);
	assert_string_equal(err, msg);
	unlink(path);
	rmdir(dir);
	assert_int_equal(ini_read_file("/dev/zero", &text, err, sizeof(err)), -ENOTSUP);
	assert_null(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_sections_and_keys, teardown),
		cmocka_unit_test_teardown(test_comment_needs_blank, teardown),
		cmocka_unit_test_teardown(test_empty_text, teardown),
		cmocka_unit_test_teardown(test_errors, teardown),
		cmocka_unit_test_teardown(test_duplicates, teardown),
		cmocka_unit_test_teardown(test_overrides, teardown),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_read_file),
		cmocka_unit_test_teardown(test_bom_and_line_ends, teardown),
		cmocka_unit_test(test_read_file_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
