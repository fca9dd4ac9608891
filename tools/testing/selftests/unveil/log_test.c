// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - every refusal is reported: a rate-limited kernel log
 * line that an administrator can turn off, and an audit record while audit
 * is enabled.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "audit.h"
#include "common.h"
#include "records.h"

#define TMP_DIR "/tmp/unveil_log_test"
#define LOG_SWITCH "/sys/module/unveil/parameters/log_refusals"
/* The kernel's DEFAULT_RATELIMIT_INTERVAL and _BURST. */
#define RATELIMIT_US 5000000
#define RATELIMIT_BURST 10
/* A whole period, with a margin for the clock of a guest on a busy host. */
#define PERIOD_US (RATELIMIT_US + 500000)
/* Where the log cuts a path; five of LONG_NAME make a longer one. */
#define LOG_PATH_MAX 768
#define LONG_NAME \
	"0123456789012345678901234567890123456789012345678901234567890123456789" \
	"0123456789012345678901234567890123456789012345678901234567890123456789" \
	"0123456789012345678901234567890123456789012345678901234567890123456789"

/* Undoes the \xHH escapes of /dev/kmsg in place. */
static void kmsg_unescape(char *text)
{
	char *out = text;
	unsigned int byte;

	while (*text) {
		if (text[0] == '\\' && text[1] == 'x' &&
		    sscanf(text + 2, "%2x", &byte) == 1) {
			*out++ = byte;
			text += 4;
		} else {
			*out++ = *text++;
		}
	}
	*out = '\0';
}

/*
 * Reads the next kernel log record written since @fd was opened or last
 * read, and copies its text to @text; returns false if there is none.
 */
static bool kmsg_next(int fd, char *text, size_t size)
{
	char record[8192];
	ssize_t len;

	while ((len = read(fd, record, sizeof(record) - 1)) > 0 ||
	       (len < 0 && errno == EPIPE)) {
		char *start, *end;

		if (len < 0)
			continue;
		record[len] = '\0';
		start = strchr(record, ';');
		if (!start)
			continue;
		start++;
		end = strchr(start, '\n');
		if (end)
			*end = '\0';
		kmsg_unescape(start);
		snprintf(text, size, "%s", start);
		return true;
	}
	return false;
}

/* Whether the record @text starts with @prefix and is about process @pid. */
static bool record_of(const char *text, const char *prefix, pid_t pid)
{
	char pid_field[32];

	snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
	return !strncmp(text, prefix, strlen(prefix)) && strstr(text, pid_field);
}

/*
 * Reads the kernel log records written since @fd was opened or last read,
 * and returns how many of them have @prefix as their text and are about
 * process @pid (other processes of the system may be refused meanwhile); the
 * last one is copied to @last (if not NULL).
 */
static int kmsg_count(int fd, const char *prefix, pid_t pid, char *last,
		      size_t size)
{
	char text[4096];
	int count = 0;

	while (kmsg_next(fd, text, sizeof(text))) {
		if (!record_of(text, prefix, pid))
			continue;
		count++;
		if (last)
			snprintf(last, size, "%s", text);
	}
	return count;
}

static int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

static void set_log_switch(const char *value)
{
	write_file(LOG_SWITCH, value);
}

/*
 * Runs @refusal @times in a child veiled with @path (@perms) and returns the
 * child's pid once it exited, or -1 if a refusal did not fail with @err.
 */
static pid_t deny_in_child(const char *path, const char *perms,
			   int (*refusal)(void), int times, int err)
{
	int status;
	pid_t child = fork();

	if (child == 0) {
		if (sys_unveil(path, perms))
			_exit(2);
		for (int i = 0; i < times; i++)
			if (refusal() != err)
				_exit(3);
		_exit(0);
	}
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return child;
}

/*
 * Runs @call in a child that learns under @path (@perms) and returns the
 * child's pid once it exited, or -1 if @call failed.
 */
static pid_t learn_in_child(const char *path, const char *perms,
			    int (*call)(void))
{
	int status;
	pid_t child = fork();

	if (child == 0)
		_exit(write_learn(0, "1") || sys_unveil(path, perms) || call());
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return child;
}

static int open_hidden(void)
{
	return open_errno(TMP_DIR "/hidden/file", O_RDONLY);
}

static int open_read_write(void)
{
	return open_errno(TMP_DIR "/visible/file", O_RDWR);
}

static int create_file(void)
{
	return open_errno(TMP_DIR "/visible/new", O_WRONLY | O_CREAT);
}

