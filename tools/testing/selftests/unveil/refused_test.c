// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - a call that the veil refuses changes nothing: no file,
 * directory or name is left behind, no data or attribute changed.
 *
 * Each case runs the call in a veiled child and looks at the result from
 * the unveiled test process: the child cannot see what it may have left in
 * a place its veil hides.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "../kselftest_harness.h"
#include "common.h"
#include "ring.h"

/* Runs @call(@arg) in a child veiled by @rule with @perms; its errno. */
static int in_veil(const char *rule, const char *perms,
		   int (*call)(const void *arg), const void *arg)
{
	int status;
	pid_t child = fork();

	if (child == 0) {
		if (unveil_errno(rule, perms) || unveil_errno(NULL, NULL))
			_exit(255);
		_exit(call(arg));
	}
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

FIXTURE(dir) {
	char base[64];
};

FIXTURE_SETUP(dir)
{
	ASSERT_EQ(0, make_test_dir(self->base, sizeof(self->base)));
	ASSERT_EQ(0, mkdir(at(self->base, "d"), 0755));
	write_file(at(self->base, "d/file"), "data");
}

FIXTURE_TEARDOWN_PARENT(dir)
{
	EXPECT_EQ(0, remove_tree(self->base));
}

/* open(O_CREAT) in all its forms */

/* How a test creates the file. */
enum open_call { BY_OPEN, BY_OPENAT2, BY_URING_OPENAT, BY_URING_OPENAT2 };

FIXTURE_VARIANT(dir) {
	enum open_call call;
};

FIXTURE_VARIANT_ADD(dir, open) { .call = BY_OPEN };
FIXTURE_VARIANT_ADD(dir, openat2) { .call = BY_OPENAT2 };
FIXTURE_VARIANT_ADD(dir, io_uring_openat) { .call = BY_URING_OPENAT };
FIXTURE_VARIANT_ADD(dir, io_uring_openat2) { .call = BY_URING_OPENAT2 };

struct open_args {
	enum open_call call;
	const char *path;
	int flags;
};

static int open_by(const void *arg)
{
	const struct open_args *const a = arg;
	struct open_how how = {
		.flags = a->flags,
		.mode = a->flags & (O_CREAT | __O_TMPFILE) ? 0600 : 0,
	};
	struct io_uring_sqe sqe = {
		.fd = AT_FDCWD,
		.addr = (unsigned long)a->path,
	};
	struct ring ring;
	int fd;

	switch (a->call) {
	case BY_OPEN:
		fd = open(a->path, a->flags, 0600);
		break;
	case BY_OPENAT2:
		fd = syscall(SYS_openat2, AT_FDCWD, a->path, &how, sizeof(how));
		break;
	default:
		if (ring_init(&ring, 0))
			return 254;
		if (a->call == BY_URING_OPENAT) {
			sqe.opcode = IORING_OP_OPENAT;
			sqe.open_flags = a->flags;
			sqe.len = 0600;
		} else {
			sqe.opcode = IORING_OP_OPENAT2;
			sqe.addr2 = (unsigned long)&how;
			sqe.len = sizeof(how);
		}
		return ring_run(&ring, &sqe);
	}
	return fd < 0 ? errno : 0;
}

/* Letters of "rwc" in bit order r=1, w=2, c=4. */
static const char *letters(int set)
{
	static char buf[4];
	char *p = buf;

	if (set & 1)
		*p++ = 'r';
	if (set & 2)
		*p++ = 'w';
	if (set & 4)
		*p++ = 'c';
	*p = '\0';
	return buf;
}

/* Letters an open with @flags needs, as a set for letters(). */
static int needs(int flags)
{
	int set = 4;

	if ((flags & O_ACCMODE) != O_WRONLY)
		set |= 1;
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC))
		set |= 2;
	return set;
}

/*
 * Every permission set, on the directory and on the name, with every way to
 * create: the call succeeds exactly when the rule holds what the open needs,
 * and a refused call leaves no file.
 */
