// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - the ancestors of a rule can be inspected, so that
 * realpath(3) works: stat, lstat, fstatat, statx, readlink and
 * access(F_OK) succeed on every real ancestor of a rule's target and on
 * every directory and symlink the path given to unveil() names on the way;
 * nothing else does.
 *
 * Every test builds its own tree under a fresh directory in /tmp, the
 * common one (make_test_tree()) and a symlink:
 *   a/f1  a/f2  a/sub/f3  a/empty/  b/f4  link -> a
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "../kselftest_harness.h"
#include "common.h"

FIXTURE(tree) {
	char base[64];
};

FIXTURE_SETUP(tree)
{
	ASSERT_EQ(0, make_test_tree(self->base, sizeof(self->base)));
	ASSERT_EQ(0, symlink("a", at(self->base, "link")));
}

/* In the parent, which has no veil. */
FIXTURE_TEARDOWN_PARENT(tree)
{
	EXPECT_EQ(0, remove_tree(self->base));
}

/* errno of each way to inspect @path, 0 if all succeed, or the first. */
static int inspect_errno(const char *path)
{
	struct statx stx;
	struct stat st;

	if (stat(path, &st) || lstat(path, &st) ||
	    fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) ||
	    statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx) ||
	    access(path, F_OK))
		return errno;
	return 0;
}

static int open_errno_at(int dirfd, const char *path, int flags)
{
	int fd = openat(dirfd, path, flags);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* name_to_handle_at() of the directory a descriptor holds: -1 or 0. */
static int name_to_handle_at_errno(int fd)
{
	struct {
		struct file_handle handle;
		unsigned char bytes[MAX_HANDLE_SZ];
	} buf = { .handle.handle_bytes = MAX_HANDLE_SZ };
	int mount_id;

	return name_to_handle_at(fd, "", &buf.handle, &mount_id,
				 AT_EMPTY_PATH);
}

TEST_F(tree, realpath_of_a_visible_file_works_under_hidden_ancestors)
{
	char resolved[PATH_MAX];

	UNVEIL(at(self->base, "a/sub"), "r");
	ASSERT_NE(NULL, realpath(at(self->base, "a/sub/f3"), resolved));
	EXPECT_STREQ(at(self->base, "a/sub/f3"), resolved);
	EXPECT_EQ(NULL, realpath(at(self->base, "b/f4"), resolved));
	EXPECT_EQ(ENOENT, errno);
}

TEST_F(tree, ancestors_can_be_inspected)
{
	UNVEIL(at(self->base, "a/sub"), "r");
	EXPECT_EQ(0, inspect_errno(at(self->base, "a")));
	EXPECT_EQ(0, inspect_errno(self->base));
	EXPECT_EQ(0, inspect_errno("/tmp"));
	EXPECT_EQ(0, inspect_errno("/"));
}

/* Inspecting is all: no open, listing, chdir, xattr or access(R_OK). */
TEST_F(tree, ancestors_stay_hidden_for_anything_else)
{
	char value[8];

	UNVEIL(at(self->base, "a/sub"), "r");
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b"), O_PATH));
	EXPECT_EQ(ENOENT, errno_of(chdir(at(self->base, "a"))));
	EXPECT_EQ(ENOENT, errno_of(access(at(self->base, "a"), R_OK)));
	EXPECT_EQ(ENOENT, errno_of(getxattr(at(self->base, "a"), "user.x",
					    value, sizeof(value))));
	EXPECT_EQ(ENOENT, errno_of(chmod(at(self->base, "a"), 0700)));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/f1"), O_RDONLY));
	EXPECT_EQ(ENOENT, inspect_errno(at(self->base, "a/f1")));
}

/*
 * An O_PATH descriptor reads and changes nothing by itself (Debian's rsync
 * opens / so and walks down with openat()): an ancestor may be held so,
 * and everything done through the descriptor is judged by the path of
 * what it reaches.
 */
TEST_F(tree, ancestors_can_be_held_with_o_path)
{
	struct stat st;
	int fd;

	UNVEIL(at(self->base, "a/sub"), "r");
	fd = open("/", O_PATH | O_DIRECTORY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, errno_of(fstat(fd, &st)));
	close(fd);
	fd = open(at(self->base, "a"), O_PATH | O_DIRECTORY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, open_errno_at(fd, "sub/f3", O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno_at(fd, "f1", O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno_at(fd, "../b/f4", O_RDONLY));
	close(fd);
}

/* What the attacker can try on such a descriptor: nothing reaches further. */
TEST_F(tree, o_path_descriptor_of_an_ancestor_gives_nothing_more)
{
	char proc_fd[32], value[8];
	int fd, inotify;
	const int cwd = open(".", O_PATH | O_DIRECTORY);

	ASSERT_LE(0, cwd);
	UNVEIL(at(self->base, "a/sub"), "r");
	fd = open(at(self->base, "a"), O_PATH | O_DIRECTORY);
	ASSERT_LE(0, fd);
	snprintf(proc_fd, sizeof(proc_fd), "/proc/self/fd/%d", fd);
	EXPECT_EQ(ENOENT, open_errno(proc_fd, O_RDONLY | O_DIRECTORY));
	EXPECT_EQ(ENOENT, errno_of(getxattr(proc_fd, "user.x", value,
					    sizeof(value))));
	EXPECT_EQ(ENOENT, errno_of(listxattr(proc_fd, value, sizeof(value))));
	EXPECT_EQ(ENOENT, errno_of(fchownat(fd, "", 0, 0, AT_EMPTY_PATH)));
	EXPECT_EQ(ENOENT, errno_of(utimensat(fd, "", NULL, AT_EMPTY_PATH)));
	EXPECT_EQ(ENOENT, errno_of(chmod(proc_fd, 0700)));
	EXPECT_EQ(ENOENT, errno_of(mkdirat(fd, "new", 0700)));
	EXPECT_EQ(ENOENT, errno_of(linkat(fd, "f1", fd, "f1.link", 0)));
	EXPECT_EQ(EPERM, errno_of(name_to_handle_at_errno(fd)));
	inotify = inotify_init1(IN_CLOEXEC);
	ASSERT_LE(0, inotify);
	EXPECT_EQ(ENOENT, errno_of(inotify_add_watch(inotify, proc_fd,
						     IN_CREATE)));
	close(inotify);
	ASSERT_EQ(0, fchdir(fd));
	EXPECT_EQ(ENOENT, open_errno(".", O_RDONLY | O_DIRECTORY));
	EXPECT_EQ(ENOENT, open_errno("f1", O_RDONLY));
	EXPECT_EQ(0, open_errno("sub/f3", O_RDONLY));
	ASSERT_EQ(0, fchdir(cwd));
	close(cwd);
	close(fd);
}

TEST_F(tree, siblings_of_ancestors_stay_hidden)
{
	UNVEIL(at(self->base, "a/sub"), "r");
	EXPECT_EQ(ENOENT, inspect_errno(at(self->base, "b")));
	EXPECT_EQ(ENOENT, inspect_errno(at(self->base, "b/f4")));
	EXPECT_EQ(ENOENT, inspect_errno(at(self->base, "link")));
}

TEST_F(tree, parent_of_a_name_rule_can_be_inspected)
{
	UNVEIL(at(self->base, "a/f1"), "r");
	EXPECT_EQ(0, inspect_errno(at(self->base, "a")));
	EXPECT_EQ(0, inspect_errno(self->base));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a"), O_RDONLY));
	EXPECT_EQ(ENOENT, inspect_errno(at(self->base, "a/sub")));
}

/* A directory hidden by its own rule is not its own ancestor. */
TEST_F(tree, hidden_target_of_a_rule_cannot_be_inspected)
{
	UNVEIL(self->base, "r");
	UNVEIL(at(self->base, "a"), "");
	EXPECT_EQ(ENOENT, inspect_errno(at(self->base, "a")));
	EXPECT_EQ(0, inspect_errno(at(self->base, "b")));
}

TEST_F(tree, symlink_on_the_way_can_be_inspected)
{
	char target[8] = "";
	char resolved[PATH_MAX];

	UNVEIL(at(self->base, "link/sub"), "r");
	EXPECT_EQ(0, inspect_errno(at(self->base, "link")));
	EXPECT_EQ(1, readlink(at(self->base, "link"), target, sizeof(target)));
	EXPECT_STREQ("a", target);
	ASSERT_NE(NULL, realpath(at(self->base, "link/sub/f3"), resolved));
	EXPECT_STREQ(at(self->base, "a/sub/f3"), resolved);
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "link"), O_RDONLY));
}

