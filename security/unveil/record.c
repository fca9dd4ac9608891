// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - The text of reports and of /proc/PID/attr/unveil/
 *
 * A refused call is written the same way in the kernel log line (after
 * "refused " or "learned "), in /proc/PID/attr/unveil/refusals and in
 * /proc/PID/attr/unveil/learned, by unveil_write_record():
 *
 *   op=open needed=r held=- errno=2 pid=71 comm="cat" path="/etc/passwd"
 *
 * and a rule in /proc/PID/attr/unveil/rules by unveil_seq_rule():
 *
 *   rule rwc "/tmp"
 *
 * A quoted string holds its bytes as they are but for those that could end
 * a line early, fake a field or reach a terminal (controls, the quote, the
 * backslash, DEL and above), which are written \xHH.  One cut to fit is
 * followed by "..." after its closing quote.  The grammar of each file is
 * in Documentation/userspace-api/unveil.rst.  (The audit record has the
 * same fields, with the path encoded as audit encodes every string.)
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/pid.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "record.h"

static bool must_escape(const unsigned char c)
{
	return c < ' ' || c >= 0x7f || c == '"' || c == '\\';
}

/*
 * Writes the @len bytes of @text escaped, as long as they fit in @room
 * bytes of output, which it counts down.  Returns false if it had to stop.
 */
static bool write_escaped(struct seq_buf *const s, const char *const text,
			  const size_t len, size_t *const room)
{
	size_t i;

	for (i = 0; i < len; i++) {
		const unsigned char c = text[i];
		const size_t width = must_escape(c) ? 4 : 1;

		if (width > *room)
			return false;
		*room -= width;
		if (width == 1)
			seq_buf_putc(s, c);
		else
			seq_buf_printf(s, "\\x%02x", c);
	}
	return true;
}

/*
 * Writes @text quoted, cut to @max bytes between the quotes, and "..." if
 * it was cut here or before (@cut).
 */
static void write_quoted(struct seq_buf *const s, const char *const text,
			 const size_t max, const bool cut)
{
	size_t room = max;
	bool whole;

	seq_buf_putc(s, '"');
	whole = write_escaped(s, text, strlen(text), &room);
	seq_buf_puts(s, whole && !cut ? "\"" : "\"...");
}

/**
 * unveil_write_record - Write a refused call as every report does
 * @s: Where to write, without a newline.
 * @record: The call.
 * @path_max: Bytes of the quoted path to write at most (SIZE_MAX: all).
 */
void unveil_write_record(struct seq_buf *const s,
			 const struct unveil_record *const record,
			 const size_t path_max)
{
	char needed[UNVEIL_ACCESS_LETTERS_SIZE], held[UNVEIL_ACCESS_LETTERS_SIZE];

	seq_buf_printf(s, "op=%s needed=%s held=%s errno=%d pid=%d comm=",
		       record->op, unveil_format_access(record->needed, needed),
		       unveil_format_access(record->held, held), -record->err,
		       record->pid);
	write_quoted(s, record->comm, SIZE_MAX, false);
	seq_buf_puts(s, " path=");
	write_quoted(s, record->path, path_max, record->path_cut);
}

/*
 * The rest of @m's buffer as @s, or false if it is full.  A line that does
 * not fit makes seq_read() show the file again with a larger buffer (see
 * seq_end()).
 */
static bool seq_begin(struct seq_file *const m, struct seq_buf *const s)
{
	char *buf;
	const size_t size = seq_get_buf(m, &buf);

	/* A seq_buf of no bytes warns at each write. */
	if (!size)
		return false;
	seq_buf_init(s, buf, size);
	return true;
}

static void seq_end(struct seq_file *const m, struct seq_buf *const s)
{
	seq_commit(m, seq_buf_has_overflowed(s) ? -1 : seq_buf_used(s));
}

/**
 * unveil_seq_record - Show a refused call in a /proc file, as a line
 * @m: The file being read.
 * @record: The call.
 */
void unveil_seq_record(struct seq_file *const m,
		       const struct unveil_record *const record)
{
	struct seq_buf s;

	if (!seq_begin(m, &s))
		return;
	unveil_write_record(&s, record, SIZE_MAX);
	seq_buf_putc(&s, '\n');
	seq_end(m, &s);
}

/**
 * unveil_record_current - Fill in a record's process: the current one
 * @record: The record.
 * @comm: Room for the command name, which @record points to.
 *
 * The name is read without the task lock, as lsm_audit.c does: a report may
 * come from under any lock, that one included.
 *
 * Context: Any task context.
 */
void unveil_record_current(struct unveil_record *const record,
			   char comm[TASK_COMM_LEN])
{
	memcpy(comm, current->comm, TASK_COMM_LEN);
	comm[TASK_COMM_LEN - 1] = '\0';
	record->pid = task_tgid_nr(current);
	record->comm = comm;
}

/**
 * unveil_keep - Keep a refused call of the current process
 * @kept: Where to keep it; its @pid, if any, was put before.
 * @record: The call.
 *
 * Context: Any task context: takes no lock.
 */
