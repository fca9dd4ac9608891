// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - bind mounts, mount namespaces, the roots of mounted
 * file systems, and file systems unmounted or mounted again while rules
 * point into them.
 *
 * Rules are tied to directories and to names in directories, not to mounts:
 * a bind mount shows the same directories, with their own rules, and above
 * them the ancestry is the mount point's; a file system mounted on a
 * directory is judged, above its root, by the rule of the directory it
 * covers; a rule on the root of a mounted file system goes with that file
 * system, and holds for whatever is mounted there next; and the rules on a
 * file system vanish when it shuts down
 * (Documentation/userspace-api/unveil.rst).
 *
 * Every test runs in a mount namespace of its own, with a tmpfs of its own
 * mounted on a fresh directory in /tmp, which holds:
 *   A/f  A/dir/file  A/dir/file2  A/dir/sub/  A/other/file
 *   B/  C/g  C/mnt/  p/mnt/covered  q/  view/  mnt/
 * Each test mounts what it needs there before the veil.  Where mounts
 * change under a veil, a veiled child (start_veiled()) tries the paths
 * while the test's process, not veiled, changes the mounts.  The namespace,
 * and with it every mount of the test, goes away with the test's process;
 * only the empty directory is left, for the harness's process to remove.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/loop.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "../kselftest_harness.h"
#include "common.h"

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif

#define MAX_CHILDREN 8

FIXTURE(mounts) {
	char base[64];
	/* The veiled children, for the harness's process to wait for. */
	pid_t children[MAX_CHILDREN];
};

/* Where start_veiled() notes its children: in the fixture's data. */
static pid_t *children;

