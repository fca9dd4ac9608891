// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - a learning veil: set only before the first rule, by
 * the process itself; it refuses nothing that a rule could allow (it
 * refuses capabilities, as any veil does) and records what it would have
 * refused in /proc/PID/attr/unveil/learned; it cannot be locked, cleared
 * or left, and its children learn too.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "common.h"
#include "records.h"

#define TMP_DIR "/tmp/unveil_learn_test"
#define LEARNED_MAX 4096

static int learn(void)
{
	return write_learn(0, "1");
}

/* Reads /proc/@pid/attr/unveil/@name (@pid 0: self) into @buf; errno or 0. */
static int read_attr(pid_t pid, const char *name, char *buf, size_t size)
{
	return read_attr_fd(open_attr(pid, name), buf, size);
}

/*
 * Runs @calls in a child that learns under the rule @path @perms, then
 * reads what it learned into @buf (after it exited, before it is reaped).
 * Returns 0, or what failed: 100 + errno of learning or unveil(), 1 for
 * @calls, 2 for the read.
 */
/* The fields after errno of this program's records, named by name_pids(). */
#define BY_CHILD "pid=CHILD comm=\"learn_test\""
#define BY_OTHER "pid=OTHER comm=\"learn_test\""
/* The last field of a record, for @rel in TMP_DIR. */
#define PATH_FIELD(rel) " path=\"" TMP_DIR rel "\"\n"

/*
 * Writes the pid fields of @buf (@size bytes) as "pid=CHILD" for @child and
 * "pid=OTHER" for another process, so that the lines compare as text.
 */
static void name_pids(char *buf, size_t size, pid_t child)
{
	char *copy = strdup(buf), *from = copy, *field, *end;
	size_t len = 0;
	long pid;

	if (!copy)
		return;
	/* strtol(), not sscanf(), which would measure the rest each time. */
	while ((field = strstr(from, " pid="))) {
		pid = strtol(field + 5, &end, 10);
		len += snprintf(buf + len, size - len, "%.*s pid=%s",
				(int)(field - from), from,
				pid == child ? "CHILD" : "OTHER");
		from = end;
	}
	snprintf(buf + len, size - len, "%s", from);
	free(copy);
}

/*
 * A child learns under the rule @path @perms while it runs @calls; reads
 * what it learned into @buf, its pid into *@child.  Returns 0, the exit
 * status of a child that failed, or 2.
 */
static int read_learned_of_child(const char *path, const char *perms,
				 int (*calls)(void), char *buf, size_t size,
				 pid_t *childp)
{
	siginfo_t info;
	pid_t child;
	int err;

	child = fork();
	if (child < 0)
		return 2;
	if (child == 0) {
		err = learn();
		if (!err)
			err = unveil_errno(path, perms);
		_exit(err ? 100 + err : calls());
	}
	if (waitid(P_PID, child, &info, WEXITED | WNOWAIT) ||
	    info.si_code != CLD_EXITED || info.si_status) {
		waitpid(child, NULL, 0);
		return info.si_status ?: 2;
	}
	err = read_attr(child, "learned", buf, size);
	waitpid(child, NULL, 0);
	*childp = child;
	return err ? 2 : 0;
}

/* read_learned_of_child(), with the pids named as name_pids() does. */
static int learned_of_child(const char *path, const char *perms,
			    int (*calls)(void), char *buf, size_t size)
{
	pid_t child;
	int err;

	err = read_learned_of_child(path, perms, calls, buf, size, &child);
	if (!err)
		name_pids(buf, size, child);
	return err;
}

/* 0 if @fd is a descriptor (closed again), else 1. */
static int opened(int fd)
{
	if (fd < 0)
		return 1;
	close(fd);
	return 0;
}

static int read_hidden_and_write_readable(void)
{
	return opened(open(TMP_DIR "/file", O_RDONLY)) ||
	       opened(open(TMP_DIR "/dir/f", O_WRONLY));
}

static int open_twice_then_read_write(void)
{
	return opened(open(TMP_DIR "/file", O_RDONLY)) ||
	       opened(open(TMP_DIR "/file", O_RDONLY)) ||
	       opened(open(TMP_DIR "/file", O_RDWR));
}

