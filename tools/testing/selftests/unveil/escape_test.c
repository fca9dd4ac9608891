// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - escapes: ways to reach, from inside a veil, what it
 * hides or forbids.  Each test attacks from inside a veil, most of them
 * locked, and checks the exact error; where it can, it first shows that
 * the same call works without the veil, so that it fails on a kernel that
 * lacks the defence.
 *
 * Every test builds its own tree (make_test_tree()) under a fresh
 * directory in /tmp:
 *   a/f1  a/f2  a/sub/f3  a/empty/
 *   b/f4
 * and runs in its own process (the harness forks), so the veil it drops
 * goes away with it; the parent removes the tree.  Mostly a is unveiled
 * and b stays hidden.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/fanotify.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "common.h"
#include "ring.h"

/* How long a race runs once veiled, and at most before the veil. */
#define RACE_SECONDS 1.0
#define WARMUP_SECONDS 2.0

FIXTURE(tree) {
	char base[64];
};

FIXTURE_SETUP(tree)
{
	ASSERT_EQ(0, make_test_tree(self->base, sizeof(self->base)));
}

/* In the parent, which has no veil. */
FIXTURE_TEARDOWN_PARENT(tree)
{
	EXPECT_EQ(0, remove_tree(self->base));
}

/* errno of openat(@dirfd, @path, @flags), 0 on success (the file is closed). */
static int openat_errno(int dirfd, const char *path, int flags)
{
	int fd = openat(dirfd, path, flags);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Kills @child; returns its wait status. */
static int reap(pid_t child)
{
	int status = 0;

	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	return status;
}

/* openat2(2): the veil judges where the file is, whatever the flags */

FIXTURE(openat2) {
	char base[64];
	int dirfd;
};

FIXTURE_VARIANT(openat2) {
	__u64 resolve;
};

FIXTURE_VARIANT_ADD(openat2, resolve_no_xdev) {
	.resolve = RESOLVE_NO_XDEV,
};

FIXTURE_VARIANT_ADD(openat2, resolve_no_magiclinks) {
	.resolve = RESOLVE_NO_MAGICLINKS,
};

FIXTURE_VARIANT_ADD(openat2, resolve_no_symlinks) {
	.resolve = RESOLVE_NO_SYMLINKS,
};

FIXTURE_VARIANT_ADD(openat2, resolve_beneath) {
	.resolve = RESOLVE_BENEATH,
};

FIXTURE_VARIANT_ADD(openat2, resolve_in_root) {
	.resolve = RESOLVE_IN_ROOT,
};

FIXTURE_VARIANT_ADD(openat2, resolve_cached) {
	.resolve = RESOLVE_CACHED,
};

/* The dirfd is the (hidden) base directory, opened before the veil. */
FIXTURE_SETUP(openat2)
{
	ASSERT_EQ(0, make_test_tree(self->base, sizeof(self->base)));
	self->dirfd = open(self->base, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, self->dirfd);
}

FIXTURE_TEARDOWN_PARENT(openat2)
{
	EXPECT_EQ(0, remove_tree(self->base));
}

/* errno of openat2(), 0 on success (the file is closed again). */
static int openat2_errno(int dirfd, const char *path, __u64 flags,
			 __u64 resolve)
{
	struct open_how how = { .flags = flags, .resolve = resolve };
	int fd = syscall(__NR_openat2, dirfd, path, &how, sizeof(how));

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

TEST_F(openat2, does_not_reach_a_hidden_file)
{
	ASSERT_EQ(0, openat2_errno(self->dirfd, "b/f4", O_RDONLY,
				   variant->resolve));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, openat2_errno(self->dirfd, "b/f4", O_RDONLY,
					variant->resolve));
}

TEST_F(openat2, does_not_write_a_read_only_file)
{
	ASSERT_EQ(0, openat2_errno(self->dirfd, "a/f1", O_WRONLY,
				   variant->resolve));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(EACCES, openat2_errno(self->dirfd, "a/f1", O_WRONLY,
					variant->resolve));
	EXPECT_EQ(0, openat2_errno(self->dirfd, "a/f1", O_RDONLY,
				   variant->resolve));
}

TEST_F(tree, openat2_resolve_in_root_of_a_hidden_dirfd_reaches_nothing)
{
	int root = open(at(self->base, "b"), O_RDONLY | O_DIRECTORY);

	ASSERT_LE(0, root);
	ASSERT_EQ(0, openat2_errno(root, "/f4", O_RDONLY, RESOLVE_IN_ROOT));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, openat2_errno(root, "/f4", O_RDONLY,
					RESOLVE_IN_ROOT));
	EXPECT_EQ(ENOENT, openat2_errno(root, "/", O_RDONLY, RESOLVE_IN_ROOT));
}

/* execveat(2): x where the program is, also by a descriptor */

/* Copies the probe helper to @path, executable; 0 on success. */
static int copy_probe(const char *path)
{
	char probe[PATH_MAX], buf[65536];
	int in, out, err = 0;
	ssize_t len;

	helper_path(probe, sizeof(probe), "probe");
	in = open(probe, O_RDONLY);
	if (in < 0)
		return -1;
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((len = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, len) != len)
			err = -1;
	if (len < 0)
		err = -1;
	close(in);
	close(out);
	return err;
}

/*
 * Runs "probe unveil NULL NULL" with execveat(@dirfd, @path, ..., @flags) in
 * a child: returns 0 if the probe ran (it only locks its veil), the errno of
 * a failed execveat(), or -1.
 */
static int execveat_probe(int dirfd, const char *path, int flags)
{
	char *const argv[] = { "probe", "unveil", "NULL", "NULL", NULL };
	char *const envp[] = { NULL };
	int status;
	pid_t child = fork();

	if (child == 0) {
		syscall(__NR_execveat, dirfd, path, argv, envp, flags);
		_exit(errno);
	}
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST_F(tree, execveat_by_a_dirfd_opened_before_the_veil_is_judged_in_place)
{
	int dirfd = open(at(self->base, "b"), O_RDONLY | O_DIRECTORY);

	ASSERT_LE(0, dirfd);
	ASSERT_EQ(0, copy_probe(at(self->base, "b/probe")));
	ASSERT_EQ(0, execveat_probe(dirfd, "probe", 0));
	UNVEIL(at(self->base, "a"), "rx");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, execveat_probe(dirfd, "probe", 0));
}