TEST_F(dir, refused_open_o_creat_creates_nothing)
{
	static const int flag_sets[] = {
		O_RDONLY | O_CREAT, O_WRONLY | O_CREAT, O_RDWR | O_CREAT,
		O_WRONLY | O_CREAT | O_EXCL, O_RDWR | O_CREAT | O_EXCL,
		O_WRONLY | O_CREAT | O_TRUNC, O_RDONLY | O_CREAT | O_TRUNC,
	};
	struct open_args args = { .call = variant->call };
	int by_name, set, i, want, got;
	char dir[128], name[128];

	/* at() returns one of four buffers: keep these. */
	snprintf(dir, sizeof(dir), "%s", at(self->base, "d"));
	snprintf(name, sizeof(name), "%s", at(self->base, "d/new"));
	args.path = name;

	for (by_name = 0; by_name < 2; by_name++) {
		for (set = 0; set < 8; set++) {
			for (i = 0; i < ARRAY_SIZE(flag_sets); i++) {
				args.flags = flag_sets[i];
				if ((set & needs(args.flags)) == needs(args.flags))
					want = 0;
				else if (!set && !by_name)
					want = ENOENT;
				else
					want = EACCES;
				got = in_veil(by_name ? name : dir,
					      letters(set), open_by, &args);
				EXPECT_EQ(want, got)
					TH_LOG("%s rule \"%s\", flags %#o",
					       by_name ? "name" : "directory",
					       letters(set), args.flags);
				EXPECT_EQ(!want, exists(name))
					TH_LOG("%s rule \"%s\", flags %#o",
					       by_name ? "name" : "directory",
					       letters(set), args.flags);
				unlink(name);
			}
		}
	}
}

/* An existing file is opened, not created: O_CREAT still needs 'c'. */
TEST_F(dir, refused_open_o_creat_of_an_existing_file_changes_nothing)
{
	struct open_args args = {
		.call = variant->call,
		.path = at(self->base, "d/file"),
		.flags = O_WRONLY | O_CREAT | O_TRUNC,
	};
	struct stat st;

	EXPECT_EQ(EACCES, in_veil(at(self->base, "d"), "rw", open_by, &args));
	ASSERT_EQ(0, stat(args.path, &st));
	EXPECT_EQ(4, st.st_size);
}

TEST_F(dir, refused_o_trunc_keeps_the_data)
{
	struct open_args args = {
		.call = variant->call,
		.path = at(self->base, "d/file"),
		.flags = O_RDONLY | O_TRUNC,
	};
	struct stat st;

	EXPECT_EQ(EACCES, in_veil(at(self->base, "d"), "rc", open_by, &args));
	ASSERT_EQ(0, stat(args.path, &st));
	EXPECT_EQ(4, st.st_size);
}

/*
 * A file that its own rule lets the process only read, reached by a name
 * not in the dentry cache in a directory that lets it write: NFS (in the
 * file-system matrix) opens and creates by name in ->atomic_open(), and
 * would empty the file there before the open is judged.
 */
TEST_F(dir, refused_o_trunc_of_a_name_not_in_the_cache_keeps_the_data)
{
	struct open_args args = {
		.call = variant->call,
		.path = at(self->base, "d/link"),
		.flags = O_WRONLY | O_CREAT | O_TRUNC,
	};
	struct stat st;
	pid_t child;

	ASSERT_EQ(0, link(at(self->base, "d/file"), args.path));
	/* Drops the unused dentries, "d/link" among them. */
	if (write_text("/proc/sys/vm/drop_caches", "2"))
		SKIP(return, "the dentry cache cannot be dropped here");
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (unveil_errno(at(self->base, "d"), "rwc") ||
		    unveil_errno(at(self->base, "d/file"), "r"))
			_exit(255);
		_exit(open_by(&args));
	}
	EXPECT_EQ(EACCES, exit_status_of(child));
	ASSERT_EQ(0, stat(args.path, &st));
	EXPECT_EQ(4, st.st_size);
}