FIXTURE_SETUP(mounts)
{
	static const char *const dirs[] = {
		"A", "A/dir", "A/dir/sub", "A/other", "B", "C", "C/mnt", "p",
		"p/mnt", "q", "view", "mnt",
	};
	static const char *const files[] = {
		"A/f", "A/dir/file", "A/dir/file2", "A/other/file", "C/g",
		"p/mnt/covered",
	};
	size_t i;

	children = self->children;
	snprintf(self->base, sizeof(self->base), "/tmp/unveil-mounts.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->base));
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_EQ(0, mount("none", self->base, "tmpfs", 0, "mode=0755"));
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		ASSERT_EQ(0, mkdir(at(self->base, dirs[i]), 0755));
	for (i = 0; i < ARRAY_SIZE(files); i++)
		write_file(at(self->base, files[i]), files[i]);
}

/* Waits until @pid has exited, and so left the test's mount namespace. */
static void wait_gone(pid_t pid)
{
	struct pollfd pidfd = { .events = POLLIN };

	pidfd.fd = syscall(__NR_pidfd_open, pid, 0);
	if (pidfd.fd < 0)
		return;
	poll(&pidfd, 1, 10000);
	close(pidfd.fd);
}

/*
 * In the harness's process, which has none of the test's mounts: they go
 * away with the test's mount namespace, once the test's children, which
 * die with the test's process, have left it too.  Removing the directory
 * before could leave the mounts on it stuck, detached, for good.
 */
FIXTURE_TEARDOWN_PARENT(mounts)
{
	size_t i;

	for (i = 0; i < MAX_CHILDREN && self->children[i]; i++)
		wait_gone(self->children[i]);
	EXPECT_EQ(0, rmdir(self->base));
}

/* Writes base/@rel into @buf, which outlives the buffers of at(). */
static void keep_path(char buf[PATH_MAX], const char *base, const char *rel)
{
	snprintf(buf, PATH_MAX, "%s/%s", base, rel);
}

/* Bind mounts base/@from on base/@to, without what is mounted below it. */
static int bind_mount(const char *base, const char *from, const char *to)
{
	char source[PATH_MAX];

	snprintf(source, sizeof(source), "%s/%s", base, from);
	return mount(source, at(base, to), NULL, MS_BIND, NULL);
}

/* Mounts a new tmpfs on base/@dir, holding the file @name. */
static int mount_tmpfs(const char *base, const char *dir, const char *name)
{
	char file[PATH_MAX];

	if (mount("none", at(base, dir), "tmpfs", 0, NULL))
		return errno;
	snprintf(file, sizeof(file), "%s/%s/%s", base, dir, name);
	write_file(file, name);
	return 0;
}

/* What a veiled child does when asked (see ask()). */
enum veiled_op {
	/* open(path, flags), closed again: 0 or the errno. */
	VEILED_OPEN = 'o',
	/* stat(path): 0 or the errno. */
	VEILED_STAT = 's',
	/* statfs(path), which the veil never judges: 0 or the errno. */
	VEILED_STATFS = 'f',
	/* open(path, flags), kept open as the child's held descriptor. */
	VEILED_HOLD = 'h',
	/* openat(the held descriptor, path, flags), closed again. */
	VEILED_OPENAT = 'a',
	/* Closes the held descriptor. */
	VEILED_CLOSE = 'c',
	/* The child's process ID. */
	VEILED_PID = 'p',
};

struct veiled_request {
	char op;
	int flags;
	char path[PATH_MAX];
};

static int do_request(const struct veiled_request *req, int *held)
{
	struct statfs sfs;
	int fd, err = EINVAL;
	struct stat st;

	switch (req->op) {
	case VEILED_OPEN:
		return open_errno(req->path, req->flags);
	case VEILED_STAT:
		return errno_of(stat(req->path, &st));
	case VEILED_STATFS:
		return errno_of(statfs(req->path, &sfs));
	case VEILED_HOLD:
		fd = open(req->path, req->flags);
		if (fd < 0)
			return errno;
		*held = fd;
		return 0;
	case VEILED_OPENAT:
		fd = openat(*held, req->path, req->flags);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case VEILED_CLOSE:
		return errno_of(close(*held));
	case VEILED_PID:
		return getpid();
	}
	return err;
}

/*
 * Forks a child which, in a mount namespace of its own if @new_ns, unveils
 * the @rules (path, permissions, ..., NULL), then does what ask() tells it
 * until the test's process goes away.  Returns the socket to the child, or
 * -1 if a rule failed.
 */
static int start_veiled(bool new_ns, const char *const *rules)
{
	struct veiled_request req;
	int sock[2], err = 0, held = -1;
	size_t i;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(sock[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (new_ns)
			err = errno_of(unshare(CLONE_NEWNS));
		for (; !err && *rules; rules += 2)
			err = unveil_errno(rules[0], rules[1]);
		if (send(sock[1], &err, sizeof(err), 0) != sizeof(err) || err)
			_exit(1);
		while (recv(sock[1], &req, sizeof(req), 0) == sizeof(req)) {
			req.path[sizeof(req.path) - 1] = '\0';
			err = do_request(&req, &held);
			if (send(sock[1], &err, sizeof(err), 0) != sizeof(err))
				break;
		}
		_exit(0);
	}
	close(sock[1]);
	for (i = 0; i < MAX_CHILDREN; i++) {
		if (!children[i]) {
			children[i] = pid;
			break;
		}
	}
	if (recv(sock[0], &err, sizeof(err), 0) != sizeof(err) || err) {
		close(sock[0]);
		return -1;
	}
	return sock[0];
}

/* Has the veiled child on @sock do @op; returns its answer, or -1. */
static int ask(int sock, char op, const char *path, int flags)
{
	struct veiled_request req = { .op = op, .flags = flags };
	int answer;

	snprintf(req.path, sizeof(req.path), "%s", path ? path : "");
	if (send(sock, &req, sizeof(req), 0) != sizeof(req) ||
	    recv(sock, &answer, sizeof(answer), 0) != sizeof(answer))
		return -1;
	return answer;
}

/* /dev/kmsg, past the records logged so far; -1 if there is none. */
static int kmsg_from_now(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Whether a record logged since kmsg_from_now() holds @text; closes @fd. */
static bool kmsg_has(int fd, const char *text)
{
	static char record[8192];
	bool found = false;
	ssize_t len;

	for (;;) {
		len = read(fd, record, sizeof(record) - 1);
		if (len < 0 && errno == EPIPE)
			continue;
		if (len <= 0)
			break;
		record[len] = '\0';
		if (strstr(record, text))
			found = true;
	}
	close(fd);
	return found;
}

/* Whether the veil of the child on @sock has a rule line @line. */
/* How many times the rules of the child show @line, or -1. */
static int count_rules(int sock, const char *line)
{
	static char rules[8192];
	pid_t pid = ask(sock, VEILED_PID, NULL, 0);
	const char *pos = rules;
	int count = 0;

	if (pid <= 0 || read_attr_fd(open_attr(pid, "rules"), rules,
				     sizeof(rules)))
		return -1;
	while ((pos = strstr(pos, line))) {
		count++;
		pos += strlen(line);
	}
	return count;
}

static bool has_rule(int sock, const char *line)
{
	return count_rules(sock, line) > 0;
}

/*
 * Makes an ext2 file system in the file base/ext2.img with mke2fs, attaches
 * it to a loop device, whose name goes to @dev, and mounts it on base/mnt.
 * The loop device stays open in the test's process (and its children) and
 * detaches itself when they are gone.  Returns false, and the test is
 * skipped, without mke2fs, loop devices or ext2.
 */
static bool mount_ext2(struct __test_metadata *const _metadata,
		       const char *base, char *dev, size_t size)
{
	struct loop_config config = { .info.lo_flags = LO_FLAGS_AUTOCLEAR };
	char image[PATH_MAX];
	int status, ctl, nr, loop, err;
	pid_t pid;

	snprintf(image, sizeof(image), "%s/ext2.img", base);
	config.fd = open(image, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	ASSERT_LE(0, config.fd);
	ASSERT_EQ(0, ftruncate(config.fd, 1 << 20));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		execlp("mke2fs", "mke2fs", "-F", image, (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 127)
		SKIP(return false, "no mke2fs in PATH");
	ASSERT_EQ(0, WEXITSTATUS(status));

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		SKIP(return false, "no /dev/loop-control: %s", strerror(errno));
	nr = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	ASSERT_LE(0, nr);
	snprintf(dev, size, "/dev/loop%d", nr);
	loop = open(dev, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, loop);
	ASSERT_EQ(0, ioctl(loop, LOOP_CONFIGURE, &config));
	close(config.fd);
	err = errno_of(mount(dev, at(base, "mnt"), "ext2", 0, NULL));
	if (err == ENODEV)
		SKIP(return false, "no ext2");
	ASSERT_EQ(0, err);
	return true;
}

/*
 * Bind mounts of a tree made before the veil: rules are on directories and
 * names, not on mounts, so every mount of a tree shows the same rules.
 */

TEST_F(mounts, rule_made_through_a_mount_holds_through_a_bind_mount_of_it)
{
	ASSERT_EQ(0, bind_mount(self->base, "A", "B"));
	UNVEIL(at(self->base, "A/dir"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "B/dir/file"), O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "B/dir/file"), O_WRONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "B/other/file"),
				     O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "B/f"), O_RDONLY));
}

TEST_F(mounts, rule_made_through_a_bind_mount_holds_through_the_original)
{
	ASSERT_EQ(0, bind_mount(self->base, "A", "B"));
	UNVEIL(at(self->base, "B/dir"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "A/dir/file"), O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "A/dir/file"), O_WRONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "A/other/file"),
				     O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "A/f"), O_RDONLY));
}