TEST_F(tree, execveat_empty_path_of_an_o_path_fd_of_a_hidden_program_is_enoent)
{
	int fd;

	ASSERT_EQ(0, copy_probe(at(self->base, "b/probe")));
	fd = open(at(self->base, "b/probe"), O_PATH);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, execveat_probe(fd, "", AT_EMPTY_PATH));
	UNVEIL(at(self->base, "a"), "rx");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, execveat_probe(fd, "", AT_EMPTY_PATH));
}

TEST_F(tree, execveat_empty_path_of_an_open_fd_of_a_hidden_program_is_enoent)
{
	int fd;

	ASSERT_EQ(0, copy_probe(at(self->base, "b/probe")));
	fd = open(at(self->base, "b/probe"), O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, execveat_probe(fd, "", AT_EMPTY_PATH));
	UNVEIL(at(self->base, "a"), "rx");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, execveat_probe(fd, "", AT_EMPTY_PATH));
}

TEST_F(tree, execveat_of_a_visible_program_without_x_is_eacces)
{
	int dirfd = open(at(self->base, "b"), O_RDONLY | O_DIRECTORY);
	int fd, path_fd;

	ASSERT_LE(0, dirfd);
	ASSERT_EQ(0, copy_probe(at(self->base, "b/probe")));
	fd = open(at(self->base, "b/probe"), O_RDONLY);
	ASSERT_LE(0, fd);
	path_fd = open(at(self->base, "b/probe"), O_PATH);
	ASSERT_LE(0, path_fd);
	ASSERT_EQ(0, execveat_probe(dirfd, "probe", 0));
	UNVEIL(at(self->base, "b"), "rwc");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(EACCES, execveat_probe(dirfd, "probe", 0));
	EXPECT_EQ(EACCES, execveat_probe(fd, "", AT_EMPTY_PATH));
	EXPECT_EQ(EACCES, execveat_probe(path_fd, "", AT_EMPTY_PATH));
}

/* O_TMPFILE, then linkat(): the new name is judged like any link */

static int link_by_empty_path(int fd, const char *to)
{
	return errno_of(linkat(fd, "", AT_FDCWD, to, AT_EMPTY_PATH));
}

static int link_by_proc_fd(int fd, const char *to)
{
	char magic[64];

	snprintf(magic, sizeof(magic), "/proc/self/fd/%d", fd);
	return errno_of(linkat(AT_FDCWD, magic, AT_FDCWD, to,
			       AT_SYMLINK_FOLLOW));
}

FIXTURE(tmpfile) {
	char base[64];
};

/* The two ways to give an O_TMPFILE file a name. */
FIXTURE_VARIANT(tmpfile) {
	int (*link)(int fd, const char *to);
};

FIXTURE_VARIANT_ADD(tmpfile, by_empty_path) {
	.link = link_by_empty_path,
};

FIXTURE_VARIANT_ADD(tmpfile, by_proc_fd) {
	.link = link_by_proc_fd,
};

FIXTURE_SETUP(tmpfile)
{
	ASSERT_EQ(0, make_test_tree(self->base, sizeof(self->base)));
}

FIXTURE_TEARDOWN_PARENT(tmpfile)
{
	EXPECT_EQ(0, remove_tree(self->base));
}

static int open_tmpfile(const char *dir)
{
	return open(dir, O_TMPFILE | O_RDWR, 0755);
}

TEST_F(tmpfile, linked_into_a_hidden_directory_is_enoent)
{
	int fd = open_tmpfile(at(self->base, "a"));

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, variant->link(fd, at(self->base, "b/before")));
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(NULL, NULL);
	fd = open_tmpfile(at(self->base, "a"));
	ASSERT_LE(0, fd);
	EXPECT_EQ(ENOENT, variant->link(fd, at(self->base, "b/t")));
	EXPECT_EQ(0, variant->link(fd, at(self->base, "a/t")));
}

/*
 * A program written where it may not run must not be linked where it may:
 * the link would give it x, which it did not have (EXDEV, as rename).
 */
TEST_F(tmpfile, linked_where_it_may_run_is_exdev)
{
	int fd;

	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(at(self->base, "b"), "rwxc");
	UNVEIL(NULL, NULL);
	fd = open_tmpfile(at(self->base, "a"));
	ASSERT_LE(0, fd);
	EXPECT_EQ(EXDEV, variant->link(fd, at(self->base, "b/t")));
	EXPECT_EQ(0, variant->link(fd, at(self->base, "a/t")));
}

/* Magic links in /proc: judged where they lead */

