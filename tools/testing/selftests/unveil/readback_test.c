// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - a veil read back from /proc/PID/attr/unveil/rules: its
 * rules (letters and paths), its lock, by the process itself and by whoever
 * may ptrace it, and by no one else.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "common.h"
#include "records.h"

#define TMP_DIR "/tmp/unveil_readback_test"
#define NOBODY 65534

/* Reads the rules of @pid (0: self) into @buf; returns 0 or the errno. */
static int read_rules(pid_t pid, char *buf, size_t size)
{
	return read_attr_fd(open_attr(pid, "rules"), buf, size);
}

/* Expects the rules of @pid (0: self) to read exactly @expected. */
#define EXPECT_RULES(pid, expected)					\
	do {								\
		char _rules[4096];					\
		ASSERT_EQ(0, read_rules(pid, _rules, sizeof(_rules)));	\
		EXPECT_STREQ(expected, _rules);				\
	} while (0)

/* A child that makes the rules @setup gives it, then waits to be killed. */
static pid_t spawn_veiled(void (*setup)(void))
{
	int ready[2];
	char c;
	pid_t child;

	if (pipe(ready))
		return -1;
	child = fork();
	if (child == 0) {
		close(ready[0]);
		setup();
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		child = -1;
	}
	close(ready[0]);
	return child;
}