/* Number of entries in @path besides "." and "..", or -1. */
static int entries(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_DIRECTORY), count = 0;
	long len, pos;

	if (fd < 0)
		return -1;
	while ((len = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (pos = 0; pos < len;
		     pos += ((unsigned short *)(buf + pos + 16))[0])
			count++;
	close(fd);
	return count - 2;
}

TEST_F(dir, refused_o_tmpfile_leaves_no_file)
{
	struct open_args args = {
		.call = variant->call,
		.path = at(self->base, "d"),
		.flags = O_RDWR | O_TMPFILE,
	};

	EXPECT_EQ(EACCES, in_veil(at(self->base, "d"), "rw", open_by, &args));
	EXPECT_EQ(1, entries(at(self->base, "d")));
	EXPECT_EQ(0, in_veil(at(self->base, "d"), "rwc", open_by, &args));
}

/* The other calls that make, remove or change something */

static int mkdir_new(const void *path)
{
	return errno_of(mkdir(at(path, "new"), 0755));
}

static int mkfifo_new(const void *path)
{
	return errno_of(mkfifo(at(path, "new"), 0600));
}

static int symlink_new(const void *path)
{
	return errno_of(symlink("file", at(path, "new")));
}

static int link_new(const void *path)
{
	return errno_of(link(at(path, "file"), at(path, "new")));
}

static int rename_to_new(const void *path)
{
	return errno_of(rename(at(path, "file"), at(path, "new")));
}

static int bind_new(const void *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", at(path, "new"));
	return errno_of(bind(fd, (struct sockaddr *)&addr, sizeof(addr)));
}

TEST_F(dir, refused_creations_leave_no_name)
{
	int (*const calls[])(const void *) = {
		mkdir_new, mkfifo_new, symlink_new, link_new, rename_to_new,
		bind_new,
	};
	const char *d = at(self->base, "d");
	char dir[128];
	int i;

	snprintf(dir, sizeof(dir), "%s", d);
	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		EXPECT_EQ(EACCES, in_veil(dir, "rw", calls[i], dir))
			TH_LOG("call %d", i);
		EXPECT_FALSE(exists(at(dir, "new"))) TH_LOG("call %d", i);
		EXPECT_TRUE(exists(at(dir, "file"))) TH_LOG("call %d", i);
	}
}

static int unlink_file(const void *path)
{
	return errno_of(unlink(at(path, "file")));
}

static int truncate_file(const void *path)
{
	return errno_of(truncate(at(path, "file"), 0));
}

static int chmod_file(const void *path)
{
	return errno_of(chmod(at(path, "file"), 0600));
}

static int utimes_file(const void *path)
{
	return errno_of(utimensat(AT_FDCWD, at(path, "file"), NULL, 0));
}

static int setxattr_file(const void *path)
{
	return errno_of(setxattr(at(path, "file"), "user.x", "v", 1, 0));
}

TEST_F(dir, refused_changes_leave_the_file_as_it_was)
{
	int (*const calls[])(const void *) = {
		unlink_file, truncate_file, chmod_file, utimes_file,
		setxattr_file,
	};
	const char *file = at(self->base, "d/file");
	char dir[128], value[4];
	struct stat before, after;
	int i;

	snprintf(dir, sizeof(dir), "%s", at(self->base, "d"));
	ASSERT_EQ(0, stat(file, &before));
	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		EXPECT_EQ(EACCES, in_veil(dir, "r", calls[i], dir))
			TH_LOG("call %d", i);
		ASSERT_EQ(0, stat(file, &after)) TH_LOG("call %d", i);
		EXPECT_EQ(before.st_size, after.st_size);
		EXPECT_EQ(before.st_mode, after.st_mode);
		EXPECT_EQ(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
		EXPECT_EQ(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
		EXPECT_EQ(ENODATA, getxattr(file, "user.x", value,
					    sizeof(value)) < 0 ? errno : 0);
	}
}

TEST_HARNESS_MAIN