TEST_F(tree, proc_pid_root_of_a_process_with_the_same_veil_shows_only_the_veil)
{
	char hidden[PATH_MAX], visible[PATH_MAX];
	pid_t child;

	snprintf(hidden, sizeof(hidden), "/proc/self/root%s",
		 at(self->base, "b/f4"));
	ASSERT_EQ(0, open_errno(hidden, O_RDONLY));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	child = spawn_sleeper();
	ASSERT_LT(0, child);
	snprintf(hidden, sizeof(hidden), "/proc/%d/root%s", child,
		 at(self->base, "b/f4"));
	snprintf(visible, sizeof(visible), "/proc/%d/root%s", child,
		 at(self->base, "a/f1"));
	EXPECT_EQ(0, open_errno(visible, O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(hidden, O_RDONLY));
	reap(child);
}

/*
 * /proc follows the root and cwd links only for a process the caller may
 * ptrace, and a veiled process may not ptrace one that is not veiled as
 * strictly: EACCES, before the file is judged.
 */
TEST_F(tree, proc_pid_root_of_an_unveiled_process_is_eacces)
{
	char hidden[PATH_MAX];
	pid_t child = spawn_sleeper();

	ASSERT_LT(0, child);
	snprintf(hidden, sizeof(hidden), "/proc/%d/root%s", child,
		 at(self->base, "b/f4"));
	ASSERT_EQ(0, open_errno(hidden, O_RDONLY));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(EACCES, open_errno(hidden, O_RDONLY));
	reap(child);
}

TEST_F(tree, proc_pid_cwd_of_a_process_with_the_same_veil_shows_only_the_veil)
{
	char cwd[64], file[64];
	pid_t child;

	ASSERT_EQ(0, chdir(at(self->base, "b")));
	ASSERT_EQ(0, open_errno("/proc/self/cwd/f4", O_RDONLY));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	child = spawn_sleeper();
	ASSERT_LT(0, child);
	snprintf(cwd, sizeof(cwd), "/proc/%d/cwd", child);
	snprintf(file, sizeof(file), "/proc/%d/cwd/f4", child);
	EXPECT_EQ(ENOENT, open_errno(file, O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(cwd, O_RDONLY | O_DIRECTORY));
	reap(child);
}

TEST_F(tree, proc_pid_cwd_of_an_unveiled_process_is_eacces)
{
	char file[64];
	pid_t child;

	ASSERT_EQ(0, chdir(at(self->base, "b")));
	child = spawn_sleeper();
	ASSERT_LT(0, child);
	snprintf(file, sizeof(file), "/proc/%d/cwd/f4", child);
	ASSERT_EQ(0, open_errno(file, O_RDONLY));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(EACCES, open_errno(file, O_RDONLY));
	reap(child);
}

TEST_F(tree, proc_self_cwd_in_a_hidden_directory_gives_nothing)
{
	ASSERT_EQ(0, chdir(at(self->base, "b")));
	ASSERT_EQ(0, open_errno("/proc/self/cwd/f4", O_RDONLY));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, open_errno("/proc/self/cwd/f4", O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno("/proc/self/cwd", O_RDONLY | O_DIRECTORY));
}

TEST_F(tree, proc_self_map_files_of_a_hidden_file_mapped_before_is_enoent)
{
	const long page = sysconf(_SC_PAGESIZE);
	int fd = open(at(self->base, "b/f4"), O_RDONLY);
	char magic[64];
	char *map;

	ASSERT_LE(0, fd);
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	close(fd);
	snprintf(magic, sizeof(magic), "/proc/self/map_files/%lx-%lx",
		 (unsigned long)map, (unsigned long)map + page);
	ASSERT_EQ(0, open_errno(magic, O_RDONLY));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, open_errno(magic, O_RDONLY));
	/* The mapping itself stays readable: mmap() is never judged. */
	EXPECT_EQ(0, memcmp(map, "f4", 2));
}

/* O_PATH descriptors opened before the veil */

TEST_F(tree, o_path_dirfd_opened_before_the_veil_does_not_open_hidden_names)
{
	int dirfd = open(at(self->base, "b"), O_PATH | O_DIRECTORY);
	struct stat st;

	ASSERT_LE(0, dirfd);
	ASSERT_EQ(0, openat_errno(dirfd, "f4", O_RDONLY));
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, openat_errno(dirfd, "f4", O_RDONLY));
	EXPECT_EQ(ENOENT, errno_of(fstatat(dirfd, "f4", &st, 0)));
	EXPECT_EQ(0, openat_errno(dirfd, "../a/f1", O_RDONLY));
}

TEST_F(tree, o_path_dirfd_opened_before_the_veil_does_not_add_or_remove_names)
{
	int dirfd = open(at(self->base, "b"), O_PATH | O_DIRECTORY);

	ASSERT_LE(0, dirfd);
	ASSERT_EQ(0, mkdirat(dirfd, "before", 0755));
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, errno_of(mkdirat(dirfd, "d", 0755)));
	EXPECT_EQ(ENOENT, errno_of(symlinkat("f4", dirfd, "l")));
	EXPECT_EQ(ENOENT, errno_of(unlinkat(dirfd, "f4", 0)));
	EXPECT_EQ(ENOENT, errno_of(unlinkat(dirfd, "before", AT_REMOVEDIR)));
	EXPECT_EQ(0, errno_of(mkdirat(dirfd, "../a/d", 0755)));
}

TEST_F(tree, o_path_dirfd_opened_before_the_veil_does_not_rename_names)
{
	int dirfd = open(at(self->base, "b"), O_PATH | O_DIRECTORY);

	ASSERT_LE(0, dirfd);
	ASSERT_EQ(0, renameat(dirfd, "f4", dirfd, "g"));
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, errno_of(renameat(dirfd, "g", dirfd, "f4")));
	EXPECT_EQ(ENOENT, errno_of(renameat(dirfd, "g", AT_FDCWD,
					    at(self->base, "a/g"))));
	EXPECT_EQ(ENOENT, errno_of(renameat(AT_FDCWD, at(self->base, "a/f1"),
					    dirfd, "f1")));
	EXPECT_EQ(0, errno_of(renameat(dirfd, "../a/f1", dirfd, "../a/f5")));
}

/*
 * The AT_EMPTY_PATH forms on an O_PATH descriptor are judged like the path
 * it stands for (Documentation/userspace-api/unveil.rst): stat needs r.
 * The descriptor is one of the hidden b/f4, opened before the veil.
 */
FIXTURE(empty_path) {
	char base[64];
	int fd;
};

/* One inspection of the file behind @fd: its errno, 0 on success. */
FIXTURE_VARIANT(empty_path) {
	int (*inspect)(int fd);
};

static int fstatat_empty_path(int fd)
{
	struct stat st;

	return errno_of(fstatat(fd, "", &st, AT_EMPTY_PATH));
}