TEST_F(mounts, name_rule_made_through_a_mount_holds_through_a_bind_mount_of_it)
{
	ASSERT_EQ(0, bind_mount(self->base, "A", "B"));
	UNVEIL(at(self->base, "A/dir/file"), "rw");
	EXPECT_EQ(0, open_errno(at(self->base, "B/dir/file"), O_RDWR));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "B/dir/file2"),
				     O_RDONLY));
}

TEST_F(mounts, name_rule_made_through_a_bind_mount_holds_through_the_original)
{
	ASSERT_EQ(0, bind_mount(self->base, "A", "B"));
	UNVEIL(at(self->base, "B/dir/file"), "rw");
	EXPECT_EQ(0, open_errno(at(self->base, "A/dir/file"), O_RDWR));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "A/dir/file2"),
				     O_RDONLY));
}

/* The root of a bind mount is the directory it shows, with its rule. */
TEST_F(mounts, rule_on_the_root_of_a_bind_mount_covers_the_original_tree)
{
	ASSERT_EQ(0, bind_mount(self->base, "A", "B"));
	UNVEIL(at(self->base, "B"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "A/f"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "A/other/file"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "C/g"), O_RDONLY));
}

/*
 * The directory's own rule goes with it, also where it is bind mounted in
 * a hidden place (a rule above it would not: escape_test,
 * bind_mount_of_a_visible_directory_in_a_hidden_place_is_hidden).
 */