static int make_dir(void)
{
	return errno_of(mkdir(TMP_DIR "/visible/new", 0755));
}

static int mount_tmpfs(void)
{
	return errno_of(mount("none", TMP_DIR "/visible", "tmpfs", 0, NULL));
}

static int open_hidden_named_with_escape(void)
{
	prctl(PR_SET_NAME, "e\x1b[2Jx");
	return open_hidden();
}

static int open_long_hidden_path(void)
{
	return open_errno(TMP_DIR "/hidden/" LONG_NAME "/" LONG_NAME "/"
			  LONG_NAME "/" LONG_NAME "/" LONG_NAME, O_RDONLY);
}

static int rename_into_writable(void)
{
	return errno_of(rename(TMP_DIR "/visible/file",
			       TMP_DIR "/writable/file"));
}

static int open_quoted_name(void)
{
	return open_errno(TMP_DIR "/visible/a\"b\nc", O_WRONLY);
}

/*
 * Waits for a whole rate-limit period in which no unveil record was logged,
 * so that the next refusal starts a period of its own: the limit is shared
 * with every other process of the system (earlier tests included).
 */
static void wait_for_quiet_period(struct __test_metadata *const _metadata,
				  int kmsg)
{
	char text[4096];
	bool quiet;

	for (int tries = 0; tries < 3; tries++) {
		usleep(PERIOD_US);
		quiet = true;
		while (kmsg_next(kmsg, text, sizeof(text))) {
			if (strncmp(text, "unveil: ", strlen("unveil: ")))
				continue;
			TH_LOG("while waiting: %s", text);
			quiet = false;
		}
		if (quiet)
			return;
	}
	ASSERT_TRUE(quiet) {
		TH_LOG("other processes are refused in every period");
	}
}

FIXTURE(refusal_log) {
	int kmsg;
	char line[4096], expected[4200];
};

FIXTURE_SETUP(refusal_log)
{
	set_log_switch("Y");
	self->kmsg = kmsg_open_at_end();
	ASSERT_LE(0, self->kmsg);
	wait_for_quiet_period(_metadata, self->kmsg);
	ASSERT_EQ(0, mkdir(TMP_DIR, 0755));
	ASSERT_EQ(0, mkdir(TMP_DIR "/hidden", 0755));
	ASSERT_EQ(0, mkdir(TMP_DIR "/visible", 0755));
	ASSERT_EQ(0, mkdir(TMP_DIR "/writable", 0755));
	write_file(TMP_DIR "/hidden/file", "x");
	write_file(TMP_DIR "/visible/file", "x");
	write_file(TMP_DIR "/visible/a\"b\nc", "x");
	ASSERT_EQ(0, system("mkdir -p " TMP_DIR "/hidden/" LONG_NAME "/" LONG_NAME
			    "/" LONG_NAME "/" LONG_NAME));
	write_file(TMP_DIR "/hidden/" LONG_NAME "/" LONG_NAME "/" LONG_NAME "/"
		   LONG_NAME "/" LONG_NAME, "x");
}

/* In the parent, which has no veil. */
FIXTURE_TEARDOWN_PARENT(refusal_log)
{
	set_log_switch("Y");
	EXPECT_EQ(0, remove_tree(TMP_DIR));
}

/*
 * Expects one refusal line in the kernel log since @kmsg was last read:
 * @child's, with @fields (a format for the pid).
 */
static void expect_refusal_line(struct __test_metadata *const _metadata,
				int kmsg, pid_t child, const char *fields)
{
	char line[4096], text[4096], expected[4200];

	ASSERT_LT(0, child);
	EXPECT_EQ(1, kmsg_count(kmsg, "unveil: refused", child, line,
				sizeof(line)));
	snprintf(text, sizeof(text), fields, child);
	snprintf(expected, sizeof(expected), "unveil: refused %s", text);
	EXPECT_STREQ(expected, line);
}

/* The fields of a line of this program, up to the path, then with it. */
#define FIELDS_START(op_letters_errno) \
	op_letters_errno " pid=%d comm=\"log_test\" path=\""
#define FIELDS(op_letters_errno, path) \
	FIELDS_START(op_letters_errno) path "\""

TEST_F(refusal_log, hidden_file_logs_open_with_nothing_held)
{
	const pid_t child = deny_in_child(TMP_DIR "/visible", "r", open_hidden,
					  1, ENOENT);

	expect_refusal_line(_metadata, self->kmsg, child,
			    FIELDS("op=open needed=r held=- errno=2",
				   TMP_DIR "/hidden/file"));
}