static int fstatat_empty_path_nofollow(int fd)
{
	struct stat st;

	return errno_of(fstatat(fd, "", &st,
				AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW));
}

static int statx_empty_path(int fd)
{
	struct statx stx;

	return errno_of(statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
}

/* A NULL path with AT_EMPTY_PATH, which the C library does not pass on. */
static int statx_null_path(int fd)
{
	struct statx stx;

	return errno_of(syscall(__NR_statx, fd, NULL, AT_EMPTY_PATH,
				STATX_BASIC_STATS, &stx));
}

static int faccessat2_empty_path(int fd)
{
	return errno_of(syscall(__NR_faccessat2, fd, "", R_OK, AT_EMPTY_PATH));
}

FIXTURE_VARIANT_ADD(empty_path, fstatat) {
	.inspect = fstatat_empty_path,
};

FIXTURE_VARIANT_ADD(empty_path, fstatat_nofollow) {
	.inspect = fstatat_empty_path_nofollow,
};

FIXTURE_VARIANT_ADD(empty_path, statx) {
	.inspect = statx_empty_path,
};

FIXTURE_VARIANT_ADD(empty_path, statx_null_path) {
	.inspect = statx_null_path,
};

FIXTURE_VARIANT_ADD(empty_path, faccessat2) {
	.inspect = faccessat2_empty_path,
};

FIXTURE_SETUP(empty_path)
{
	ASSERT_EQ(0, make_test_tree(self->base, sizeof(self->base)));
	self->fd = open(at(self->base, "b/f4"), O_PATH);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN_PARENT(empty_path)
{
	EXPECT_EQ(0, remove_tree(self->base));
}

TEST_F(empty_path, of_an_o_path_fd_of_a_hidden_file_is_enoent)
{
	ASSERT_EQ(0, variant->inspect(self->fd));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, variant->inspect(self->fd));
}

TEST_F(tree, fstatat_empty_path_of_an_o_path_fd_needs_r)
{
	struct stat st;
	int fd;

	UNVEIL(at(self->base, "a"), "x");
	fd = open(at(self->base, "a/f1"), O_PATH);
	ASSERT_LE(0, fd);
	EXPECT_EQ(EACCES, errno_of(fstatat(fd, "", &st, AT_EMPTY_PATH)));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, errno_of(fstatat(fd, "", &st, AT_EMPTY_PATH)));
}

/* Descriptors received over SCM_RIGHTS from a process without a veil */

/*
 * Forks a process without a veil that, once it reads a byte from @sock,
 * opens @path with @flags and sends the descriptor back over @sock.
 */
static pid_t fork_opener(int sock, const char *path, int flags)
{
	pid_t child = fork();
	char c;
	int fd;

	if (child == 0) {
		if (read(sock, &c, 1) != 1)
			_exit(1);
		fd = open(path, flags);
		_exit(fd < 0 || send_fd(sock, fd) ? 1 : 0);
	}
	return child;
}

/* Asks the opener at the other end of @sock for its descriptor. */
static int fd_from_opener(int sock, pid_t opener)
{
	int fd, status;

	if (write(sock, "g", 1) != 1)
		return -1;
	fd = recv_fd(sock);
	if (waitpid(opener, &status, 0) != opener || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return fd;
}

TEST_F(tree, fd_received_over_scm_rights_stays_usable)
{
	int sock[2], fd;
	char buf[8];
	pid_t opener;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sock));
	opener = fork_opener(sock[1], at(self->base, "b/f4"), O_RDONLY);
	ASSERT_LT(0, opener);
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	ASSERT_EQ(ENOENT, open_errno(at(self->base, "b/f4"), O_RDONLY));
	fd = fd_from_opener(sock[0], opener);
	ASSERT_LE(0, fd);
	EXPECT_EQ(2, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(0, memcmp(buf, "f4", 2));
}

TEST_F(tree, dirfd_received_over_scm_rights_does_not_reach_hidden_names)
{
	int sock[2], dirfd;
	struct stat st;
	pid_t opener;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sock));
	opener = fork_opener(sock[1], at(self->base, "b"),
			     O_RDONLY | O_DIRECTORY);
	ASSERT_LT(0, opener);
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	dirfd = fd_from_opener(sock[0], opener);
	ASSERT_LE(0, dirfd);
	EXPECT_EQ(0, fstat(dirfd, &st));
	EXPECT_EQ(ENOENT, openat_errno(dirfd, "f4", O_RDONLY));
	EXPECT_EQ(ENOENT, errno_of(fstatat(dirfd, "f4", &st, 0)));
	/* fchdir() is never judged, but the new cwd gives nothing either. */
	EXPECT_EQ(0, fchdir(dirfd));
	EXPECT_EQ(ENOENT, open_errno("f4", O_RDONLY));
}

/*
 * Mounts made before the veil, in a mount namespace of the test's own: a
 * file is judged where it is in the mount tree, crossing mount points, so
 * a mount shows what it covers under the rules of where it is mounted; a
 * directory's own rule follows it wherever it is mounted.
 */

static void private_mounts(struct __test_metadata *const _metadata)
{
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
}

TEST_F(tree, bind_mount_of_a_hidden_directory_is_judged_where_it_is_mounted)
{
	private_mounts(_metadata);
	ASSERT_EQ(0, mount(at(self->base, "b"), at(self->base, "a/empty"),
			   NULL, MS_BIND, NULL));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(0, open_errno(at(self->base, "a/empty/f4"), O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/empty/f4"), O_WRONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b/f4"), O_RDONLY));
}

TEST_F(tree, bind_mount_does_not_show_a_directory_hidden_by_its_own_rule)
{
	private_mounts(_metadata);
	ASSERT_EQ(0, mount(at(self->base, "b"), at(self->base, "a/empty"),
			   NULL, MS_BIND, NULL));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(at(self->base, "b"), "");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/empty/f4"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/empty"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_RDONLY));
}