static void reap(pid_t child)
{
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

static void unveil_tmp_read(void)
{
	sys_unveil(TMP_DIR, "r");
}

static void become_nobody(void)
{
	if (setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY))
		_exit(1);
	/* Changing uid made the process undumpable: undo that. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

static void nobody_unveils_tmp(void)
{
	become_nobody();
	unveil_tmp_read();
}

FIXTURE(readback) {
	char expected[4096];
};

FIXTURE_SETUP(readback)
{
	ASSERT_EQ(0, mkdir(TMP_DIR, 0755));
	ASSERT_EQ(0, mkdir(TMP_DIR "/dir", 0755));
	ASSERT_EQ(0, mkdir(TMP_DIR "/mnt", 0755));
	write_file(TMP_DIR "/file", "x");
	ASSERT_EQ(0, symlink("dir", TMP_DIR "/link"));
}

/* In the parent, which has no veil. */
FIXTURE_TEARDOWN_PARENT(readback)
{
	EXPECT_EQ(0, remove_tree(TMP_DIR));
}

TEST_F(readback, without_veil_shows_neither_veil_nor_lock)
{
	EXPECT_RULES(0, "veiled no\nlocked no\nlearning no\n");
}

TEST_F(readback, rules_show_letters_and_paths_in_order)
{
	UNVEIL(TMP_DIR "/dir", "rwc");
	UNVEIL(TMP_DIR "/file", "r");
	UNVEIL("/proc", "rx");
	EXPECT_RULES(0, "veiled yes\nlocked no\nlearning no\n"
		     "rule rwc \"" TMP_DIR "/dir\"\n"
		     "rule r \"" TMP_DIR "/file\"\n"
		     "rule rx \"/proc\"\n");
}

TEST_F(readback, rule_without_letters_shows_dash)
{
	UNVEIL("/proc", "r");
	UNVEIL(TMP_DIR, "");
	EXPECT_RULES(0, "veiled yes\nlocked no\nlearning no\n"
		     "rule r \"/proc\"\nrule - \"" TMP_DIR "\"\n");
}

TEST_F(readback, unveil_again_shows_new_letters_once)
{
	UNVEIL("/proc", "r");
	UNVEIL(TMP_DIR "/file", "r");
	UNVEIL(TMP_DIR "/file", "wc");
	EXPECT_RULES(0, "veiled yes\nlocked no\nlearning no\n"
		     "rule r \"/proc\"\nrule wc \"" TMP_DIR "/file\"\n");
}

TEST_F(readback, lock_is_shown)
{
	UNVEIL("/proc", "r");
	UNVEIL(NULL, NULL);
	EXPECT_RULES(0, "veiled yes\nlocked yes\nlearning no\nrule r \"/proc\"\n");
}

TEST_F(readback, lock_without_rules_is_shown_unveiled)
{
	UNVEIL(NULL, NULL);
	EXPECT_RULES(0, "veiled no\nlocked yes\nlearning no\n");
}

TEST_F(readback, relative_and_symlinked_paths_show_where_they_led)
{
	ASSERT_EQ(0, chdir(TMP_DIR));
	UNVEIL("/proc", "r");
	UNVEIL("link", "r");
	UNVEIL("not-yet", "c");
	EXPECT_RULES(0, "veiled yes\nlocked no\nlearning no\nrule r \"/proc\"\n"
		     "rule r \"" TMP_DIR "/dir\"\n"
		     "rule c \"" TMP_DIR "/not-yet\"\n");
}

TEST_F(readback, name_in_root_has_one_slash)
{
	UNVEIL("/proc", "r");
	UNVEIL("/unveil-readback-missing", "r");
	EXPECT_RULES(0, "veiled yes\nlocked no\nlearning no\nrule r \"/proc\"\n"
		     "rule r \"/unveil-readback-missing\"\n");
}

/*
 * A path is quoted with controls, the quote, the backslash and bytes from
 * DEL up written \xHH, as in the other files and the log line.
 */
TEST_F(readback, paths_are_quoted_with_odd_bytes_escaped)
{
	ASSERT_EQ(0, mkdir(TMP_DIR "/a b\tc\nd\\e\"f\xff", 0755));
	UNVEIL("/proc", "r");
	UNVEIL(TMP_DIR "/a b\tc\nd\\e\"f\xff", "r");
	UNVEIL(TMP_DIR "/dir/x y", "r");
	EXPECT_RULES(0, "veiled yes\nlocked no\nlearning no\nrule r \"/proc\"\n"
		     "rule r \"" TMP_DIR "/a b\\x09c\\x0ad\\x5ce\\x22f\\xff\"\n"
		     "rule r \"" TMP_DIR "/dir/x y\"\n");
}

TEST_F(readback, thread_and_process_show_the_same_veil)
{
	char path[64], buf[4096];
	ssize_t len;
	int fd;

	UNVEIL("/proc", "r");
	snprintf(path, sizeof(path), "/proc/self/task/%d/attr/unveil/rules",
		 gettid());
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	ASSERT_LT(0, len);
	buf[len] = '\0';
	EXPECT_STREQ("veiled yes\nlocked no\nlearning no\nrule r \"/proc\"\n", buf);
}

TEST_F(readback, parent_reads_child)
{
	const pid_t child = spawn_veiled(unveil_tmp_read);

	ASSERT_LT(0, child);
	EXPECT_RULES(child, "veiled yes\nlocked no\nlearning no\nrule r \"" TMP_DIR "\"\n");
	reap(child);
}

TEST_F(readback, veiled_process_cannot_read_unveiled_one)
{
	const pid_t sleeper = spawn_sleeper();
	char buf[256];

	ASSERT_LT(0, sleeper);
	ASSERT_EQ(0, read_rules(sleeper, buf, sizeof(buf)));
	UNVEIL("/proc", "r");
	EXPECT_EQ(EACCES, read_rules(sleeper, buf, sizeof(buf)));
	reap(sleeper);
}

/*
 * What another user (nobody) gets reading /proc/PID/attr/unveil/@name of a
 * veiled process: 0 or the errno.  The reader is a child, so that root can
 * still kill the target.
 */
static int other_user_reads(const char *name)
{
	const pid_t target = spawn_veiled(unveil_tmp_read);
	int status = -1;
	pid_t reader;

	if (target < 0)
		return -1;
	reader = fork();
	if (reader == 0) {
		char buf[256];

		become_nobody();
		_exit(read_attr_fd(open_attr(target, name), buf, sizeof(buf)));
	}
	if (reader < 0 || waitpid(reader, &status, 0) != reader ||
	    !WIFEXITED(status))
		status = -1;
	reap(target);
	return status < 0 ? -1 : WEXITSTATUS(status);
}

TEST_F(readback, other_user_cannot_read)
{
	EXPECT_EQ(EACCES, other_user_reads("rules"));
}

TEST_F(readback, same_user_can_read)
{
	const pid_t target = spawn_veiled(nobody_unveils_tmp);

	ASSERT_LT(0, target);
	become_nobody();
	EXPECT_RULES(target, "veiled yes\nlocked no\nlearning no\nrule r \"" TMP_DIR "\"\n");
	reap(target);
}

TEST_F(readback, unmounted_rules_disappear)
{
	pid_t child;

	ASSERT_EQ(0, mount("none", TMP_DIR "/mnt", "tmpfs", 0, NULL));
	ASSERT_EQ(0, mkdir(TMP_DIR "/mnt/sub", 0755));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (sys_unveil(TMP_DIR "/mnt/sub", "r") || sys_unveil(TMP_DIR, "r"))
			_exit(1);
		pause();
		_exit(0);
	}
	/* Wait until the child made both rules. */
	for (int i = 0; i < 1000; i++) {
		char buf[4096];

		if (!read_rules(child, buf, sizeof(buf)) &&
		    strstr(buf, "rule r \"" TMP_DIR "\"\n"))
			break;
		usleep(1000);
	}
	EXPECT_RULES(child, "veiled yes\nlocked no\nlearning no\n"
		     "rule r \"" TMP_DIR "/mnt/sub\"\nrule r \"" TMP_DIR "\"\n");
	ASSERT_EQ(0, umount(TMP_DIR "/mnt"));
	EXPECT_RULES(child, "veiled yes\nlocked no\nlearning no\nrule r \"" TMP_DIR "\"\n");
	reap(child);
}

