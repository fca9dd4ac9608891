/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The grammar of /proc/PID/attr/unveil/rules, refusals and learned and of
 * the log line, as Documentation/userspace-api/unveil.rst gives it, as a
 * strict parser that the tests hold the kernel's text to:
 *
 *   record  = "op=" NAME " needed=" LETTERS " held=" LETTERS
 *             " errno=" NUMBER " pid=" NUMBER " comm=" QUOTED " path=" QUOTED
 *   rule    = "rule " LETTERS " " QUOTED
 *   LETTERS = "-" | one or more of "rwxc", in that order
 *   QUOTED  = '"' { byte 0x20-0x7e but '"' and '\' | "\x" 2 lowercase hex
 *             digits, for any other byte } '"' [ "..." ]
 *
 * "..." after a string's closing quote: the string was cut to fit.
 */

#ifndef _SELFTESTS_UNVEIL_RECORDS_H
#define _SELFTESTS_UNVEIL_RECORDS_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct parsed_record {
	char op[32], needed[8], held[8];
	int err, pid;
	char comm[64], path[PATH_MAX];
	bool path_cut;
};

/* Whether a byte is written as \xHH. */
static inline bool escaped_byte(unsigned char c)
{
	return c < ' ' || c >= 0x7f || c == '"' || c == '\\';
}

static inline int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Decodes the QUOTED at @s into @out (@size bytes, NUL-terminated).
 * Returns what follows it, past the "..." of a cut one (which sets *@cut),
 * or NULL if @s does not follow the grammar: a byte written as it is that
 * should be escaped, or escaped that should not be, is an error too.
 */
static inline const char *parse_quoted(const char *s, char *out, size_t size,
				       bool *cut)
{
	size_t n = 0;

	if (*s++ != '"')
		return NULL;
	for (; *s != '"'; s++) {
		unsigned char c = *s;

		if (n + 1 >= size || (escaped_byte(c) && c != '\\'))
			return NULL;
		if (c == '\\') {
			if (s[1] != 'x' || hex_digit(s[2]) < 0 ||
			    hex_digit(s[3]) < 0)
				return NULL;
			c = hex_digit(s[2]) << 4 | hex_digit(s[3]);
			if (!escaped_byte(c))
				return NULL;
			s += 3;
		}
		out[n++] = c;
	}
	out[n] = '\0';
	s++;
	*cut = !strncmp(s, "...", 3);
	return *cut ? s + 3 : s;
}

/* Whether @s is LETTERS. */
static inline bool valid_letters(const char *s)
{
	const char *order = "rwxc";

	if (!strcmp(s, "-"))
		return true;
	if (!*s)
		return false;
	for (; *s; s++) {
		order = strchr(order, *s);
		if (!order++)
			return false;
	}
	return true;
}

/* Parses @line (with or without its newline) as a record. */
static inline bool parse_record(const char *line, struct parsed_record *r)
{
	bool comm_cut;
	int n = 0;

	if (sscanf(line, "op=%31[a-z0-9_] needed=%7[-rwxc] held=%7[-rwxc] errno=%d pid=%d comm=%n",
		   r->op, r->needed, r->held, &r->err, &r->pid, &n) != 5 ||
	    !n || !valid_letters(r->needed) || !valid_letters(r->held) ||
	    r->err <= 0 || r->pid < 0)
		return false;
	line = parse_quoted(line + n, r->comm, sizeof(r->comm), &comm_cut);
	if (!line || comm_cut || strncmp(line, " path=", 6))
		return false;
	line = parse_quoted(line + 6, r->path, sizeof(r->path), &r->path_cut);
	return line && (!*line || !strcmp(line, "\n"));
}

/*
 * Expects the parsed record @r to be the refusal of @op on the whole path
 * @path by process @pid (@comm), which needed @needed, held @held and got
 * @err.  Uses the EXPECT_ macros of kselftest_harness.h.
 */
#define EXPECT_RECORD(r, _op, _needed, _held, _err, _pid, _comm, _path) \
	do {								\
		const struct parsed_record *_r = (r);			\
									\
		EXPECT_STREQ(_op, _r->op);				\
		EXPECT_STREQ(_needed, _r->needed);			\
		EXPECT_STREQ(_held, _r->held);				\
		EXPECT_EQ(_err, _r->err);				\
		EXPECT_EQ(_pid, _r->pid);				\
		EXPECT_STREQ(_comm, _r->comm);				\
		EXPECT_STREQ(_path, _r->path);				\
		EXPECT_FALSE(_r->path_cut);				\
	} while (0)

/* Parses @line as a rule: its letters into @letters (8 bytes), its path. */
static inline bool parse_rule(const char *line, char *letters, char *path,
			      size_t size)
{
	bool cut;
	int n = 0;

	if (sscanf(line, "rule %7[-rwxc] %n", letters, &n) != 1 || !n ||
	    !valid_letters(letters))
		return false;
	line = parse_quoted(line + n, path, size, &cut);
	return line && !cut && (!*line || !strcmp(line, "\n"));
}

#endif /* _SELFTESTS_UNVEIL_RECORDS_H */
