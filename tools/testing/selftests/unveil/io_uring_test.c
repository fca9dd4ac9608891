// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - io_uring requests that name files by path are judged
 * like the system calls they stand for.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>

#include "../kselftest_harness.h"
#include "common.h"
#include "ring.h"

FIXTURE(ring) {
	char base[64];
	struct ring ring;
};

FIXTURE_SETUP(ring)
{
	ASSERT_EQ(0, make_test_dir(self->base, sizeof(self->base)));
	ASSERT_EQ(0, mkdir(at(self->base, "a"), 0755));
	ASSERT_EQ(0, mkdir(at(self->base, "b"), 0755));
	ASSERT_EQ(0, open_errno(at(self->base, "a/f"), O_CREAT | O_WRONLY));
	ASSERT_EQ(0, open_errno(at(self->base, "b/f"), O_CREAT | O_WRONLY));
	ASSERT_EQ(0, setxattr(at(self->base, "a/f"), "user.x", "v", 1, 0));
	ASSERT_EQ(0, mkdir(at(self->base, "a/d"), 0755));
	ASSERT_EQ(0, mkdir(at(self->base, "b/d"), 0755));
	ASSERT_EQ(0, ring_init(&self->ring, 0));
}

/* In the parent, which has no veil. */
FIXTURE_TEARDOWN_PARENT(ring)
{
	EXPECT_EQ(0, remove_tree(self->base));
}

static int uring_xattr(struct ring *ring, int op, const char *path,
		       char *value, size_t size)
{
	const struct io_uring_sqe sqe = {
		.opcode = op,
		.addr = (unsigned long)"user.x",
		.addr2 = (unsigned long)value,
		.addr3 = (unsigned long)path,
		.len = size,
	};

	return ring_run(ring, &sqe);
}

TEST_F(ring, getxattr_needs_r)
{
	char value[8];

	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(EACCES, uring_xattr(&self->ring, IORING_OP_GETXATTR,
				      at(self->base, "a/f"), value,
				      sizeof(value)));
	EXPECT_EQ(ENOENT, uring_xattr(&self->ring, IORING_OP_GETXATTR,
				      at(self->base, "b/f"), value,
				      sizeof(value)));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, uring_xattr(&self->ring, IORING_OP_GETXATTR,
				 at(self->base, "a/f"), value, sizeof(value)));
}

TEST_F(ring, setxattr_needs_w)
{
	char value[] = "w";

	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, uring_xattr(&self->ring, IORING_OP_SETXATTR,
				      at(self->base, "a/f"), value, 1));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(0, uring_xattr(&self->ring, IORING_OP_SETXATTR,
				 at(self->base, "a/f"), value, 1));
}

static int uring_openat(struct ring *ring, const char *path, int flags,
			__u8 sqe_flags)
{
	const struct io_uring_sqe sqe = {
		.opcode = IORING_OP_OPENAT,
		.flags = sqe_flags,
		.fd = AT_FDCWD,
		.addr = (unsigned long)path,
		.len = 0644,
		.open_flags = flags,
	};

	return ring_run(ring, &sqe);
}

TEST_F(ring, openat_needs_r)
{
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(ENOENT, uring_openat(&self->ring, at(self->base, "b/f"),
				       O_RDONLY, 0));
	EXPECT_EQ(EACCES, uring_openat(&self->ring, at(self->base, "a/f"),
				       O_RDONLY, 0));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, uring_openat(&self->ring, at(self->base, "a/f"),
				  O_RDONLY, 0));
}

TEST_F(ring, openat_with_o_creat_needs_c)
{
	const int flags = O_WRONLY | O_CREAT;

	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(ENOENT, uring_openat(&self->ring, at(self->base, "b/new"),
				       flags, 0));
	EXPECT_EQ(EACCES, uring_openat(&self->ring, at(self->base, "a/new"),
				       flags, 0));
	UNVEIL(at(self->base, "a"), "wc");
	EXPECT_EQ(0, uring_openat(&self->ring, at(self->base, "a/new"),
				  flags, 0));
}

static int uring_openat2(struct ring *ring, const char *path, int flags)
{
	const struct open_how how = { .flags = flags };
	const struct io_uring_sqe sqe = {
		.opcode = IORING_OP_OPENAT2,
		.fd = AT_FDCWD,
		.addr = (unsigned long)path,
		.addr2 = (unsigned long)&how,
		.len = sizeof(how),
	};

	return ring_run(ring, &sqe);
}