/*
 * Refusals: /proc/PID/attr/unveil/refusals.  A veiled process may not read
 * any, so a veiled child makes them and this process reads them once the
 * child has exited, before reaping it (its veil lives until then).
 */

/* One line of the refusals file, for this program. */
static void refusal_line(char *buf, size_t size, const char *fields, pid_t pid,
			 const char *path)
{
	snprintf(buf, size, "%s pid=%d comm=\"readback_test\" path=\"%s\"\n",
		 fields, pid, path);
}

/* Returns 0 if the call failed with @err: a refusal as expected. */
static int failed_with(int ret, int err)
{
	return ret == -1 && errno == err ? 0 : 1;
}

static int open_hidden_file(void)
{
	return failed_with(open(TMP_DIR "/file", O_RDONLY), ENOENT);
}

static int create_file(void)
{
	return failed_with(open(TMP_DIR "/new", O_WRONLY | O_CREAT, 0644),
			   EACCES);
}

static int open_20_hidden_files(void)
{
	char path[64];
	int i;

	for (i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), TMP_DIR "/hidden%02d", i);
		if (failed_with(open(path, O_RDONLY), ENOENT))
			return 1;
	}
	return 0;
}

/* Where fork_child_opening_hidden_file() writes its child's PID. */
static int grandchild_pid_fd = -1;

static int fork_child_opening_hidden_file(void)
{
	int status;
	pid_t child = fork();

	if (child == 0)
		_exit(open_hidden_file());
	if (child < 0 || waitpid(child, &status, 0) != child || status)
		return 1;
	/* Its PID, for the parent to expect. */
	return write(grandchild_pid_fd, &child, sizeof(child)) ==
		sizeof(child) ? 0 : 1;
}

TEST_F(readback, refusals_without_veil_are_none)
{
	char buf[256];

	ASSERT_EQ(0, read_attr_fd(open_attr(0, "refusals"), buf, sizeof(buf)));
	EXPECT_STREQ("refusals 0\n", buf);
}

TEST_F(readback, refusals_list_a_hidden_open)
{
	char buf[1024], line[512];
	const pid_t child = refusals_of_child(TMP_DIR "/dir", "r",
					      open_hidden_file, buf,
					      sizeof(buf));

	ASSERT_LT(0, child);
	refusal_line(line, sizeof(line), "op=open needed=r held=- errno=2",
		     child, TMP_DIR "/file");
	snprintf(self->expected, sizeof(self->expected), "refusals 1\n%s",
		 line);
	EXPECT_STREQ(self->expected, buf);
}

TEST_F(readback, refusals_name_a_file_that_open_would_create)
{
	char buf[1024], line[512];
	const pid_t child = refusals_of_child(TMP_DIR, "rw", create_file, buf,
					      sizeof(buf));

	ASSERT_LT(0, child);
	refusal_line(line, sizeof(line), "op=create needed=c held=rw errno=13",
		     child, TMP_DIR "/new");
	snprintf(self->expected, sizeof(self->expected), "refusals 1\n%s",
		 line);
	EXPECT_STREQ(self->expected, buf);
}

TEST_F(readback, refusals_keep_the_last_16_and_count_all)
{
	char buf[8192], line[512], path[64];
	pid_t child;
	char *pos;
	int i;

	for (i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), TMP_DIR "/hidden%02d", i);
		write_file(path, "x");
	}
	child = refusals_of_child(TMP_DIR "/dir", "r", open_20_hidden_files,
				  buf, sizeof(buf));
	ASSERT_LT(0, child);
	ASSERT_EQ(0, strncmp(buf, "refusals 20\n", strlen("refusals 20\n")));
	pos = buf + strlen("refusals 20\n");
	for (i = 4; i < 20; i++) {
		snprintf(path, sizeof(path), TMP_DIR "/hidden%02d", i);
		refusal_line(line, sizeof(line),
			     "op=open needed=r held=- errno=2", child, path);
		ASSERT_EQ(0, strncmp(pos, line, strlen(line)))
			TH_LOG("entry %d: %s", i, pos);
		pos += strlen(line);
	}
	EXPECT_STREQ("", pos);
}

#define LONG_NAME_LEN 200

static int open_hidden_long_name(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), TMP_DIR "/%0*d", LONG_NAME_LEN, 0);
	return failed_with(open(path, O_RDONLY), ENOENT);
}