TEST_F(refusal_log, missing_letter_logs_needed_and_held)
{
	const pid_t child = deny_in_child(TMP_DIR "/visible", "r",
					  open_read_write, 1, EACCES);

	expect_refusal_line(_metadata, self->kmsg, child,
			    FIELDS("op=open needed=rw held=r errno=13",
				   TMP_DIR "/visible/file"));
}

TEST_F(refusal_log, creation_logs_the_new_name)
{
	const pid_t child = deny_in_child(TMP_DIR "/visible", "rw", make_dir,
					  1, EACCES);

	expect_refusal_line(_metadata, self->kmsg, child,
			    FIELDS("op=mkdir needed=c held=rw errno=13",
				   TMP_DIR "/visible/new"));
}

TEST_F(refusal_log, open_creating_a_file_logs_create_and_its_name)
{
	const pid_t child = deny_in_child(TMP_DIR "/visible", "rw",
					  create_file, 1, EACCES);

	expect_refusal_line(_metadata, self->kmsg, child,
			    FIELDS("op=create needed=c held=rw errno=13",
				   TMP_DIR "/visible/new"));
}

TEST_F(refusal_log, learning_veil_logs_learned_and_allows)
{
	char text[4096];
	const pid_t child = learn_in_child(TMP_DIR "/visible", "r",
					   open_hidden);

	/* The child saw the hidden file: open_hidden() returned 0. */
	ASSERT_LT(0, child);
	EXPECT_EQ(1, kmsg_count(self->kmsg, "unveil: learned", child,
				self->line, sizeof(self->line)));
	snprintf(text, sizeof(text),
		 FIELDS("op=open needed=r held=- errno=2", TMP_DIR "/hidden/file"),
		 child);
	snprintf(self->expected, sizeof(self->expected), "unveil: learned %s",
		 text);
	EXPECT_STREQ(self->expected, self->line);
}

TEST_F(refusal_log, mount_logs_eperm)
{
	const pid_t child = deny_in_child(TMP_DIR "/visible", "rwc",
					  mount_tmpfs, 1, EPERM);

	expect_refusal_line(_metadata, self->kmsg, child,
			    FIELDS("op=mount needed=- held=- errno=1",
				   TMP_DIR "/visible"));
}

TEST_F(refusal_log, quote_and_newline_in_name_are_escaped)
{
	const pid_t child = deny_in_child(TMP_DIR "/visible", "r",
					  open_quoted_name, 1, EACCES);

	expect_refusal_line(_metadata, self->kmsg, child,
			    FIELDS("op=open needed=w held=r errno=13",
				   TMP_DIR "/visible/a\\x22b\\x0ac"));
}

TEST_F(refusal_log, control_characters_in_comm_are_escaped)
{
	const pid_t child = deny_in_child(TMP_DIR "/visible", "r",
					  open_hidden_named_with_escape, 1,
					  ENOENT);

	expect_refusal_line(_metadata, self->kmsg, child,
			    "op=open needed=r held=- errno=2 pid=%d comm=\"e\\x1b[2Jx\" path=\""
			    TMP_DIR "/hidden/file\"");
}

TEST_F(refusal_log, long_path_is_cut_to_768_bytes)
{
	const pid_t child = deny_in_child(TMP_DIR "/visible", "r",
					  open_long_hidden_path, 1, ENOENT);
	const char *path;

	ASSERT_LT(0, child);
	EXPECT_EQ(1, kmsg_count(self->kmsg, "unveil: refused", child,
				self->line, sizeof(self->line)));
	snprintf(self->expected, sizeof(self->expected),
		 "unveil: refused " FIELDS_START("op=open needed=r held=- errno=2")
		 TMP_DIR "/hidden/" LONG_NAME "/", child);
	EXPECT_EQ(0, strncmp(self->expected, self->line,
			     strlen(self->expected)));
	/*
	 * The path is cut, and the line is whole: its closing quote, then
	 * "..." for the rest.
	 */
	path = strstr(self->line, " path=\"");
	ASSERT_NE(NULL, path);
	path += strlen(" path=\"");
	EXPECT_EQ(LOG_PATH_MAX + 4, strlen(path));
	EXPECT_STREQ("\"...", path + LOG_PATH_MAX);
}