static int create_file(void)
{
	return opened(open(TMP_DIR "/dir/new", O_WRONLY | O_CREAT, 0644));
}

static int fork_child_reading_hidden_file(void)
{
	int status;
	pid_t child = fork();

	if (child == 0)
		_exit(opened(open(TMP_DIR "/file", O_RDONLY)));
	return child < 0 || waitpid(child, &status, 0) != child || status;
}

/* No rule allows a file handle: learned, it works. */
static int make_a_file_handle(void)
{
	struct file_handle *handle = malloc(sizeof(*handle) + MAX_HANDLE_SZ);
	int mount_id;

	if (!handle)
		return 1;
	handle->handle_bytes = MAX_HANDLE_SZ;
	return name_to_handle_at(AT_FDCWD, TMP_DIR "/dir", handle, &mount_id,
				 0) ? 1 : 0;
}

/* No rule could grant a capability: refused while learning too. */
static int set_the_host_name(void)
{
	return sethostname("learning", 8) == -1 && errno == EPERM ? 0 : 1;
}

static int open_more_than_the_set_keeps(void)
{
	char path[64];
	int i;

	for (i = 0; i < LEARNED_MAX + 4; i++) {
		snprintf(path, sizeof(path), TMP_DIR "/many/%d", i);
		if (opened(open(path, O_RDONLY)))
			return 1;
	}
	return 0;
}

FIXTURE(learn) {
	char buf[8192];
};

FIXTURE_SETUP(learn)
{
	ASSERT_EQ(0, system("rm -rf " TMP_DIR));
	ASSERT_EQ(0, mkdir(TMP_DIR, 0755));
	ASSERT_EQ(0, mkdir(TMP_DIR "/dir", 0755));
	write_file(TMP_DIR "/file", "x");
	write_file(TMP_DIR "/dir/f", "x");
}

/* The test may have drawn a veil that hides TMP_DIR and rm(1). */
FIXTURE_TEARDOWN_PARENT(learn)
{
	ASSERT_EQ(0, system("rm -rf " TMP_DIR));
}

TEST_F(learn, allows_and_records_what_the_veil_would_refuse)
{
	ASSERT_EQ(0, learned_of_child(TMP_DIR "/dir", "r",
				      read_hidden_and_write_readable,
				      self->buf, sizeof(self->buf)));
	EXPECT_STREQ("learned 2 dropped 0\n"
		     "op=open needed=r held=- errno=2 " BY_CHILD PATH_FIELD("/file")
		     "op=open needed=w held=r errno=13 " BY_CHILD PATH_FIELD("/dir/f"),
		     self->buf);
}

TEST_F(learn, lists_an_operation_on_a_path_once_with_all_its_letters)
{
	ASSERT_EQ(0, learned_of_child(TMP_DIR "/dir", "r",
				      open_twice_then_read_write, self->buf,
				      sizeof(self->buf)));
	EXPECT_STREQ("learned 1 dropped 0\n"
		     "op=open needed=rw held=- errno=2 " BY_CHILD PATH_FIELD("/file"),
		     self->buf);
}

TEST_F(learn, names_the_file_a_creation_makes_and_makes_it)
{
	struct stat st;

	ASSERT_EQ(0, learned_of_child(TMP_DIR "/dir", "r", create_file,
				      self->buf, sizeof(self->buf)));
	EXPECT_STREQ("learned 1 dropped 0\n"
		     "op=create needed=wc held=r errno=13 " BY_CHILD PATH_FIELD("/dir/new"),
		     self->buf);
	EXPECT_EQ(0, stat(TMP_DIR "/dir/new", &st));
}

TEST_F(learn, records_what_its_children_would_be_refused)
{
	ASSERT_EQ(0, learned_of_child(TMP_DIR "/dir", "r",
				      fork_child_reading_hidden_file,
				      self->buf, sizeof(self->buf)));
	EXPECT_STREQ("learned 1 dropped 0\n"
		     "op=open needed=r held=- errno=2 " BY_OTHER PATH_FIELD("/file"),
		     self->buf);
}

