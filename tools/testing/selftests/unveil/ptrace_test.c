// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - a veiled process must not use another process to leave
 * its veil: ptrace, /proc/PID/mem, process_vm_writev() and pidfd_getfd() on
 * a process that is not veiled as strictly are refused, and a process that
 * can act as another one (tracing it, sharing its memory or descriptors,
 * holding its memory open) makes no veil until it no longer can.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "common.h"

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif

static int target_value = 42;

static void reap(pid_t child)
{
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

FIXTURE(unveiled_target) {
	pid_t target;
};

FIXTURE_SETUP(unveiled_target)
{
	/* Forked before the test drops its veil: the target has none. */
	self->target = spawn_sleeper();
	ASSERT_LT(0, self->target);
}

FIXTURE_TEARDOWN(unveiled_target)
{
	reap(self->target);
}

TEST_F(unveiled_target, ptrace_attach_is_eperm)
{
	ASSERT_EQ(0, unveil_errno("/proc", "rw"));
	EXPECT_EQ(EPERM, errno_of(ptrace(PTRACE_ATTACH, self->target, 0, 0)));
	EXPECT_EQ(EPERM, errno_of(ptrace(PTRACE_SEIZE, self->target, 0, 0)));
}

TEST_F(unveiled_target, proc_pid_mem_is_eacces)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/mem", self->target);
	ASSERT_EQ(0, unveil_errno("/proc", "rw"));
	EXPECT_EQ(EACCES, errno_of(open(path, O_RDWR)));
}

TEST_F(unveiled_target, process_vm_writev_is_eperm)
{
	int value = 7;
	struct iovec local = { &value, sizeof(value) };
	struct iovec remote = { &target_value, sizeof(target_value) };

	ASSERT_EQ(0, unveil_errno("/proc", "rw"));
	EXPECT_EQ(EPERM, errno_of(process_vm_writev(self->target, &local, 1,
						    &remote, 1, 0)));
}

TEST_F(unveiled_target, pidfd_getfd_is_eperm)
{
	int pidfd = syscall(__NR_pidfd_open, self->target, 0);

	ASSERT_LE(0, pidfd);
	ASSERT_EQ(0, unveil_errno("/proc", "rw"));
	EXPECT_EQ(EPERM, errno_of(syscall(__NR_pidfd_getfd, pidfd, 0, 0)));
}

TEST(ptrace_traceme_towards_an_unveiled_parent_is_eperm)
{
	int status;
	pid_t child;

	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (unveil_errno("/proc", "r"))
			_exit(255);
		_exit(errno_of(ptrace(PTRACE_TRACEME, 0, 0, 0)));
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(EPERM, WEXITSTATUS(status));
}

TEST(ptrace_of_a_child_with_the_same_veil_works)
{
	int status;
	pid_t child;

	ASSERT_EQ(0, unveil_errno("/proc", "r"));
	child = spawn_sleeper();
	ASSERT_LT(0, child);
	EXPECT_EQ(0, errno_of(ptrace(PTRACE_ATTACH, child, 0, 0)));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFSTOPPED(status));
	reap(child);
}

TEST(locked_process_cannot_ptrace_an_unlocked_child)
{
	pid_t child;

	ASSERT_EQ(0, unveil_errno("/proc", "r"));
	child = spawn_sleeper();
	ASSERT_LT(0, child);
	ASSERT_EQ(0, unveil_errno(NULL, NULL));
	EXPECT_EQ(EPERM, errno_of(ptrace(PTRACE_ATTACH, child, 0, 0)));
	reap(child);
}

TEST(unveiled_process_may_ptrace_a_veiled_one)
{
	int go[2], status;
	pid_t child;
	char c;

	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (unveil_errno("/proc", "r") || write(go[1], "v", 1) != 1)
			_exit(255);
		for (;;)
			pause();
	}
	ASSERT_EQ(1, read(go[0], &c, 1));
	EXPECT_EQ(0, errno_of(ptrace(PTRACE_ATTACH, child, 0, 0)));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFSTOPPED(status));
	reap(child);
}

/* Ties made before the veil: it waits until they are gone. */

TEST(unveil_while_tracing_another_process_is_ebusy)
{
	int status;
	pid_t child;

	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(255);
		raise(SIGSTOP);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFSTOPPED(status));
	EXPECT_EQ(EBUSY, unveil_errno("/", "r"));
	EXPECT_EQ(EBUSY, unveil_errno(NULL, NULL));
	reap(child);
	EXPECT_EQ(0, unveil_errno("/", "r"));
}

static int unveil_from_shared_memory(void *result)
{
	*(int *)result = unveil_errno("/", "r");
	return 0;
}

/* It could rewrite the stack of the process whose memory it shares. */
TEST(unveil_in_a_process_sharing_the_memory_of_another_is_ebusy)
{
	static long stack[1 << 13];
	int result = -1, status;
	pid_t child;

	/* The top of the stack, 16-byte aligned as the ABI wants it. */
	child = clone(unveil_from_shared_memory,
		      (void *)((unsigned long)&stack[1 << 13] & ~15UL),
		      CLONE_VM | SIGCHLD, &result);
	ASSERT_LT(0, child);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(EBUSY, result);
	/* With the other process gone, the memory is this one's alone. */
	EXPECT_EQ(0, unveil_errno("/", "r"));
}

TEST(unveil_in_a_vfork_child_is_ebusy)
{
	pid_t child;

	child = vfork();
	ASSERT_LE(0, child);
	if (child == 0)
		_exit(sys_unveil("/", "r") ? errno : 0);
	EXPECT_EQ(EBUSY, exit_status_of(child));
}

/* It would use the descriptors the other process opens from then on. */
TEST(unveil_in_a_process_sharing_the_descriptors_of_another_is_ebusy)
{
	pid_t child;

	child = syscall(SYS_clone, CLONE_FILES | SIGCHLD, 0, NULL, NULL, 0);
	ASSERT_LE(0, child);
	if (child == 0)
		_exit(unveil_errno("/", "r"));
	EXPECT_EQ(EBUSY, exit_status_of(child));
}

static int open_memory_of(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	return open(path, O_RDWR);
}

TEST(unveil_with_the_memory_of_another_process_open_is_ebusy)
{
	pid_t target = spawn_sleeper();
	int fd;

	ASSERT_LT(0, target);
	fd = open_memory_of(target);
	ASSERT_LE(0, fd);
	EXPECT_EQ(EBUSY, unveil_errno("/", "r"));
	close(fd);
	EXPECT_EQ(0, unveil_errno("/", "r"));
	reap(target);
}

TEST(unveil_with_its_own_memory_open_works)
{
	int fd = open("/proc/self/mem", O_RDWR);

	ASSERT_LE(0, fd);
	EXPECT_EQ(0, unveil_errno("/", "r"));
	close(fd);
}

/* Kept in a socket across unveil(), it is refused when it comes back. */
TEST(memory_of_another_process_is_not_received)
{
	pid_t target = spawn_sleeper();
	int fd, sv[2];

	ASSERT_LT(0, target);
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
	fd = open_memory_of(target);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, send_fd(sv[0], fd));
	close(fd);
	ASSERT_EQ(0, unveil_errno("/", "r"));
	EXPECT_EQ(-2, recv_fd(sv[1]));
	reap(target);
}

TEST_HARNESS_MAIN