TEST_F(tree, bind_mount_of_a_visible_directory_in_a_hidden_place_is_hidden)
{
	private_mounts(_metadata);
	ASSERT_EQ(0, mkdir(at(self->base, "b/mnt"), 0755));
	ASSERT_EQ(0, mount(at(self->base, "a/sub"), at(self->base, "b/mnt"),
			   NULL, MS_BIND, NULL));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b/mnt/f3"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/sub/f3"), O_RDONLY));
}

/*
 * Unveils a rwc and a/sub with @perms in a child, then mounts a tmpfs
 * holding the file f on a/sub, and lets the child try to open f for
 * reading and to create a file there.  Returns the child's exit status:
 * the errno of the read, times 16, plus the errno of the creation.
 */
static int try_mount_on_covered_dir(struct __test_metadata *const _metadata,
				    const char *base, const char *perms)
{
	int veiled[2], mounted[2], status;
	pid_t child;
	char c;

	private_mounts(_metadata);
	ASSERT_EQ(0, pipe(veiled));
	ASSERT_EQ(0, pipe(mounted));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (unveil_errno(at(base, "a"), "rwc") ||
		    unveil_errno(at(base, "a/sub"), perms) ||
		    unveil_errno(NULL, NULL) || write(veiled[1], "v", 1) != 1 ||
		    read(mounted[0], &c, 1) != 1)
			_exit(255);
		_exit(open_errno(at(base, "a/sub/f"), O_RDONLY) << 4 |
		      open_errno(at(base, "a/sub/new"), O_WRONLY | O_CREAT));
	}
	ASSERT_EQ(1, read(veiled[0], &c, 1));
	ASSERT_EQ(0, mount("none", at(base, "a/sub"), "tmpfs", 0, NULL));
	write_file(at(base, "a/sub/f"), "f");
	ASSERT_EQ(1, write(mounted[1], "m", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(ENOENT, access(at(base, "a/sub/new"), F_OK) ? errno : 0);
	return WEXITSTATUS(status);
}

TEST_F(tree, file_system_mounted_later_on_a_hidden_directory_stays_hidden)
{
	EXPECT_EQ(ENOENT << 4 | ENOENT,
		  try_mount_on_covered_dir(_metadata, self->base, ""));
}

TEST_F(tree, file_system_mounted_later_on_a_read_only_directory_stays_read_only)
{
	EXPECT_EQ(0 << 4 | EACCES,
		  try_mount_on_covered_dir(_metadata, self->base, "r"));
}

/* A read-only overlay of @lower and an empty directory c, on @target. */
static int mount_overlay(const char *base, const char *lower,
			 const char *target)
{
	char options[256];

	if (mkdir(at(base, "c"), 0755))
		return -1;
	snprintf(options, sizeof(options), "lowerdir=%s:%s", at(base, lower),
		 at(base, "c"));
	return mount("overlay", at(base, target), "overlay", 0, options);
}

TEST_F(tree, overlay_of_a_hidden_lower_directory_is_judged_where_it_is_mounted)
{
	char buf[8];

	private_mounts(_metadata);
	ASSERT_EQ(0, mount_overlay(self->base, "b", "a/empty"));
	ASSERT_EQ(0, read_at(AT_FDCWD, at(self->base, "a/empty/f4"), buf,
			     sizeof(buf)));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(0, read_at(AT_FDCWD, at(self->base, "a/empty/f4"), buf,
			     sizeof(buf)));
	EXPECT_STREQ("f4", buf);
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b/f4"), O_RDONLY));
}

TEST_F(tree, overlay_copy_up_of_a_hidden_lower_file_is_judged_where_it_is_mounted)
{
	char options[512];
	int fd;

	private_mounts(_metadata);
	ASSERT_EQ(0, mkdir(at(self->base, "a/upper"), 0755));
	ASSERT_EQ(0, mkdir(at(self->base, "a/work"), 0755));
	snprintf(options, sizeof(options), "lowerdir=%s,upperdir=%s,workdir=%s",
		 at(self->base, "b"), at(self->base, "a/upper"),
		 at(self->base, "a/work"));
	ASSERT_EQ(0, mount("overlay", at(self->base, "a/empty"), "overlay", 0,
			   options));
	UNVEIL(at(self->base, "a/empty"), "rw");
	UNVEIL(NULL, NULL);
	/* Writing copies f4 up from the hidden lower into the upper layer. */
	fd = open(at(self->base, "a/empty/f4"), O_WRONLY | O_APPEND);
	ASSERT_LE(0, fd);
	EXPECT_EQ(1, write(fd, "!", 1));
	close(fd);
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/upper/f4"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b/f4"), O_WRONLY));
}

TEST_F(tree, fanotify_event_of_an_overlay_layer_gives_no_descriptor)
{
	struct fanotify_event_metadata event[4];
	const char *merged = at(self->base, "a/empty");
	int fan;

	private_mounts(_metadata);
	ASSERT_EQ(0, mount_overlay(self->base, "b", "a/empty"));
	fan = fanotify_init(FAN_CLASS_NOTIF | FAN_NONBLOCK, O_RDONLY);
	ASSERT_LE(0, fan);
	ASSERT_EQ(0, fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN | FAN_ONDIR,
				   AT_FDCWD, at(self->base, "b")));
	/*
	 * Reading the overlay's directory opens its layer b on the overlay's
	 * private mount, and fanotify hands out a descriptor of that.
	 */
	ASSERT_EQ(0, open_errno(merged, O_RDONLY | O_DIRECTORY));
	ASSERT_LT(0, read(fan, event, sizeof(event)));
	ASSERT_LE(0, event[0].fd);
	close(event[0].fd);
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	ASSERT_EQ(0, open_errno(merged, O_RDONLY | O_DIRECTORY));
	/* The layer is hidden from us: reading the event fails with that. */
	EXPECT_EQ(ENOENT, errno_of(read(fan, event, sizeof(event))));
}

/*
 * An overlay on a/empty of the hidden lower layer b and the hidden upper
 * layer c/upper, with a fanotify group that reports opens of both layers:
 * reading the overlay's directory opens them on its private mounts.
 */
