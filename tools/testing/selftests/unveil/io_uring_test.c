// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - io_uring requests that name files by path are judged
 * like the system calls they stand for.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/io_uring.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>

#include "../kselftest_harness.h"
#include "common.h"

/* One request at a time on a minimal ring, without liburing. */
struct ring {
	int fd;
	unsigned int *sq_tail, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int ring_init(struct ring *ring)
{
	struct io_uring_params p = {};
	void *sq, *cq;

	ring->fd = syscall(__NR_io_uring_setup, 1, &p);
	if (ring->fd < 0)
		return -1;
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned int),
		  PROT_READ | PROT_WRITE, MAP_SHARED, ring->fd,
		  IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes +
		  p.cq_entries * sizeof(struct io_uring_cqe),
		  PROT_READ | PROT_WRITE, MAP_SHARED, ring->fd,
		  IORING_OFF_CQ_RING);
	ring->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
			  PROT_READ | PROT_WRITE, MAP_SHARED, ring->fd,
			  IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || ring->sqes == MAP_FAILED)
		return -1;
	ring->sq_tail = sq + p.sq_off.tail;
	ring->sq_array = sq + p.sq_off.array;
	ring->cq_head = cq + p.cq_off.head;
	ring->cq_tail = cq + p.cq_off.tail;
	ring->cq_mask = cq + p.cq_off.ring_mask;
	ring->cqes = cq + p.cq_off.cqes;
	return 0;
}

/* Submits @sqe and returns the errno of its completion, 0 on success. */
static int ring_run(struct ring *ring, const struct io_uring_sqe *sqe)
{
	unsigned int head;
	int res;

	ring->sqes[0] = *sqe;
	ring->sq_array[0] = 0;
	__atomic_store_n(ring->sq_tail, *ring->sq_tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, ring->fd, 1, 1,
		    IORING_ENTER_GETEVENTS, NULL, 0) != 1)
		return -1;
	head = *ring->cq_head;
	if (head == __atomic_load_n(ring->cq_tail, __ATOMIC_ACQUIRE))
		return -1;
	res = ring->cqes[head & *ring->cq_mask].res;
	__atomic_store_n(ring->cq_head, head + 1, __ATOMIC_RELEASE);
	return res < 0 ? -res : 0;
}

FIXTURE(ring) {
	char base[64];
	struct ring ring;
};

FIXTURE_SETUP(ring)
{
	snprintf(self->base, sizeof(self->base), "/tmp/unveil-uring.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->base));
	ASSERT_EQ(0, mkdir(at(self->base, "a"), 0755));
	ASSERT_EQ(0, mkdir(at(self->base, "b"), 0755));
	ASSERT_EQ(0, open_errno(at(self->base, "a/f"), O_CREAT | O_WRONLY));
	ASSERT_EQ(0, open_errno(at(self->base, "b/f"), O_CREAT | O_WRONLY));
	ASSERT_EQ(0, setxattr(at(self->base, "a/f"), "user.x", "v", 1, 0));
	ASSERT_EQ(0, ring_init(&self->ring));
}

FIXTURE_TEARDOWN(ring)
{
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

TEST_F(ring, openat_is_judged)
{
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_OPENAT,
		.fd = AT_FDCWD,
		.open_flags = O_RDONLY,
	};

	UNVEIL(at(self->base, "a"), "r");
	sqe.addr = (unsigned long)at(self->base, "b/f");
	EXPECT_EQ(ENOENT, ring_run(&self->ring, &sqe));
	sqe.addr = (unsigned long)at(self->base, "a/f");
	EXPECT_EQ(0, ring_run(&self->ring, &sqe));
}

TEST_HARNESS_MAIN