TEST_F(mounts, directory_rule_holds_where_it_is_bind_mounted_in_a_hidden_place)
{
	ASSERT_EQ(0, bind_mount(self->base, "A/dir", "C/mnt"));
	UNVEIL(at(self->base, "A/dir"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "C/mnt/file"), O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "C/mnt/file"), O_WRONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "C/g"), O_RDONLY));
}

/* Bind mounts of a single file */

TEST_F(mounts, bind_mounted_file_is_judged_where_it_is_mounted)
{
	char buf[8] = "";
	int fd;

	ASSERT_EQ(0, bind_mount(self->base, "A/f", "C/g"));
	UNVEIL(at(self->base, "C"), "r");
	fd = open(at(self->base, "C/g"), O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(3, read(fd, buf, sizeof(buf) - 1));
	EXPECT_STREQ("A/f", buf);
	close(fd);
	EXPECT_EQ(EACCES, open_errno(at(self->base, "C/g"), O_WRONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "A/f"), O_RDONLY));
}

/* A file bind-mounted elsewhere is judged where it is mounted. */
TEST_F(mounts, name_rule_on_a_file_does_not_reach_where_it_is_bind_mounted)
{
	ASSERT_EQ(0, bind_mount(self->base, "A/f", "C/g"));
	UNVEIL(at(self->base, "A/f"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "A/f"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "C/g"), O_RDONLY));
}

/* Mount namespaces */

/*
 * A mount that propagates into the namespace of a veiled process after the
 * veil is judged like one mounted there: by the rule of the directory it
 * covers.  statfs(), which the veil does not judge, shows that the hidden
 * one did arrive.
 */
TEST_F(mounts, mount_propagated_into_a_veiled_namespace_takes_the_covered_rule)
{
	int child;

	ASSERT_EQ(0, mount(NULL, self->base, NULL, MS_SHARED, NULL));
	child = start_veiled(true, (const char *[]){
		at(self->base, "A"), "rwc",
		at(self->base, "A/dir"), "r",
		at(self->base, "A/other"), "",
		NULL });
	ASSERT_LE(0, child);
	ASSERT_EQ(0, mount_tmpfs(self->base, "A/dir", "new"));
	ASSERT_EQ(0, mount_tmpfs(self->base, "A/other", "new"));
	EXPECT_EQ(0, ask(child, VEILED_OPEN, at(self->base, "A/dir/new"),
			 O_RDONLY));
	EXPECT_EQ(EACCES, ask(child, VEILED_OPEN, at(self->base, "A/dir/new"),
			      O_RDWR));
	EXPECT_EQ(EACCES, ask(child, VEILED_OPEN, at(self->base, "A/dir/x"),
			      O_WRONLY | O_CREAT));
	EXPECT_EQ(0, ask(child, VEILED_STATFS, at(self->base, "A/other/new"),
			 0));
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPEN,
			      at(self->base, "A/other/new"), O_RDONLY));
}

/* Rules on the root of a mounted file system, and on what it covers */

/*
 * A tmpfs holding "file" on p/mnt, and on view a bind mount of p without
 * it (not recursive), so that view/mnt is the directory the tmpfs covers.
 */