void unveil_keep(struct unveil_kept *const kept,
		 const struct unveil_record *const record)
{
	kept->op = record->op;
	kept->pid = get_pid(task_tgid(current));
	kept->err = record->err;
	kept->needed = record->needed;
	kept->held = record->held;
	strscpy(kept->comm, record->comm);
}

/**
 * unveil_seq_kept - Show a kept refused call in a /proc file, as a line
 * @m: The file being read.
 * @ns: PID namespace the reader sees PIDs in.
 * @kept: The call.
 * @path: Its path, as kept.
 * @path_cut: @path is only the start of the path.
 */
void unveil_seq_kept(struct seq_file *const m, struct pid_namespace *const ns,
		     const struct unveil_kept *const kept,
		     const char *const path, const bool path_cut)
{
	unveil_seq_record(m, &(struct unveil_record) {
		.op = kept->op,
		.needed = kept->needed,
		.held = kept->held,
		.err = kept->err,
		.pid = pid_nr_ns(kept->pid, ns),
		.comm = kept->comm,
		.path = path,
		.path_cut = path_cut,
	});
}

/**
 * unveil_seq_rule - Show a rule in /proc/PID/attr/unveil/rules, as a line
 * @m: The file being read.
 * @access: Permissions of the rule.
 * @dir: Path of its directory, as the process named it.
 * @name: Name of the file the rule is for, NULL for a rule on @dir.
 * @name_len: Bytes of @name.
 */
void unveil_seq_rule(struct seq_file *const m, const unveil_access_t access,
		     const char *const dir, const char *const name,
		     const size_t name_len)
{
	char letters[UNVEIL_ACCESS_LETTERS_SIZE];
	const size_t dir_len = strlen(dir);
	size_t room = SIZE_MAX;
	struct seq_buf s;

	if (!seq_begin(m, &s))
		return;
	seq_buf_printf(&s, "rule %s \"", unveil_format_access(access, letters));
	write_escaped(&s, dir, dir_len, &room);
	if (name) {
		if (!dir_len || dir[dir_len - 1] != '/')
			seq_buf_putc(&s, '/');
		write_escaped(&s, name, name_len, &room);
	}
	seq_buf_puts(&s, "\"\n");
	seq_end(m, &s);
}

#ifdef CONFIG_SECURITY_UNVEIL_KUNIT_TEST

/* unveil_write_record() of @record into @buf, as a string. */
static const char *written(char *const buf, const size_t size,
			   const struct unveil_record *const record,
			   const size_t path_max)
{
	struct seq_buf s;

	seq_buf_init(&s, buf, size);
	unveil_write_record(&s, record, path_max);
	return seq_buf_str(&s);
}

static void test_record_escapes_what_could_break_its_line(struct kunit *const test)
{
	const struct unveil_record record = {
		.op = "open",
		.needed = UNVEIL_ACCESS_READ,
		.err = -ENOENT,
		.pid = 7,
		.comm = "a\"b",
		.path = "/x y\n\\\xff\x7f~",
	};
	char buf[160];

	KUNIT_EXPECT_STREQ(test,
			   "op=open needed=r held=- errno=2 pid=7 comm=\"a\\x22b\" path=\"/x y\\x0a\\x5c\\xff\\x7f~\"",
			   written(buf, sizeof(buf), &record, SIZE_MAX));
}

static void test_record_cuts_a_path_before_a_byte_that_does_not_fit(struct kunit *const test)
{
	const struct unveil_record record = {
		.op = "stat",
		.held = UNVEIL_ACCESS_READ | UNVEIL_ACCESS_WRITE,
		.err = -EACCES,
		.comm = "c",
		.path = "/ab\ncd",
	};
	char buf[160];

	/* 5 bytes: "/ab" and no room for the 4 of \x0a. */
	KUNIT_EXPECT_STREQ(test,
			   "op=stat needed=- held=rw errno=13 pid=0 comm=\"c\" path=\"/ab\"...",
			   written(buf, sizeof(buf), &record, 5));
	KUNIT_EXPECT_STREQ(test,
			   "op=stat needed=- held=rw errno=13 pid=0 comm=\"c\" path=\"/ab\\x0acd\"",
			   written(buf, sizeof(buf), &record, 9));
}

static void test_record_of_a_path_cut_before_says_so(struct kunit *const test)
{
	const struct unveil_record record = {
		.op = "open",
		.err = -ENOENT,
		.comm = "c",
		.path = "/a",
		.path_cut = true,
	};
	char buf[160];

	KUNIT_EXPECT_STREQ(test,
			   "op=open needed=- held=- errno=2 pid=0 comm=\"c\" path=\"/a\"...",
			   written(buf, sizeof(buf), &record, SIZE_MAX));
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_record_escapes_what_could_break_its_line),
	KUNIT_CASE(test_record_cuts_a_path_before_a_byte_that_does_not_fit),
	KUNIT_CASE(test_record_of_a_path_cut_before_says_so),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "unveil_record",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_UNVEIL_KUNIT_TEST */