/* The log line, read with the grammar of unveil(2), and a cut path. */
TEST_F(refusal_log, line_follows_the_documented_grammar)
{
	const char *const prefix = "unveil: refused ";
	struct parsed_record record;
	pid_t child;

	child = deny_in_child(TMP_DIR "/visible", "r", open_quoted_name, 1,
			      EACCES);
	ASSERT_LT(0, child);
	ASSERT_EQ(1, kmsg_count(self->kmsg, "unveil: refused", child,
				self->line, sizeof(self->line)));
	ASSERT_EQ(0, strncmp(prefix, self->line, strlen(prefix)));
	ASSERT_TRUE(parse_record(self->line + strlen(prefix), &record));
	EXPECT_RECORD(&record, "open", "w", "r", EACCES, child, "log_test",
		      TMP_DIR "/visible/a\"b\nc");

	wait_for_quiet_period(_metadata, self->kmsg);
	child = deny_in_child(TMP_DIR "/visible", "r", open_long_hidden_path,
			      1, ENOENT);
	ASSERT_LT(0, child);
	ASSERT_EQ(1, kmsg_count(self->kmsg, "unveil: refused", child,
				self->line, sizeof(self->line)));
	ASSERT_TRUE(parse_record(self->line + strlen(prefix), &record));
	EXPECT_EQ(LOG_PATH_MAX, strlen(record.path));
	EXPECT_TRUE(record.path_cut);
}

TEST_F(refusal_log, widening_rename_logs_what_the_new_name_grants)
{
	pid_t child = fork();
	int status;

	ASSERT_LE(0, child);
	if (child == 0) {
		if (sys_unveil(TMP_DIR "/visible", "rc") ||
		    sys_unveil(TMP_DIR "/writable", "rwc"))
			_exit(2);
		_exit(rename_into_writable() == EXDEV ? 0 : 3);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, status);
	expect_refusal_line(_metadata, self->kmsg, child,
			    FIELDS("op=rename needed=rwc held=rc errno=18",
				   TMP_DIR "/visible/file"));
}

/*
 * What refusals of one child left in the kernel log: its refusal lines, the
 * number of a "callbacks suppressed" line (-1 if none), and whether another
 * process's unveil record came in between.
 */
struct log_tally {
	int refused;
	int suppressed;
	bool others;
};

static void deny_and_tally(struct __test_metadata *const _metadata, int kmsg,
			   int times, struct log_tally *tally)
{
	const pid_t child = deny_in_child(TMP_DIR "/visible", "r", open_hidden,
					  times, ENOENT);
	char text[4096], last;

	ASSERT_LT(0, child);
	*tally = (struct log_tally){ .suppressed = -1 };
	while (kmsg_next(kmsg, text, sizeof(text))) {
		if (sscanf(text, "unveil: %d callbacks suppresse%c",
			   &tally->suppressed, &last) == 2)
			continue;
		if (record_of(text, "unveil: refused ", child)) {
			tally->refused++;
		} else if (!strncmp(text, "unveil: ", strlen("unveil: "))) {
			TH_LOG("another process: %s", text);
			tally->others = true;
		}
	}
}

/* Up to three measurements, each after a quiet period of up to 15 s. */
TEST_F_TIMEOUT(refusal_log, rate_limit_keeps_burst_then_counts_the_rest, 90)
{
	struct log_tally burst, next;

	/*
	 * Measures again if another process took from the shared limit: its
	 * line shows, or its refusal was suppressed and counted with ours.
	 */
	for (int tries = 0;; tries++) {
		ASSERT_GT(3, tries) {
			TH_LOG("other processes are refused in every period");
		}
		if (tries)
			wait_for_quiet_period(_metadata, self->kmsg);
		deny_and_tally(_metadata, self->kmsg, 50, &burst);
		/* The first refusal of the next period tells how many were not. */
		usleep(PERIOD_US);
		deny_and_tally(_metadata, self->kmsg, 1, &next);
		if (!burst.others && !next.others &&
		    next.suppressed <= 50 - RATELIMIT_BURST)
			break;
		TH_LOG("other refusals in the period (%d suppressed), again",
		       next.suppressed);
	}
	EXPECT_EQ(RATELIMIT_BURST, burst.refused);
	EXPECT_EQ(-1, burst.suppressed);
	EXPECT_EQ(1, next.refused);
	EXPECT_EQ(50 - RATELIMIT_BURST, next.suppressed);
}