static void cover_p_mnt(struct __test_metadata *const _metadata,
			const char *base)
{
	ASSERT_EQ(0, mount_tmpfs(base, "p/mnt", "file"));
	ASSERT_EQ(0, bind_mount(base, "p", "view"));
	ASSERT_EQ(0, open_errno(at(base, "view/mnt/covered"), O_RDONLY));
	ASSERT_EQ(ENOENT, open_errno(at(base, "p/mnt/covered"), O_RDONLY));
}

/*
 * unveil() follows the mount: the rule is on the root of the mounted file
 * system, and reveals nothing of the directory it covers, which cannot
 * even be inspected (no lookup ends on a covered directory).
 */
TEST_F(mounts, rule_on_a_mount_point_reveals_the_mounted_file_system_only)
{
	struct stat st;

	cover_p_mnt(_metadata, self->base);
	UNVEIL(at(self->base, "p/mnt"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "p/mnt/file"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "p/mnt"),
				O_RDONLY | O_DIRECTORY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "view/mnt/covered"),
				     O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "view/mnt"),
				     O_RDONLY | O_DIRECTORY));
	EXPECT_EQ(ENOENT, errno_of(stat(at(self->base, "view/mnt"), &st)));
}

TEST_F(mounts, rule_on_a_covered_directory_applies_to_what_is_mounted_on_it)
{
	cover_p_mnt(_metadata, self->base);
	UNVEIL(at(self->base, "view/mnt"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "p/mnt/file"), O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "p/mnt/file"), O_WRONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "view/mnt/covered"), O_RDONLY));
}

/* Walking up from a file of the tmpfs, its root comes before what it covers. */
TEST_F(mounts, mount_root_rule_is_nearer_than_the_covered_directory_rule)
{
	cover_p_mnt(_metadata, self->base);
	UNVEIL(at(self->base, "view/mnt"), "rw");
	UNVEIL(at(self->base, "p/mnt"), "r");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "p/mnt/file"), O_RDWR));
	EXPECT_EQ(0, open_errno(at(self->base, "p/mnt/file"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "view/mnt/covered"), O_RDWR));
}

TEST_F(mounts, rule_on_a_mount_root_goes_with_the_mount_when_it_is_moved)
{
	int child;

	ASSERT_EQ(0, mount_tmpfs(self->base, "p/mnt", "file"));
	child = start_veiled(false, (const char *[]){
		at(self->base, "p/mnt"), "r", NULL });
	ASSERT_LE(0, child);
	ASSERT_EQ(0, mount(at(self->base, "p/mnt"), at(self->base, "q"), NULL,
			   MS_MOVE, NULL));
	EXPECT_EQ(0, ask(child, VEILED_OPEN, at(self->base, "q/file"),
			 O_RDONLY));
	EXPECT_EQ(EACCES, ask(child, VEILED_OPEN, at(self->base, "q/file"),
			      O_WRONLY));
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPEN, at(self->base,
						     "p/mnt/covered"),
			      O_RDONLY));
}

/*
 * A rule made on the root of a mount holds for whatever is mounted there
 * next, and comes before the rule of the directory it covers.
 */
TEST_F(mounts, rule_on_a_mount_root_holds_for_the_file_system_mounted_next)
{
	char file[PATH_MAX];
	int child;

	keep_path(file, self->base, "p/mnt/file");
	cover_p_mnt(_metadata, self->base);
	child = start_veiled(false, (const char *[]){
		at(self->base, "p/mnt"), "r",
		at(self->base, "view/mnt"), "rw",
		NULL });
	ASSERT_LE(0, child);
	ASSERT_EQ(EACCES, ask(child, VEILED_OPEN, file, O_RDWR));
	EXPECT_EQ(0, umount2(at(self->base, "p/mnt"), 0));
	ASSERT_EQ(0, mount_tmpfs(self->base, "p/mnt", "file"));
	EXPECT_EQ(0, ask(child, VEILED_OPEN, file, O_RDONLY));
	EXPECT_EQ(EACCES, ask(child, VEILED_OPEN, file, O_RDWR));
	EXPECT_EQ(0, ask(child, VEILED_OPEN, at(self->base, "view/mnt/covered"),
			 O_RDWR));
}