/* A path is cut to its first 191 bytes, and "..." follows the quote. */
TEST_F(readback, refusals_cut_paths_at_191_bytes)
{
	char buf[1024], path[PATH_MAX];
	pid_t child;

	snprintf(path, sizeof(path), TMP_DIR "/%0*d", LONG_NAME_LEN, 0);
	write_file(path, "x");
	child = refusals_of_child(TMP_DIR "/dir", "r", open_hidden_long_name,
				  buf, sizeof(buf));
	ASSERT_LT(0, child);
	snprintf(self->expected, sizeof(self->expected),
		 "refusals 1\nop=open needed=r held=- errno=2 pid=%d comm=\"readback_test\" path=\"%.191s\"...\n",
		 child, path);
	EXPECT_STREQ(self->expected, buf);
}

/*
 * Every byte a name may hold that quoting must carry: space, quote,
 * backslash, tab, newline, bytes that are no UTF-8, and a "..." of its own.
 */
#define ODD_NAME "sp ace\"q\\b\tt\nn\xff\xfe..."
#define ODD_DIR TMP_DIR "/" ODD_NAME

static void unveil_odd_names(void)
{
	sys_unveil(ODD_DIR, "r");
	sys_unveil(ODD_DIR "/" ODD_NAME, "rw");
}

static int write_in_odd_dir(void)
{
	return failed_with(open(ODD_DIR "/f", O_WRONLY), EACCES);
}

/* The rules and refusals files, read with the grammar of unveil(2). */
TEST_F(readback, rules_and_refusals_follow_the_documented_grammar)
{
	char buf[4096], letters[8], path[PATH_MAX], *line, *end;
	struct parsed_record record;
	pid_t child;

	ASSERT_EQ(0, mkdir(ODD_DIR, 0755));
	write_file(ODD_DIR "/f", "x");
	child = spawn_veiled(unveil_odd_names);
	ASSERT_LT(0, child);
	ASSERT_EQ(0, read_rules(child, buf, sizeof(buf)));
	reap(child);
	line = strstr(buf, "learning no\n");
	ASSERT_NE(NULL, line);
	line += strlen("learning no\n");
	end = strchr(line, '\n');
	ASSERT_NE(NULL, end);
	*end = '\0';
	ASSERT_TRUE(parse_rule(line, letters, path, sizeof(path)));
	EXPECT_STREQ("r", letters);
	EXPECT_STREQ(ODD_DIR, path);
	ASSERT_TRUE(parse_rule(end + 1, letters, path, sizeof(path)));
	EXPECT_STREQ("rw", letters);
	EXPECT_STREQ(ODD_DIR "/" ODD_NAME, path);

	child = refusals_of_child(ODD_DIR, "r", write_in_odd_dir, buf,
				  sizeof(buf));
	ASSERT_LT(0, child);
	ASSERT_EQ(0, strncmp("refusals 1\n", buf, strlen("refusals 1\n")));
	ASSERT_TRUE(parse_record(buf + strlen("refusals 1\n"), &record));
	EXPECT_RECORD(&record, "open", "w", "r", EACCES, child, "readback_test",
		      ODD_DIR "/f");
}

TEST_F(readback, refusals_are_shared_with_forked_children)
{
	char buf[1024], line[512];
	pid_t child, grandchild;
	int pids[2];

	ASSERT_EQ(0, pipe(pids));
	grandchild_pid_fd = pids[1];
	child = refusals_of_child(TMP_DIR "/dir", "r",
				  fork_child_opening_hidden_file, buf,
				  sizeof(buf));
	ASSERT_LT(0, child);
	ASSERT_EQ(sizeof(grandchild),
		  read(pids[0], &grandchild, sizeof(grandchild)));
	refusal_line(line, sizeof(line), "op=open needed=r held=- errno=2",
		     grandchild, TMP_DIR "/file");
	snprintf(self->expected, sizeof(self->expected), "refusals 1\n%s",
		 line);
	EXPECT_STREQ(self->expected, buf);
}

/*
 * A hidden file that exists gets a refusal, a missing one none: reading
 * them would tell a veiled process what its veil hides.
 */
TEST_F(readback, veiled_process_cannot_read_refusals_not_even_its_own)
{
	const int fd = open_attr(0, "refusals");
	char buf[1024];

	ASSERT_LE(0, fd);
	UNVEIL(TMP_DIR "/dir", "r");
	EXPECT_EQ(-1, open(TMP_DIR "/file", O_RDONLY));
	EXPECT_EQ(EACCES, read_attr_fd(fd, buf, sizeof(buf)));
}

TEST_F(readback, other_user_cannot_read_refusals)
{
	EXPECT_EQ(EACCES, other_user_reads("refusals"));
}

TEST_HARNESS_MAIN