TEST_F(learn, records_calls_that_no_rule_allows)
{
	ASSERT_EQ(0, learned_of_child(TMP_DIR "/dir", "r", make_a_file_handle,
				      self->buf, sizeof(self->buf)));
	EXPECT_STREQ("learned 1 dropped 0\n"
		     "op=name_to_handle_at needed=- held=- errno=1 " BY_CHILD PATH_FIELD("/dir"),
		     self->buf);
}

/* Quoting must carry every byte of a name (see readback_test). */
#define ODD_PATH TMP_DIR "/sp ace\"q\\b\tt\nn\xff\xfe..."

static int open_odd_path(void)
{
	return opened(open(ODD_PATH, O_RDONLY));
}

/* The learned file, read with the grammar of unveil(2). */
TEST_F(learn, learned_follows_the_documented_grammar)
{
	struct parsed_record record;
	const char *line;
	pid_t child;

	write_file(ODD_PATH, "x");
	ASSERT_EQ(0, read_learned_of_child(TMP_DIR "/dir", "r", open_odd_path,
					   self->buf, sizeof(self->buf),
					   &child));
	line = strchr(self->buf, '\n');
	ASSERT_NE(NULL, line);
	ASSERT_TRUE(parse_record(line + 1, &record));
	EXPECT_RECORD(&record, "open", "r", "-", ENOENT, child, "learn_test",
		      ODD_PATH);
}

TEST_F(learn, refuses_capabilities_and_learns_nothing_of_them)
{
	ASSERT_EQ(0, learned_of_child(TMP_DIR "/dir", "r", set_the_host_name,
				      self->buf, sizeof(self->buf)));
	EXPECT_STREQ("learned 0 dropped 0\n", self->buf);
}

/* 4100 refusals: longer than the default 30 s under KASAN and TCG. */
TEST_F_TIMEOUT(learn, keeps_4096_entries_and_counts_the_others, 300)
{
	const size_t size = 1 << 20;
	char path[64], *buf;
	int i;

	ASSERT_EQ(0, mkdir(TMP_DIR "/many", 0755));
	for (i = 0; i < LEARNED_MAX + 4; i++) {
		snprintf(path, sizeof(path), TMP_DIR "/many/%d", i);
		write_file(path, "");
	}
	buf = malloc(size);
	ASSERT_NE(NULL, buf);
	EXPECT_EQ(0, learned_of_child(TMP_DIR "/dir", "r",
				      open_more_than_the_set_keeps, buf, size));
	buf[strcspn(buf, "\n")] = '\0';
	EXPECT_STREQ("learned 4096 dropped 4", buf);
	free(buf);
}