/*
 * An administrator who unmounts a file system that a rule hides, and
 * mounts one there again, does not lift the rule.  Meanwhile the
 * directory that was covered is judged as what it is, a directory of the
 * revealed tree: the rule was made on what was mounted on it.
 */
TEST_F(mounts, hiding_rule_on_a_mount_root_holds_when_it_is_mounted_again)
{
	char file[PATH_MAX];
	int child;

	keep_path(file, self->base, "p/mnt/file");
	ASSERT_EQ(0, mount_tmpfs(self->base, "p/mnt", "file"));
	child = start_veiled(false, (const char *[]){
		self->base, "r",
		at(self->base, "p/mnt"), "",
		NULL });
	ASSERT_LE(0, child);
	ASSERT_EQ(ENOENT, ask(child, VEILED_OPEN, file, O_RDONLY));
	EXPECT_EQ(0, umount2(at(self->base, "p/mnt"), 0));
	EXPECT_EQ(0, ask(child, VEILED_OPEN, at(self->base, "p/mnt/covered"),
			 O_RDONLY));
	ASSERT_EQ(0, mount_tmpfs(self->base, "p/mnt", "file"));
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPEN, file, O_RDONLY));
	EXPECT_EQ(ENOENT, ask(child, VEILED_STAT, at(self->base, "p/mnt"), 0));
}

/* With mounts stacked on a directory, the rule holds on each one beneath. */
TEST_F(mounts, hiding_rule_on_stacked_mounts_holds_on_each_one_beneath)
{
	int child;

	ASSERT_EQ(0, mount_tmpfs(self->base, "p/mnt", "lower"));
	ASSERT_EQ(0, mount_tmpfs(self->base, "p/mnt", "upper"));
	child = start_veiled(false, (const char *[]){
		self->base, "r",
		at(self->base, "p/mnt"), "",
		NULL });
	ASSERT_LE(0, child);
	ASSERT_EQ(ENOENT, ask(child, VEILED_OPEN, at(self->base, "p/mnt/upper"),
			      O_RDONLY));
	EXPECT_EQ(0, umount2(at(self->base, "p/mnt"), 0));
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPEN, at(self->base, "p/mnt/lower"),
			      O_RDONLY));
	EXPECT_EQ(0, umount2(at(self->base, "p/mnt"), 0));
	ASSERT_EQ(0, mount_tmpfs(self->base, "p/mnt", "again"));
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPEN, at(self->base, "p/mnt/again"),
			      O_RDONLY));
}

/* The rules shown are those the process made, once each. */
TEST_F(mounts, rule_on_a_mount_root_is_shown_once)
{
	char line[PATH_MAX + 16];
	int child;

	ASSERT_EQ(0, mount_tmpfs(self->base, "p/mnt", "file"));
	child = start_veiled(false, (const char *[]){
		at(self->base, "p/mnt"), "r", NULL });
	ASSERT_LE(0, child);
	snprintf(line, sizeof(line), "rule r \"%s/p/mnt\"\n", self->base);
	EXPECT_EQ(1, count_rules(child, line));
}

/* Remounts and unmounts under a veil */

/* Changing the options of a mount keeps its file system and its rules. */
TEST_F(mounts, rules_hold_across_a_remount_of_their_file_system)
{
	char file[PATH_MAX];
	char mnt[PATH_MAX];
	int child;

	keep_path(file, self->base, "mnt/dir/file");
	keep_path(mnt, self->base, "mnt");
	ASSERT_EQ(0, mount("none", mnt, "tmpfs", 0, NULL));
	ASSERT_EQ(0, mkdir(at(self->base, "mnt/dir"), 0755));
	write_file(file, "x");
	write_file(at(self->base, "mnt/other"), "x");
	child = start_veiled(false, (const char *[]){
		at(self->base, "mnt/dir"), "rw", NULL });
	ASSERT_LE(0, child);
	ASSERT_EQ(0, mount(NULL, mnt, NULL, MS_REMOUNT | MS_RDONLY, NULL));
	EXPECT_EQ(0, ask(child, VEILED_OPEN, file, O_RDONLY));
	EXPECT_EQ(EROFS, ask(child, VEILED_OPEN, file, O_WRONLY));
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPEN, at(self->base, "mnt/other"),
			      O_RDONLY));
	ASSERT_EQ(0, mount(NULL, mnt, NULL, MS_REMOUNT, NULL));
	EXPECT_EQ(0, ask(child, VEILED_OPEN, file, O_WRONLY));
}