TEST_F(refusal_log, switch_off_stops_lines)
{
	char value[8] = "";
	pid_t child;
	int fd;

	set_log_switch("N");
	fd = open(LOG_SWITCH, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(2, read(fd, value, sizeof(value) - 1));
	close(fd);
	EXPECT_STREQ("N\n", value);

	child = deny_in_child(TMP_DIR "/visible", "r", open_hidden, 1, ENOENT);
	ASSERT_LT(0, child);
	EXPECT_EQ(0, kmsg_count(self->kmsg, "unveil: refused", child, NULL, 0));

	set_log_switch("Y");
	child = deny_in_child(TMP_DIR "/visible", "r", open_hidden, 1, ENOENT);
	ASSERT_LT(0, child);
	EXPECT_EQ(1, kmsg_count(self->kmsg, "unveil: refused", child, NULL, 0));
}

/*
 * Audit: this test becomes the audit daemon while it runs, and only the
 * daemon can unregister itself: the teardown runs in the test's process.
 */

FIXTURE(audit) {
	int fd;
	char record[8192], expected[4096];
};

FIXTURE_SETUP(audit)
{
	int err;

	self->fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
	if (self->fd < 0 && errno == EPROTONOSUPPORT)
		SKIP(return, "no CONFIG_AUDIT");
	ASSERT_LE(0, self->fd);
	/* Become the audit daemon, unless one runs or audit is locked. */
	err = audit_set(self->fd, AUDIT_STATUS_PID, 0, getpid());
	if (err == EEXIST || err == EPERM)
		SKIP(return, "cannot be the audit daemon: %s", strerror(err));
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, mkdir(TMP_DIR, 0755));
	/* Its own tmpfs, for a known dev= field. */
	ASSERT_EQ(0, mount("none", TMP_DIR, "tmpfs", 0, NULL));
	ASSERT_EQ(0, mkdir(TMP_DIR "/visible", 0755));
	write_file(TMP_DIR "/visible/file", "x");
}

FIXTURE_TEARDOWN(audit)
{
	audit_set(self->fd, AUDIT_STATUS_ENABLED | AUDIT_STATUS_PID, 0, 0);
	close(self->fd);
	EXPECT_EQ(0, umount(TMP_DIR));
	EXPECT_EQ(0, rmdir(TMP_DIR));
}

TEST_F(audit, refusal_gives_avc_record)
{
	struct stat st;
	pid_t child;

	ASSERT_EQ(0, stat(TMP_DIR "/visible/file", &st));
	ASSERT_EQ(0, audit_set(self->fd, AUDIT_STATUS_ENABLED, 1, 0));
	child = deny_in_child(TMP_DIR "/visible", "r", open_read_write, 1,
			      EACCES);
	ASSERT_LT(0, child);
	snprintf(self->expected, sizeof(self->expected),
		 "lsm=unveil op=open pid=%d comm=\"log_test\" path=\"%s\" dev=\"tmpfs\" ino=%lu needed=rw held=r errno=13",
		 child, TMP_DIR "/visible/file", (unsigned long)st.st_ino);
	ASSERT_TRUE(audit_find(self->fd, "lsm=unveil", self->record,
			       sizeof(self->record)));
	/* After the "audit(time:serial): " stamp. */
	ASSERT_NE(NULL, strstr(self->record, "): "));
	EXPECT_STREQ(self->expected, strstr(self->record, "): ") + 3);
}

TEST_F(audit, learning_veil_gives_record_with_learning_1)
{
	struct stat st;
	pid_t child;

	ASSERT_EQ(0, stat(TMP_DIR "/visible/file", &st));
	ASSERT_EQ(0, audit_set(self->fd, AUDIT_STATUS_ENABLED, 1, 0));
	child = learn_in_child(TMP_DIR "/visible", "r", open_read_write);
	ASSERT_LT(0, child);
	snprintf(self->expected, sizeof(self->expected),
		 "lsm=unveil op=open pid=%d comm=\"log_test\" path=\"%s\" dev=\"tmpfs\" ino=%lu needed=rw held=r errno=13 learning=1",
		 child, TMP_DIR "/visible/file", (unsigned long)st.st_ino);
	ASSERT_TRUE(audit_find(self->fd, "lsm=unveil", self->record,
			       sizeof(self->record)));
	ASSERT_NE(NULL, strstr(self->record, "): "));
	EXPECT_STREQ(self->expected, strstr(self->record, "): ") + 3);
}

TEST_F(audit, no_record_while_audit_is_disabled)
{
	ASSERT_EQ(0, audit_set(self->fd, AUDIT_STATUS_ENABLED, 0, 0));
	ASSERT_LT(0, deny_in_child(TMP_DIR "/visible", "r", open_read_write,
				   1, EACCES));
	EXPECT_FALSE(audit_find(self->fd, "lsm=unveil", self->record,
				sizeof(self->record)));
}

TEST_HARNESS_MAIN