TEST_F(ring, openat2_needs_w)
{
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(ENOENT, uring_openat2(&self->ring, at(self->base, "b/f"),
					O_WRONLY));
	EXPECT_EQ(EACCES, uring_openat2(&self->ring, at(self->base, "a/f"),
					O_WRONLY));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(0, uring_openat2(&self->ring, at(self->base, "a/f"),
				   O_WRONLY));
}

static int uring_statx(struct ring *ring, const char *path)
{
	struct statx stx;
	const struct io_uring_sqe sqe = {
		.opcode = IORING_OP_STATX,
		.fd = AT_FDCWD,
		.addr = (unsigned long)path,
		.addr2 = (unsigned long)&stx,
		.len = STATX_BASIC_STATS,
	};

	return ring_run(ring, &sqe);
}

TEST_F(ring, statx_needs_r)
{
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(ENOENT, uring_statx(&self->ring, at(self->base, "b/f")));
	EXPECT_EQ(EACCES, uring_statx(&self->ring, at(self->base, "a/f")));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, uring_statx(&self->ring, at(self->base, "a/f")));
}

static int uring_mkdirat(struct ring *ring, const char *path)
{
	const struct io_uring_sqe sqe = {
		.opcode = IORING_OP_MKDIRAT,
		.fd = AT_FDCWD,
		.addr = (unsigned long)path,
		.len = 0755,
	};

	return ring_run(ring, &sqe);
}

TEST_F(ring, mkdirat_needs_c)
{
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(ENOENT, uring_mkdirat(&self->ring, at(self->base, "b/new")));
	EXPECT_EQ(EACCES, uring_mkdirat(&self->ring, at(self->base, "a/new")));
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(0, uring_mkdirat(&self->ring, at(self->base, "a/new")));
}

static int uring_renameat(struct ring *ring, const char *from, const char *to)
{
	const struct io_uring_sqe sqe = {
		.opcode = IORING_OP_RENAMEAT,
		.fd = AT_FDCWD,
		.addr = (unsigned long)from,
		.len = AT_FDCWD,
		.addr2 = (unsigned long)to,
	};

	return ring_run(ring, &sqe);
}

TEST_F(ring, renameat_needs_r_and_c)
{
	UNVEIL(at(self->base, "a"), "rc");
	EXPECT_EQ(ENOENT, uring_renameat(&self->ring, at(self->base, "b/f"),
					 at(self->base, "a/g")));
	EXPECT_EQ(ENOENT, uring_renameat(&self->ring, at(self->base, "a/f"),
					 at(self->base, "b/g")));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, uring_renameat(&self->ring, at(self->base, "a/f"),
					 at(self->base, "a/g")));
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(EACCES, uring_renameat(&self->ring, at(self->base, "a/f"),
					 at(self->base, "a/g")));
	UNVEIL(at(self->base, "a"), "rc");
	EXPECT_EQ(0, uring_renameat(&self->ring, at(self->base, "a/f"),
				    at(self->base, "a/g")));
}

TEST_F(ring, renameat_cannot_make_a_read_only_file_writable)
{
	UNVEIL(at(self->base, "a"), "rc");
	UNVEIL(at(self->base, "b"), "rwc");
	EXPECT_EQ(EXDEV, uring_renameat(&self->ring, at(self->base, "a/f"),
					at(self->base, "b/g")));
}

static int uring_unlinkat(struct ring *ring, const char *path, int flags)
{
	const struct io_uring_sqe sqe = {
		.opcode = IORING_OP_UNLINKAT,
		.fd = AT_FDCWD,
		.addr = (unsigned long)path,
		.unlink_flags = flags,
	};

	return ring_run(ring, &sqe);
}

TEST_F(ring, unlinkat_needs_c)
{
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(ENOENT, uring_unlinkat(&self->ring, at(self->base, "b/f"),
					 0));
	EXPECT_EQ(EACCES, uring_unlinkat(&self->ring, at(self->base, "a/f"),
					 0));
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(0, uring_unlinkat(&self->ring, at(self->base, "a/f"), 0));
}

TEST_F(ring, unlinkat_removedir_needs_c)
{
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(ENOENT, uring_unlinkat(&self->ring, at(self->base, "b/d"),
					 AT_REMOVEDIR));
	EXPECT_EQ(EACCES, uring_unlinkat(&self->ring, at(self->base, "a/d"),
					 AT_REMOVEDIR));
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(0, uring_unlinkat(&self->ring, at(self->base, "a/d"),
				    AT_REMOVEDIR));
}