/*
 * Rules never keep a file system busy, and vanish with it: mounted again,
 * the same device is a new superblock with new inodes, which no old rule
 * covers, even where they have the same inode numbers.  The child sees
 * there what it sees in any hidden place.
 */
TEST_F(mounts, file_system_mounted_again_is_not_covered_by_its_old_rules)
{
	char file[PATH_MAX];
	char mnt[PATH_MAX];
	int child, kmsg;
	char dev[32], line[PATH_MAX + 16];
	struct stat before, after;

	keep_path(file, self->base, "mnt/dir/file");
	keep_path(mnt, self->base, "mnt");
	if (!mount_ext2(_metadata, self->base, dev, sizeof(dev)))
		return;
	ASSERT_EQ(0, mkdir(at(self->base, "mnt/dir"), 0755));
	write_file(file, "x");
	kmsg = kmsg_from_now();
	child = start_veiled(false, (const char *[]){
		at(self->base, "mnt/dir"), "r", NULL });
	ASSERT_LE(0, child);
	ASSERT_EQ(0, ask(child, VEILED_OPEN, file, O_RDONLY));
	ASSERT_EQ(0, stat(at(self->base, "mnt/dir"), &before));
	snprintf(line, sizeof(line), "rule r \"%s/mnt/dir\"\n", self->base);
	ASSERT_TRUE(has_rule(child, line));
	EXPECT_EQ(0, errno_of(umount2(mnt, 0)));
	EXPECT_FALSE(has_rule(child, line));
	ASSERT_EQ(0, mount(dev, mnt, "ext2", 0, NULL));
	ASSERT_EQ(0, stat(at(self->base, "mnt/dir"), &after));
	ASSERT_EQ(before.st_dev, after.st_dev);
	ASSERT_EQ(before.st_ino, after.st_ino);
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPEN, file, O_RDONLY));
	EXPECT_EQ(ENOENT, ask(child, VEILED_STAT, at(self->base, "mnt/dir"),
			      0));
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPEN, at(self->base, "A/f"),
			      O_RDONLY));
	if (kmsg >= 0)
		EXPECT_FALSE(kmsg_has(kmsg, "Busy inodes"));
}

/*
 * On procfs a rule pins its directory, and with it the file system, which
 * would otherwise make a new directory on the next lookup: unmounting
 * succeeds all the same, and the file system stays active, with the rule
 * on it, until the rule is gone.  procfs mounted again is a new file
 * system, but every instance of procfs is the same for rules: the rule
 * holds there.
 */
TEST_F(mounts, procfs_unmounted_under_a_rule_stays_active_and_its_rule_holds_again)
{
	char file[PATH_MAX], mnt[PATH_MAX], line[PATH_MAX + 16];
	int child;

	keep_path(file, self->base, "mnt/sys/kernel/ostype");
	keep_path(mnt, self->base, "mnt");
	ASSERT_EQ(0, mount("proc", mnt, "proc", 0, NULL));
	child = start_veiled(false, (const char *[]){
		at(self->base, "mnt/sys/kernel"), "r", NULL });
	ASSERT_LE(0, child);
	ASSERT_EQ(0, ask(child, VEILED_OPEN, file, O_RDONLY));
	EXPECT_EQ(0, errno_of(umount2(mnt, 0)));
	snprintf(line, sizeof(line), "rule r \"%s/mnt/sys/kernel\"\n", self->base);
	EXPECT_TRUE(has_rule(child, line));
	ASSERT_EQ(0, mount("proc", mnt, "proc", 0, NULL));
	ASSERT_EQ(0, open_errno(file, O_RDONLY));
	EXPECT_EQ(0, ask(child, VEILED_OPEN, file, O_RDONLY));
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPEN,
			      at(self->base, "mnt/sys/vm/swappiness"),
			      O_RDONLY));
}