static int overlay_with_watched_layers(struct __test_metadata *const _metadata,
				       const char *base)
{
	char options[512];
	int fan;

	private_mounts(_metadata);
	ASSERT_EQ(0, mkdir(at(base, "c"), 0755));
	ASSERT_EQ(0, mkdir(at(base, "c/upper"), 0755));
	ASSERT_EQ(0, mkdir(at(base, "c/work"), 0755));
	snprintf(options, sizeof(options), "lowerdir=%s,upperdir=%s,workdir=%s",
		 at(base, "b"), at(base, "c/upper"), at(base, "c/work"));
	ASSERT_EQ(0, mount("overlay", at(base, "a/empty"), "overlay", 0,
			   options));
	fan = fanotify_init(FAN_CLASS_NOTIF | FAN_NONBLOCK, O_RDONLY);
	ASSERT_LE(0, fan);
	ASSERT_EQ(0, fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN | FAN_ONDIR,
				   AT_FDCWD, at(base, "b")));
	ASSERT_EQ(0, fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN | FAN_ONDIR,
				   AT_FDCWD, at(base, "c/upper")));
	return fan;
}

/* Lists the overlay on a/empty: its layers are opened and reported. */
static void list_overlay(struct __test_metadata *const _metadata,
			 const char *base)
{
	char buf[1024];
	int fd = open(at(base, "a/empty"), O_RDONLY | O_DIRECTORY);

	ASSERT_LE(0, fd);
	ASSERT_LT(0, syscall(SYS_getdents64, fd, buf, sizeof(buf)));
	close(fd);
}

/* Inode number of @path, 0 if it has none. */
static ino_t ino_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

/*
 * Keeps the descriptors of the lower layer b and the upper layer c/upper
 * among the @len bytes of @events in *@lower and *@upper (-1 if absent),
 * closes the others; returns how many events carried a descriptor.
 */
static int keep_layer_fds(const char *base, struct fanotify_event_metadata *events,
			  ssize_t len, int *lower, int *upper)
{
	const ino_t lower_ino = ino_of(at(base, "b"));
	const ino_t upper_ino = ino_of(at(base, "c/upper"));
	struct fanotify_event_metadata *event;
	int count = 0;
	struct stat st;

	*lower = *upper = -1;
	for (event = events; FAN_EVENT_OK(event, len);
	     event = FAN_EVENT_NEXT(event, len)) {
		if (event->fd < 0)
			continue;
		count++;
		if (!fstat(event->fd, &st) && st.st_ino == lower_ino &&
		    *lower < 0)
			*lower = event->fd;
		else if (!fstat(event->fd, &st) && st.st_ino == upper_ino &&
			 *upper < 0)
			*upper = event->fd;
		else
			close(event->fd);
	}
	return count;
}

/* Descriptors of both layers, from events read before the veil. */
static void layer_fds_before_the_veil(struct __test_metadata *const _metadata,
				      const char *base, int fan, int *lower,
				      int *upper)
{
	struct fanotify_event_metadata events[8];
	ssize_t len;

	list_overlay(_metadata, base);
	len = read(fan, events, sizeof(events));
	ASSERT_LT(0, len);
	keep_layer_fds(base, events, len, lower, upper);
	ASSERT_LE(0, *lower);
	ASSERT_LE(0, *upper);
}

/*
 * Credentials other than the process's own are no pass through the
 * layers: an io_uring personality, registered before the process changed
 * its credentials, would read the events for a locked veil's process; it
 * is refused.
 */
TEST_F(tree, layers_reported_to_an_io_uring_personality_give_no_descriptor)
{
	struct fanotify_event_metadata events[8];
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_READ,
		.addr = (unsigned long)events,
		.len = sizeof(events),
	};
	struct ring ring;
	int lower, upper;

	sqe.fd = overlay_with_watched_layers(_metadata, self->base);
	ASSERT_EQ(0, ring_init(&ring, 0));
	sqe.personality = ring_register_personality(&ring);
	ASSERT_LT(0, sqe.personality);
	ASSERT_EQ(0, drop_an_effective_capability());
	list_overlay(_metadata, self->base);
	ASSERT_EQ(0, ring_run(&ring, &sqe));
	ASSERT_LT(0, keep_layer_fds(self->base, events, ring.res, &lower,
				    &upper));
	ASSERT_LE(0, lower);
	ASSERT_LE(0, upper);
	close(lower);
	close(upper);
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	list_overlay(_metadata, self->base);
	EXPECT_EQ(EPERM, ring_run(&ring, &sqe));
	sqe.flags = IOSQE_ASYNC;
	list_overlay(_metadata, self->base);
	EXPECT_EQ(EPERM, ring_run(&ring, &sqe));
}

/*
 * With a layer's descriptor from before the veil, an io_uring personality
 * of other credentials would read a hidden lower file or create one in the
 * hidden upper layer: it is refused.
 */
TEST_F(tree, layer_descriptor_under_an_io_uring_personality_is_judged)
{
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_OPENAT,
		.addr = (unsigned long)"f4",
		.open_flags = O_RDONLY,
	};
	struct ring ring;
	int fan, lower, upper;

	fan = overlay_with_watched_layers(_metadata, self->base);
	layer_fds_before_the_veil(_metadata, self->base, fan, &lower, &upper);
	ASSERT_EQ(0, ring_init(&ring, 0));
	sqe.personality = ring_register_personality(&ring);
	ASSERT_LT(0, sqe.personality);
	ASSERT_EQ(0, drop_an_effective_capability());
	sqe.fd = lower;
	ASSERT_EQ(0, ring_run(&ring, &sqe));
	close(ring.res);
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(EPERM, ring_run(&ring, &sqe));
	sqe.fd = upper;
	sqe.addr = (unsigned long)"new";
	sqe.open_flags = O_WRONLY | O_CREAT;
	sqe.len = 0644;
	EXPECT_EQ(EPERM, ring_run(&ring, &sqe));
	/* Had it been made in the upper layer, the overlay would show it. */
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/empty/new"), O_RDONLY));
}