TEST_F(learn, shows_in_the_rules)
{
	ASSERT_EQ(0, learn());
	ASSERT_EQ(0, read_attr(0, "rules", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("veiled no\nlocked no\nlearning yes\n", self->buf);
	UNVEIL(TMP_DIR "/dir", "r");
	ASSERT_EQ(0, read_attr(0, "rules", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("veiled yes\nlocked no\nlearning yes\nrule r \""
		     TMP_DIR "/dir\"\n", self->buf);
}

TEST_F(learn, cannot_start_after_the_first_rule)
{
	UNVEIL(TMP_DIR "/dir", "r");
	UNVEIL("/proc", "rw");
	EXPECT_EQ(EPERM, learn());
	EXPECT_EQ(ENOENT, open_errno(TMP_DIR "/file", O_RDONLY));
}

TEST_F(learn, cannot_start_under_a_veil_inherited_from_the_parent)
{
	int status;
	pid_t child;

	UNVEIL(TMP_DIR "/dir", "r");
	UNVEIL("/proc", "rw");
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0)
		_exit(learn() == EPERM &&
		      open_errno(TMP_DIR "/file", O_RDONLY) == ENOENT ? 0 : 1);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, status);
}

TEST_F(learn, cannot_start_on_a_locked_veil)
{
	ASSERT_EQ(0, sys_unveil(NULL, NULL));
	EXPECT_EQ(EPERM, learn());
}

TEST_F(learn, veil_cannot_be_locked)
{
	ASSERT_EQ(0, learn());
	UNVEIL(TMP_DIR "/dir", "r");
	EXPECT_EQ(EPERM, unveil_errno(NULL, NULL));
	ASSERT_EQ(0, read_attr(0, "rules", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("veiled yes\nlocked no\nlearning yes\nrule r \""
		     TMP_DIR "/dir\"\n", self->buf);
	/* More rules can still be added. */
	EXPECT_EQ(0, unveil_errno(TMP_DIR, "r"));
}

TEST_F(learn, cannot_be_turned_off)
{
	ASSERT_EQ(0, learn());
	EXPECT_EQ(EINVAL, write_learn(0, "0"));
	UNVEIL(TMP_DIR "/dir", "r");
	EXPECT_EQ(EINVAL, write_learn(0, "0"));
	EXPECT_EQ(EPERM, learn());
	EXPECT_EQ(0, open_errno(TMP_DIR "/file", O_RDONLY));
}

TEST_F(learn, takes_only_1)
{
	EXPECT_EQ(EINVAL, write_learn(0, ""));
	EXPECT_EQ(EINVAL, write_learn(0, "0"));
	EXPECT_EQ(EINVAL, write_learn(0, "2"));
	EXPECT_EQ(EINVAL, write_learn(0, "1x"));
	EXPECT_EQ(EINVAL, write_learn(0, "11"));
	ASSERT_EQ(0, read_attr(0, "rules", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("veiled no\nlocked no\nlearning no\n", self->buf);
	EXPECT_EQ(0, write_learn(0, "1\n"));
	EXPECT_EQ(0, write_learn(0, "1"));
}

TEST_F(learn, sets_no_new_privs)
{
	ASSERT_EQ(0, prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	ASSERT_EQ(0, learn());
	EXPECT_EQ(1, prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
}

/*
 * A descriptor opened before execve() cannot make the new program learn:
 * a set-user-ID program could be made to write "1" (to its standard
 * output) before it draws a veil of its own.
 */
TEST_F(learn, descriptor_opened_before_execve_cannot_be_written)
{
	const int fd = open("/proc/self/attr/unveil/learn", O_WRONLY);
	siginfo_t info;
	pid_t child;

	ASSERT_LE(0, fd);
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		dup2(fd, 5);
		execl("/bin/sh", "sh", "-c", "echo 1 >&5", (char *)NULL);
		_exit(100);
	}
	ASSERT_EQ(0, waitid(P_PID, child, &info, WEXITED | WNOWAIT));
	EXPECT_EQ(CLD_EXITED, info.si_code);
	EXPECT_EQ(1, info.si_status);
	EXPECT_EQ(0, read_attr(child, "rules", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("veiled no\nlocked no\nlearning no\n", self->buf);
	waitpid(child, NULL, 0);
	close(fd);
}

TEST_F(learn, another_process_cannot_make_a_process_learn)
{
	const pid_t child = spawn_sleeper();

	ASSERT_LT(0, child);
	EXPECT_EQ(EPERM, write_learn(child, "1"));
	ASSERT_EQ(0, read_attr(child, "rules", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("veiled no\nlocked no\nlearning no\n", self->buf);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

TEST_F(learn, veiled_process_cannot_read_what_another_learned)
{
	const pid_t child = fork();
	int status;

	ASSERT_LE(0, child);
	if (child == 0) {
		if (learn() || sys_unveil(TMP_DIR "/dir", "r") ||
		    opened(open(TMP_DIR "/file", O_RDONLY)))
			_exit(1);
		for (;;)
			pause();
	}
	/* Wait until it made its rule. */
	do {
		ASSERT_EQ(0, read_attr(child, "rules", self->buf,
				       sizeof(self->buf)));
	} while (!strstr(self->buf, "rule "));
	EXPECT_EQ(0, read_attr(child, "learned", self->buf, sizeof(self->buf)));
	UNVEIL("/proc", "r");
	EXPECT_EQ(EACCES, read_attr(child, "learned", self->buf,
				    sizeof(self->buf)));
	kill(child, SIGKILL);
	ASSERT_EQ(child, waitpid(child, &status, 0));
}

TEST_F(learn, without_learning_nothing_is_learned)
{
	ASSERT_EQ(0, read_attr(0, "learned", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("learned 0 dropped 0\n", self->buf);
}

TEST_HARNESS_MAIN