TEST_F(tree, directory_named_on_the_way_can_be_inspected)
{
	UNVEIL(at(self->base, "b/../a/sub"), "r");
	EXPECT_EQ(0, inspect_errno(at(self->base, "b")));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b"), O_RDONLY));
	EXPECT_EQ(ENOENT, inspect_errno(at(self->base, "b/f4")));
}

TEST_F(tree, relative_unveil_makes_the_ancestors_inspectable)
{
	ASSERT_EQ(0, chdir(self->base));
	UNVEIL("a/sub", "r");
	EXPECT_EQ(0, inspect_errno(at(self->base, "a")));
	EXPECT_EQ(0, inspect_errno(self->base));
	EXPECT_EQ(0, inspect_errno("a"));
	EXPECT_EQ(ENOENT, inspect_errno("b"));
}

/*
 * The ancestors are directories, not names: they follow renames.  The
 * child unveils a/sub, then its parent renames a to z.
 */
TEST_F(tree, renamed_ancestor_stays_inspectable)
{
	int veiled[2], renamed[2], status;
	char resolved[PATH_MAX], c;
	pid_t child;

	ASSERT_EQ(0, pipe(veiled));
	ASSERT_EQ(0, pipe(renamed));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (unveil_errno(at(self->base, "a/sub"), "r") ||
		    write(veiled[1], "v", 1) != 1 || read(renamed[0], &c, 1) != 1)
			_exit(1);
		if (inspect_errno(at(self->base, "z")) ||
		    inspect_errno(at(self->base, "a")) != ENOENT)
			_exit(2);
		if (!realpath(at(self->base, "z/sub/f3"), resolved) ||
		    strcmp(resolved, at(self->base, "z/sub/f3")))
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(1, read(veiled[0], &c, 1));
	ASSERT_EQ(0, rename(at(self->base, "a"), at(self->base, "z")));
	ASSERT_EQ(1, write(renamed[1], "r", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(tree, ancestors_across_a_mount_point_can_be_inspected)
{
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_EQ(0, mount("none", at(self->base, "b"), "tmpfs", 0, NULL));
	ASSERT_EQ(0, mkdir(at(self->base, "b/d"), 0755));
	UNVEIL(at(self->base, "b/d"), "r");
	EXPECT_EQ(0, inspect_errno(at(self->base, "b")));
	EXPECT_EQ(0, inspect_errno(self->base));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b"), O_RDONLY));
	EXPECT_EQ(ENOENT, inspect_errno(at(self->base, "a")));
}

TEST_HARNESS_MAIN