/* Nor are the credentials that faccessat() runs with. */
TEST_F(tree, layer_descriptor_under_access_credentials_is_judged)
{
	int fan, layer, upper;

	fan = overlay_with_watched_layers(_metadata, self->base);
	layer_fds_before_the_veil(_metadata, self->base, fan, &layer, &upper);
	ASSERT_EQ(0, drop_an_effective_capability());
	ASSERT_EQ(0, errno_of(faccessat(layer, "f4", F_OK, 0)));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, errno_of(faccessat(layer, "f4", F_OK, 0)));
	EXPECT_EQ(ENOENT, errno_of(faccessat(layer, "f4", R_OK, 0)));
}

/*
 * A layer reached outside its overlay is judged by the rules on its real
 * ancestors.  (The lower layer's private mount is read-only: writing there
 * fails with EROFS before any check.)
 */
TEST_F(tree, layer_descriptor_is_judged_by_the_rules_on_the_layer)
{
	int fan, lower, upper;

	fan = overlay_with_watched_layers(_metadata, self->base);
	layer_fds_before_the_veil(_metadata, self->base, fan, &lower, &upper);
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(at(self->base, "b"), "r");
	UNVEIL(at(self->base, "c"), "rw");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(0, openat_errno(lower, "f4", O_RDONLY));
	EXPECT_EQ(EACCES, openat_errno(upper, "new", O_WRONLY | O_CREAT));
}

TEST_F(tree, overlay_in_a_hidden_place_of_a_visible_lower_directory_is_hidden)
{
	private_mounts(_metadata);
	ASSERT_EQ(0, mkdir(at(self->base, "b/mnt"), 0755));
	ASSERT_EQ(0, mount_overlay(self->base, "a/sub", "b/mnt"));
	ASSERT_EQ(0, open_errno(at(self->base, "b/mnt/f3"), O_RDONLY));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b/mnt/f3"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/sub/f3"), O_RDONLY));
}

/*
 * Races, each bounded in time.  Before the veil, each race runs until it
 * reached the hidden file once (at most WARMUP_SECONDS), which shows that
 * it can; once veiled, it runs RACE_SECONDS and must never reach it.
 */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What the opens of a race found. */
struct race_reads {
	long visible;	/* the content of the visible file */
	long hidden;	/* the content of the hidden file */
	long enoent;
	long other;	/* any other error or content */
};

/* One thread opening @path relative to @dirfd and reading it, until @until. */
struct opener {
	int dirfd;
	char path[PATH_MAX];
	const char *visible, *hidden;
	double until;
	bool stop_at_hidden;
	struct race_reads *reads;
};

static void *open_until(void *arg)
{
	struct opener *op = arg;
	char buf[16];
	long *count;
	int err;

	while (now() < op->until) {
		err = read_at(op->dirfd, op->path, buf, sizeof(buf));
		if (err == ENOENT)
			count = &op->reads->enoent;
		else if (!err && !strcmp(buf, op->hidden))
			count = &op->reads->hidden;
		else if (!err && !strcmp(buf, op->visible))
			count = &op->reads->visible;
		else
			count = &op->reads->other;
		__atomic_add_fetch(count, 1, __ATOMIC_RELAXED);
		if (op->stop_at_hidden &&
		    __atomic_load_n(&op->reads->hidden, __ATOMIC_RELAXED))
			break;
	}
	return NULL;
}

/* Runs @count openers in threads until @until; 0 on success. */
static int run_openers(struct opener *ops, int count, double until,
		       bool stop_at_hidden)
{
	pthread_t threads[4];
	int i, err = 0;

	memset(ops[0].reads, 0, sizeof(*ops[0].reads));
	for (i = 0; i < count; i++) {
		ops[i].until = until;
		ops[i].stop_at_hidden = stop_at_hidden;
		if (pthread_create(&threads[i], NULL, open_until, &ops[i]))
			return -1;
	}
	for (i = 0; i < count; i++)
		err |= pthread_join(threads[i], NULL);
	return err;
}

struct exchanger {
	char path1[PATH_MAX], path2[PATH_MAX];
	bool stop;
};

static void *exchange_until_stopped(void *arg)
{
	struct exchanger *ex = arg;

	while (!__atomic_load_n(&ex->stop, __ATOMIC_RELAXED))
		renameat2(AT_FDCWD, ex->path1, AT_FDCWD, ex->path2,
			  RENAME_EXCHANGE);
	return NULL;
}

/*
 * a/link points to the visible a/f1 or to the hidden b/f4, swapped by a
 * thread of the veiled process itself: an open through a/link must only
 * ever read a/f1.
 */
TEST_F(tree, symlink_swapped_during_open_never_reaches_its_hidden_target)
{
	struct race_reads reads;
	struct opener op = {
		.dirfd = AT_FDCWD,
		.visible = "f1",
		.hidden = "f4",
		.reads = &reads,
	};
	struct exchanger ex = {};
	pthread_t thread;

	snprintf(op.path, sizeof(op.path), "%s", at(self->base, "a/link"));
	snprintf(ex.path1, sizeof(ex.path1), "%s", at(self->base, "a/link"));
	snprintf(ex.path2, sizeof(ex.path2), "%s", at(self->base, "a/other"));
	ASSERT_EQ(0, symlink("f1", ex.path1));
	ASSERT_EQ(0, symlink("../b/f4", ex.path2));
	ASSERT_EQ(0, pthread_create(&thread, NULL, exchange_until_stopped,
				    &ex));
	ASSERT_EQ(0, run_openers(&op, 1, now() + WARMUP_SECONDS, true));
	EXPECT_LT(0, reads.hidden);
	UNVEIL(at(self->base, "a"), "rc");
	UNVEIL(NULL, NULL);
	ASSERT_EQ(0, run_openers(&op, 1, now() + RACE_SECONDS, false));
	__atomic_store_n(&ex.stop, true, __ATOMIC_RELAXED);
	ASSERT_EQ(0, pthread_join(thread, NULL));
	EXPECT_EQ(0, reads.hidden);
	EXPECT_LT(0, reads.visible);
	EXPECT_LT(0, reads.enoent);
	EXPECT_EQ(0, reads.other);
}