static int uring_linkat(struct ring *ring, const char *from, const char *to)
{
	const struct io_uring_sqe sqe = {
		.opcode = IORING_OP_LINKAT,
		.fd = AT_FDCWD,
		.addr = (unsigned long)from,
		.len = AT_FDCWD,
		.addr2 = (unsigned long)to,
	};

	return ring_run(ring, &sqe);
}

TEST_F(ring, linkat_needs_r_and_c)
{
	UNVEIL(at(self->base, "a"), "rc");
	EXPECT_EQ(ENOENT, uring_linkat(&self->ring, at(self->base, "b/f"),
				       at(self->base, "a/g")));
	EXPECT_EQ(ENOENT, uring_linkat(&self->ring, at(self->base, "a/f"),
				       at(self->base, "b/g")));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, uring_linkat(&self->ring, at(self->base, "a/f"),
				       at(self->base, "a/g")));
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(EACCES, uring_linkat(&self->ring, at(self->base, "a/f"),
				       at(self->base, "a/g")));
	UNVEIL(at(self->base, "a"), "rc");
	EXPECT_EQ(0, uring_linkat(&self->ring, at(self->base, "a/f"),
				  at(self->base, "a/g")));
}

TEST_F(ring, linkat_cannot_make_a_read_only_file_writable)
{
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(at(self->base, "b"), "rwc");
	EXPECT_EQ(EXDEV, uring_linkat(&self->ring, at(self->base, "a/f"),
				      at(self->base, "b/g")));
}

static int uring_symlinkat(struct ring *ring, const char *target,
			   const char *path)
{
	const struct io_uring_sqe sqe = {
		.opcode = IORING_OP_SYMLINKAT,
		.fd = AT_FDCWD,
		.addr = (unsigned long)target,
		.addr2 = (unsigned long)path,
	};

	return ring_run(ring, &sqe);
}

TEST_F(ring, symlinkat_needs_c)
{
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(ENOENT, uring_symlinkat(&self->ring, "f",
					  at(self->base, "b/l")));
	EXPECT_EQ(EACCES, uring_symlinkat(&self->ring, "f",
					  at(self->base, "a/l")));
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(0, uring_symlinkat(&self->ring, "f", at(self->base, "a/l")));
}

/* Whether a thread of this process has a name that starts with @prefix. */
static bool has_thread(const char *prefix)
{
	char path[PATH_MAX], comm[32];
	struct dirent *entry;
	bool found = false;
	DIR *dir;
	int fd;

	dir = opendir("/proc/self/task");
	if (!dir)
		return false;
	while (!found && (entry = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 entry->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		memset(comm, 0, sizeof(comm));
		found = read(fd, comm, sizeof(comm) - 1) > 0 &&
			!strncmp(comm, prefix, strlen(prefix));
		close(fd);
	}
	closedir(dir);
	return found;
}

/*
 * Whether a thread named @prefix... appears within ten seconds: a new io
 * thread names itself once it first runs, which on a loaded machine may
 * come after the call that made it has returned.
 */
static bool thread_appears(const char *prefix)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (has_thread(prefix))
			return true;
		usleep(10000);
	}
	return false;
}

/* IOSQE_ASYNC runs the request in an io-wq worker, a thread of the process. */
TEST_F(ring, worker_started_before_veil_is_judged)
{
	ASSERT_EQ(0, uring_openat(&self->ring, at(self->base, "b/f"),
				  O_RDONLY, IOSQE_ASYNC));
	ASSERT_TRUE(thread_appears("iou-wrk-"));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(ENOENT, uring_openat(&self->ring, at(self->base, "b/f"),
				       O_RDONLY, IOSQE_ASYNC));
	EXPECT_EQ(EACCES, uring_openat(&self->ring, at(self->base, "a/f"),
				       O_RDONLY, IOSQE_ASYNC));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, uring_openat(&self->ring, at(self->base, "a/f"),
				  O_RDONLY, IOSQE_ASYNC));
}

/* The SQPOLL thread, also a thread of the process, issues the requests. */
TEST_F(ring, sqpoll_thread_started_before_veil_is_judged)
{
	struct ring sqpoll;

	ASSERT_EQ(0, ring_init(&sqpoll, IORING_SETUP_SQPOLL));
	ASSERT_TRUE(thread_appears("iou-sqp-"));
	ASSERT_EQ(0, uring_openat(&sqpoll, at(self->base, "b/f"), O_RDONLY,
				  0));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(ENOENT, uring_openat(&sqpoll, at(self->base, "b/f"),
				       O_RDONLY, 0));
	EXPECT_EQ(EACCES, uring_openat(&sqpoll, at(self->base, "a/f"),
				       O_RDONLY, 0));
	EXPECT_EQ(ENOENT, uring_statx(&sqpoll, at(self->base, "b/f")));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, uring_openat(&sqpoll, at(self->base, "a/f"), O_RDONLY,
				  0));
}