/*
 * A lazy unmount while the child holds a directory of the file system
 * open: the file system lives on, detached, and so do its rules, for what
 * the child reaches through that directory; above the root of the detached
 * mount there is nothing, so the rest of it is hidden.
 */
TEST_F(mounts, lazily_unmounted_file_system_keeps_its_rules_while_it_lives)
{
	int child;

	ASSERT_EQ(0, mount("none", at(self->base, "mnt"), "tmpfs", 0, NULL));
	ASSERT_EQ(0, mkdir(at(self->base, "mnt/dir"), 0755));
	write_file(at(self->base, "mnt/dir/file"), "x");
	write_file(at(self->base, "mnt/other"), "x");
	child = start_veiled(false, (const char *[]){
		at(self->base, "mnt/dir"), "r", NULL });
	ASSERT_LE(0, child);
	ASSERT_EQ(0, ask(child, VEILED_HOLD, at(self->base, "mnt/dir"),
			 O_RDONLY | O_DIRECTORY));
	EXPECT_EQ(0, errno_of(umount2(at(self->base, "mnt"), MNT_DETACH)));
	EXPECT_EQ(0, ask(child, VEILED_OPENAT, "file", O_RDONLY));
	EXPECT_EQ(EACCES, ask(child, VEILED_OPENAT, "file", O_WRONLY));
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPENAT, "../other", O_RDONLY));
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPEN,
			      at(self->base, "mnt/dir/file"), O_RDONLY));
}

/*
 * While a lazily unmounted file system lives on (the child holds a file of
 * it open), mounting its device again gives that same file system, with
 * the same inodes and the rules on them.  Once its last user is gone and it
 * is unmounted, it shuts down with its rules: mounted again, it is new.
 */
TEST_F(mounts, device_mounted_again_after_a_lazy_unmount_keeps_its_rules)
{
	char file[PATH_MAX];
	char mnt[PATH_MAX];
	int child, kmsg;
	char dev[32];

	keep_path(file, self->base, "mnt/dir/file");
	keep_path(mnt, self->base, "mnt");
	if (!mount_ext2(_metadata, self->base, dev, sizeof(dev)))
		return;
	ASSERT_EQ(0, mkdir(at(self->base, "mnt/dir"), 0755));
	write_file(file, "x");
	kmsg = kmsg_from_now();
	child = start_veiled(false, (const char *[]){
		at(self->base, "mnt/dir"), "r", NULL });
	ASSERT_LE(0, child);
	ASSERT_EQ(0, ask(child, VEILED_HOLD, file, O_RDONLY));
	EXPECT_EQ(0, errno_of(umount2(mnt, MNT_DETACH)));
	ASSERT_EQ(0, mount(dev, mnt, "ext2", 0, NULL));
	EXPECT_EQ(0, ask(child, VEILED_OPEN, file, O_RDONLY));
	EXPECT_EQ(EACCES, ask(child, VEILED_OPEN, file, O_WRONLY));

	ASSERT_EQ(0, ask(child, VEILED_CLOSE, NULL, 0));
	EXPECT_EQ(0, errno_of(umount2(mnt, 0)));
	ASSERT_EQ(0, mount(dev, mnt, "ext2", 0, NULL));
	ASSERT_EQ(0, open_errno(file, O_RDONLY));
	EXPECT_EQ(ENOENT, ask(child, VEILED_OPEN, file, O_RDONLY));
	if (kmsg >= 0)
		EXPECT_FALSE(kmsg_has(kmsg, "Busy inodes"));
}

TEST_HARNESS_MAIN