static int exchange(const char *path1, const char *path2)
{
	return renameat2(AT_FDCWD, path1, AT_FDCWD, path2, RENAME_EXCHANGE);
}

/*
 * Forks a process without a veil that moves directory a/d to b/d and back,
 * for ever; while d is in b, it swaps d/secret with b/h and back.  So the
 * file that starts as b/h is in the hidden b at every instant, while the
 * check of an open may walk up from it as d moves.
 */
static pid_t fork_renamer(const char *base)
{
	char in_a[PATH_MAX], in_b[PATH_MAX], secret[PATH_MAX], h[PATH_MAX];
	pid_t child;

	snprintf(in_a, sizeof(in_a), "%s", at(base, "a/d"));
	snprintf(in_b, sizeof(in_b), "%s", at(base, "b/d"));
	snprintf(secret, sizeof(secret), "%s", at(base, "b/d/secret"));
	snprintf(h, sizeof(h), "%s", at(base, "b/h"));
	child = fork();
	if (child == 0) {
		for (;;) {
			if (rename(in_a, in_b))
				_exit(1);
			/* On failure, stop with b/h's file still in b. */
			if (exchange(secret, h) || exchange(secret, h))
				_exit(1);
			if (rename(in_b, in_a))
				_exit(1);
		}
	}
	return child;
}

TEST_F(tree, directory_moved_during_open_never_reveals_a_hidden_file)
{
	struct race_reads reads;
	struct opener ops[2] = {
		{ .path = "secret", .visible = "visible", .hidden = "hidden",
		  .reads = &reads },
		{ .dirfd = AT_FDCWD, .visible = "visible", .hidden = "hidden",
		  .reads = &reads },
	};
	pid_t renamer;
	int status;

	ASSERT_EQ(0, mkdir(at(self->base, "a/d"), 0755));
	write_file(at(self->base, "a/d/secret"), "visible");
	write_file(at(self->base, "b/h"), "hidden");
	snprintf(ops[1].path, sizeof(ops[1].path), "%s",
		 at(self->base, "a/d/secret"));
	/* d moves, but this descriptor follows it. */
	ops[0].dirfd = open(at(self->base, "a/d"), O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, ops[0].dirfd);
	renamer = fork_renamer(self->base);
	ASSERT_LT(0, renamer);
	ASSERT_EQ(0, run_openers(ops, 2, now() + WARMUP_SECONDS, true));
	EXPECT_LT(0, reads.hidden);
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(NULL, NULL);
	ASSERT_EQ(0, run_openers(ops, 2, now() + RACE_SECONDS, false));
	status = reap(renamer);
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(0, reads.hidden);
	EXPECT_LT(0, reads.visible);
	EXPECT_LT(0, reads.enoent);
	EXPECT_EQ(0, reads.other);
}

/* Threads created while the first unveil() runs */

#define CLONE_RACE_THREADS 256
#define THREADS_AFTER_UNVEIL 16

struct clone_race {
	const char *hidden;
	bool unveiled, done;
	int created;
	long escaped;
	pthread_t threads[CLONE_RACE_THREADS];
};

/* Once unveil() returned, a new thread must not open the hidden file. */
static void *open_hidden_once_unveiled(void *arg)
{
	struct clone_race *race = arg;

	while (!__atomic_load_n(&race->unveiled, __ATOMIC_ACQUIRE))
		sched_yield();
	if (open_errno(race->hidden, O_RDONLY) != ENOENT)
		__atomic_add_fetch(&race->escaped, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* Creates threads until THREADS_AFTER_UNVEIL began after unveil(). */
static void *create_threads(void *arg)
{
	struct clone_race *race = arg;
	int after = 0;

	while (race->created < CLONE_RACE_THREADS &&
	       after < THREADS_AFTER_UNVEIL) {
		if (__atomic_load_n(&race->unveiled, __ATOMIC_ACQUIRE))
			after++;
		if (pthread_create(&race->threads[race->created], NULL,
				   open_hidden_once_unveiled, race))
			break;
		__atomic_add_fetch(&race->created, 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&race->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Unveils @dir while another thread creates threads; returns the number of
 * threads that opened @hidden after unveil() returned, or -1.
 */
static int clone_race(const char *dir, const char *hidden)
{
	struct clone_race race = { .hidden = hidden };
	pthread_t creator;
	int i;

	if (pthread_create(&creator, NULL, create_threads, &race))
		return -1;
	while (__atomic_load_n(&race.created, __ATOMIC_ACQUIRE) < 4 &&
	       !__atomic_load_n(&race.done, __ATOMIC_ACQUIRE))
		sched_yield();
	if (unveil_errno(dir, "r"))
		return -1;
	__atomic_store_n(&race.unveiled, true, __ATOMIC_RELEASE);
	pthread_join(creator, NULL);
	for (i = 0; i < race.created; i++)
		pthread_join(race.threads[i], NULL);
	return race.escaped;
}

TEST_F(tree, threads_created_during_the_first_unveil_are_veiled)
{
	double until = now() + RACE_SECONDS;
	int status;
	pid_t child;

	ASSERT_EQ(0, open_errno(at(self->base, "b/f4"), O_RDONLY));
	do {
		/* Each round in a new process, to race with its first unveil. */
		child = fork();
		ASSERT_LE(0, child);
		if (child == 0)
			_exit(clone_race(at(self->base, "a"),
					 at(self->base, "b/f4")));
		ASSERT_EQ(child, waitpid(child, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status));
	} while (now() < until);
}

TEST_HARNESS_MAIN