/* Requests run with credentials saved before the veil are judged too. */
TEST_F(ring, personality_registered_before_veil_is_judged)
{
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_OPENAT,
		.fd = AT_FDCWD,
		.addr = (unsigned long)at(self->base, "b/f"),
		.open_flags = O_RDONLY,
	};
	int id;

	id = ring_register_personality(&self->ring);
	ASSERT_LT(0, id);
	sqe.personality = id;
	ASSERT_EQ(0, ring_run(&self->ring, &sqe));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(ENOENT, ring_run(&self->ring, &sqe));
	sqe.flags = IOSQE_ASYNC;
	EXPECT_EQ(ENOENT, ring_run(&self->ring, &sqe));
}

/*
 * A child shares the ring of its parent, which has no veil; the child's own
 * requests, and the io-wq workers it starts, are judged with its veil.
 */
TEST_F(ring, ring_of_a_parent_without_veil_is_judged)
{
	int err, status;
	pid_t child;

	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (sys_unveil(at(self->base, "a"), "r"))
			_exit(255);
		err = uring_openat(&self->ring, at(self->base, "b/f"),
				   O_RDONLY, 0);
		if (err == ENOENT)
			err = uring_openat(&self->ring, at(self->base, "b/f"),
					   O_RDONLY, IOSQE_ASYNC);
		_exit(err);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(ENOENT, WEXITSTATUS(status));
}

/* A ring made by the caller, SQPOLL, not mapped yet. */
static int sqpoll_ring_fd(struct io_uring_params *p)
{
	memset(p, 0, sizeof(*p));
	p->flags = IORING_SETUP_SQPOLL;
	p->sq_thread_idle = 1000;
	return syscall(__NR_io_uring_setup, 1, p);
}

/* errno of mapping the entries of the ring of @fd, 0 on success. */
static int map_sqes_errno(int fd, const struct io_uring_params *p)
{
	return mmap(NULL, p->sq_entries * sizeof(struct io_uring_sqe),
		    PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    IORING_OFF_SQES) == MAP_FAILED ? errno : 0;
}

/* Runs @child_body(@fd, @p, @base) in a child and returns its exit status. */
static int in_child(int (*child_body)(int, const struct io_uring_params *,
				      const char *),
		    int fd, const struct io_uring_params *p, const char *base)
{
	pid_t child;

	child = fork();
	if (child < 0)
		return -1;
	if (child == 0)
		_exit(child_body(fd, p, base));
	return exit_status_of(child);
}

static int unveil_a(int fd, const struct io_uring_params *p, const char *base)
{
	return unveil_errno(at(base, "a"), "r");
}

static int unveil_a_then_map(int fd, const struct io_uring_params *p,
			     const char *base)
{
	return unveil_errno(at(base, "a"), "r") ?: map_sqes_errno(fd, p);
}

static int map(int fd, const struct io_uring_params *p, const char *base)
{
	return map_sqes_errno(fd, p);
}

/*
 * The thread of its parent's ring would issue what a child writes there,
 * under the parent's veil: a child that maps the ring makes no veil.  The
 * ring of the process itself (and a ring without SQPOLL) does not tie it.
 */
TEST_F(ring, unveil_while_mapping_the_sqpoll_ring_of_another_process_is_ebusy)
{
	struct ring sqpoll;

	ASSERT_EQ(0, ring_init(&sqpoll, IORING_SETUP_SQPOLL));
	EXPECT_EQ(EBUSY, in_child(unveil_a, sqpoll.fd, NULL, self->base));
	UNVEIL(at(self->base, "a"), "r");
}

TEST_F(ring, mapping_the_sqpoll_ring_of_an_unveiled_process_is_eperm)
{
	struct io_uring_params p;
	int fd = sqpoll_ring_fd(&p);

	ASSERT_LE(0, fd);
	EXPECT_EQ(EPERM, in_child(unveil_a_then_map, fd, &p, self->base));
	EXPECT_EQ(0, map_sqes_errno(fd, &p));
}

TEST_F(ring, mapping_the_sqpoll_ring_of_a_process_as_strictly_veiled_works)
{
	struct io_uring_params p;
	int fd;

	UNVEIL(at(self->base, "a"), "r");
	ASSERT_EQ(0, sys_unveil(NULL, NULL));
	fd = sqpoll_ring_fd(&p);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, in_child(map, fd, &p, self->base));
}

TEST_HARNESS_MAIN
