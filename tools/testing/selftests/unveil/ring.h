/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unveil selftests - a minimal io_uring, without liburing
 */

#ifndef _SELFTESTS_UNVEIL_RING_H
#define _SELFTESTS_UNVEIL_RING_H

#include <linux/io_uring.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* One request at a time on a minimal ring, without liburing. */
struct ring {
	int fd;
	int res;	/* result of the last request */
	unsigned int *sq_tail, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

/* @flags: IORING_SETUP_*; an SQPOLL thread stays awake for a second. */
static inline int ring_init(struct ring *ring, unsigned int flags)
{
	struct io_uring_params p = {
		.flags = flags,
		.sq_thread_idle = 1000,
	};
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

/*
 * Submits @sqe and returns the errno of its completion, 0 on success; the
 * result itself is then in ring->res.
 */
static inline int ring_run(struct ring *ring, const struct io_uring_sqe *sqe)
{
	unsigned int head;
	int res;

	ring->sqes[0] = *sqe;
	ring->sq_array[0] = 0;
	__atomic_store_n(ring->sq_tail, *ring->sq_tail + 1, __ATOMIC_RELEASE);
	/* SQ_WAKEUP wakes an SQPOLL thread; other rings ignore it. */
	if (syscall(__NR_io_uring_enter, ring->fd, 1, 1,
		    IORING_ENTER_GETEVENTS | IORING_ENTER_SQ_WAKEUP,
		    NULL, 0) != 1)
		return -1;
	head = *ring->cq_head;
	if (head == __atomic_load_n(ring->cq_tail, __ATOMIC_ACQUIRE))
		return -1;
	res = ring->cqes[head & *ring->cq_mask].res;
	ring->res = res;
	__atomic_store_n(ring->cq_head, head + 1, __ATOMIC_RELEASE);
	return res < 0 ? -res : 0;
}

/* Registers the current credentials; returns the personality ID, or -1. */
static inline int ring_register_personality(struct ring *ring)
{
	return syscall(__NR_io_uring_register, ring->fd,
		       IORING_REGISTER_PERSONALITY, NULL, 0);
}

#endif /* _SELFTESTS_UNVEIL_RING_H */
