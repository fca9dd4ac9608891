// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - no way around the veil, even for root: other
 * directories of procfs that show a hidden process, the capabilities that
 * reach files around every path, the ioctls of file systems, and the image
 * of a program that the veil lets a process run but not read.  Each test
 * first shows, where it can, that the same call works without the veil, so
 * that it fails on a kernel that lacks the defence.  The tests run as root.
 *
 * Every test builds its own tree (make_test_tree()):
 *   a/f1  a/f2  a/sub/f3  a/empty/
 *   b/f4
 * and runs in its own process (the harness forks), so the veil it drops
 * goes away with it; the parent removes the tree.
 */

#define _GNU_SOURCE
#include <linux/elf.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/nsfs.h>
#include <linux/reboot.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/ptrace.h>
#include <sys/quota.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <termios.h>

#include "../kselftest_harness.h"
#include "common.h"
#include "ring.h"

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

/* procfs: a process is one directory, whatever names it */

static int sleep_forever(void *arg)
{
	for (;;)
		pause();
	return 0;
}

/*
 * Starts a process with a second thread, whose number goes to @tid, and
 * writes the process's directory and the thread's into @dir and @thread.
 */
static pid_t start_with_a_thread(pid_t *tid, char dir[32], char thread[32])
{
	static char stack[1 << 16];
	int pipefd[2];
	pid_t child;

	if (pipe(pipefd))
		return -1;
	child = fork();
	if (child == 0) {
		*tid = clone(sleep_forever, stack + sizeof(stack),
			     CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			     CLONE_THREAD | CLONE_SYSVSEM, NULL);
		if (write(pipefd[1], tid, sizeof(*tid)) != sizeof(*tid))
			_exit(1);
		sleep_forever(NULL);
	}
	close(pipefd[1]);
	if (child < 0 || read(pipefd[0], tid, sizeof(*tid)) != sizeof(*tid) ||
	    *tid <= 0) {
		close(pipefd[0]);
		return -1;
	}
	close(pipefd[0]);
	snprintf(dir, 32, "/proc/%d", child);
	snprintf(thread, 32, "/proc/%d", *tid);
	return child;
}

static void stop(pid_t child)
{
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

/* A new instance of procfs on base/a/empty, in a mount namespace of its own. */
static int mount_second_procfs(const char *base)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", at(base, "a/empty"), "proc", 0, NULL))
		return errno;
	return 0;
}

/* The directory of a process's thread, /proc/TID, shows the process. */
TEST_F(tree, thread_directory_of_a_hidden_process_is_hidden)
{
	char dir[32], thread[32];
	pid_t tid, child;
	struct stat st;

	child = start_with_a_thread(&tid, dir, thread);
	ASSERT_LT(0, child);
	/* Without a veil: */
	ASSERT_EQ(0, open_errno(at(thread, "status"), O_RDONLY));
	UNVEIL("/proc", "r");
	UNVEIL(dir, "");
	EXPECT_EQ(ENOENT, open_errno(at(dir, "status"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(thread, "status"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(thread, "environ"), O_RDONLY));
	EXPECT_EQ(ENOENT, errno_of(stat(thread, &st)));
	EXPECT_EQ(0, open_errno("/proc/self/status", O_RDONLY));
	stop(child);
}

/* /proc/TID is the thread's directory in its process's, task/TID. */
TEST_F(tree, rule_on_a_thread_directory_holds_on_its_task_directory)
{
	char dir[32], thread[32], task[64];
	pid_t tid, child;

	child = start_with_a_thread(&tid, dir, thread);
	ASSERT_LT(0, child);
	snprintf(task, sizeof(task), "%s/task/%d/status", dir, tid);
	ASSERT_EQ(0, open_errno(task, O_RDONLY));
	UNVEIL("/proc", "r");
	UNVEIL(thread, "");
	EXPECT_EQ(ENOENT, open_errno(task, O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(thread, "status"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(dir, "status"), O_RDONLY));
	stop(child);
}

/*
 * Another instance of procfs, mounted before the veil where the veil shows
 * it, is the same procfs: the rules made in /proc hold there.
 */
TEST_F(tree, another_procfs_instance_does_not_show_a_hidden_process)
{
	char dir[32], thread[32], other[PATH_MAX], other_thread[PATH_MAX];
	pid_t tid, child;

	child = start_with_a_thread(&tid, dir, thread);
	ASSERT_LT(0, child);
	ASSERT_EQ(0, mount_second_procfs(self->base));
	snprintf(other, sizeof(other), "%s/a/empty/%d/status", self->base,
		 child);
	snprintf(other_thread, sizeof(other_thread), "%s/a/empty/%d/status",
		 self->base, tid);
	ASSERT_EQ(0, open_errno(other, O_RDONLY));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL("/proc", "r");
	UNVEIL(dir, "");
	EXPECT_EQ(ENOENT, open_errno(other, O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(other_thread, O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/empty/self/status"),
				O_RDONLY));
	stop(child);
}

/* So do rules on names and on directories that are no process's. */
TEST_F(tree, rules_in_procfs_hold_in_another_instance)
{
	char dir[32], thread[32], other[PATH_MAX];
	pid_t tid, child;

	child = start_with_a_thread(&tid, dir, thread);
	ASSERT_LT(0, child);
	ASSERT_EQ(0, mount_second_procfs(self->base));
	snprintf(other, sizeof(other), "%s/a/empty/%d/environ", self->base,
		 child);
	ASSERT_EQ(0, open_errno(other, O_RDONLY));
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL("/proc", "r");
	UNVEIL(at(dir, "environ"), "");
	UNVEIL("/proc/sys/kernel", "");
	EXPECT_EQ(EACCES, open_errno(other, O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base,
					"a/empty/sys/kernel/ostype"),
				     O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/empty/sys/vm/swappiness"),
				O_RDONLY));
	stop(child);
}

/* Capabilities */

TEST_F(tree, mount_namespace_is_not_made_under_a_veil)
{
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EPERM, errno_of(unshare(CLONE_NEWNS)));
}

/*
 * A user namespace of its own gives the veiled process every capability
 * there, but none of those that reach around paths: no mount, network or
 * other namespace, where /proc/sys/net or mounts would show other files.
 */
TEST_F(tree, own_user_namespace_gives_no_namespace_under_a_veil)
{
	pid_t child = fork();
	int status;

	ASSERT_LE(0, child);
	if (child == 0) {
		/* Without a veil: it works. */
		_exit(unshare(CLONE_NEWUSER) || unshare(CLONE_NEWNS | CLONE_NEWNET));
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	UNVEIL(at(self->base, "a"), "r");
	ASSERT_EQ(0, unshare(CLONE_NEWUSER));
	EXPECT_EQ(EPERM, errno_of(unshare(CLONE_NEWNS)));
	EXPECT_EQ(EPERM, errno_of(unshare(CLONE_NEWNET)));
	EXPECT_EQ(EPERM, errno_of(unshare(CLONE_NEWUTS)));
}

/*
 * Another process's mount namespace may hold a bind mount of a hidden
 * directory in a visible place: setns() into it is refused.
 */
TEST_F(tree, setns_into_another_mount_namespace_is_eperm)
{
	int pipefd[2], own, other;
	char path[64], c;
	pid_t child;

	own = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, own);
	ASSERT_EQ(0, pipe(pipefd));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount(at(self->base, "b"), at(self->base, "a/empty"), NULL,
			  MS_BIND, NULL))
			_exit(1);
		if (write(pipefd[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", child);
	other = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, other);
	/* Without a veil: b shows in a/empty there. */
	ASSERT_EQ(0, setns(other, CLONE_NEWNS));
	EXPECT_EQ(0, open_errno(at(self->base, "a/empty/f4"), O_RDONLY));
	ASSERT_EQ(0, setns(own, CLONE_NEWNS));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/empty/f4"), O_RDONLY));

	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EPERM, errno_of(setns(other, CLONE_NEWNS)));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/empty/f4"), O_RDONLY));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

TEST_F(tree, kernel_level_powers_are_eperm_for_root)
{
	int file = open(at(self->base, "a/f1"), O_RDONLY);
	int block = 0;

	ASSERT_LE(0, file);
	/* Without a veil: FIBMAP gets past its capability check. */
	ASSERT_NE(EPERM, errno_of(ioctl(file, FIBMAP, &block)));

	UNVEIL(at(self->base, "a"), "r");
	/* CAP_SYS_BOOT: ctrl-alt-del's setting, harmless to change. */
	EXPECT_EQ(EPERM, errno_of(syscall(__NR_reboot, LINUX_REBOOT_MAGIC1,
					  LINUX_REBOOT_MAGIC2,
					  LINUX_REBOOT_CMD_CAD_ON, NULL)));
	/* CAP_SYS_ADMIN */
	EXPECT_EQ(EPERM, errno_of(sethostname("veiled", 6)));
	/* CAP_SYS_RAWIO: FIBMAP tells where a file's blocks are on the disk. */
	EXPECT_EQ(EPERM, errno_of(ioctl(file, FIBMAP, &block)));
}

/*
 * CAP_SYS_MODULE: a module runs as the kernel.  Loading one is refused
 * before its image is looked at (without a veil, an image that is no ELF
 * file gets ENOEXEC), whether it comes from memory or from a file the veil
 * shows, and so is unloading one (without a veil, one that is not loaded
 * gets ENOENT).
 */
TEST_F(tree, modules_are_eperm_for_root)
{
	static const char image[64] = "no module";
	int file;

	if (access("/proc/modules", F_OK))
		SKIP(return, "a kernel without loadable modules");
	file = open(at(self->base, "a/f1"), O_RDONLY);
	ASSERT_LE(0, file);
	ASSERT_EQ(ENOEXEC, errno_of(syscall(__NR_init_module, image,
					    sizeof(image), "")));
	ASSERT_EQ(ENOEXEC, errno_of(syscall(__NR_finit_module, file, "", 0)));
	ASSERT_EQ(ENOENT, errno_of(syscall(__NR_delete_module, "unveil_none",
					   O_NONBLOCK)));

	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EPERM, errno_of(syscall(__NR_init_module, image,
					  sizeof(image), "")));
	EXPECT_EQ(EPERM, errno_of(syscall(__NR_finit_module, file, "", 0)));
	EXPECT_EQ(EPERM, errno_of(syscall(__NR_delete_module, "unveil_none",
					  O_NONBLOCK)));
	close(file);
}

#ifndef __NR_quotactl_fd
#define __NR_quotactl_fd 443
#endif

/*
 * Quota (CAP_SYS_ADMIN): Q_QUOTAON opens the quota file it is given by a
 * path no rule judges and writes it, and the other commands change limits
 * over a whole file system: refused to a veiled root, who may still read
 * them.  Shown on a tmpfs with quotas of its own, where Q_SETINFO of
 * nothing changes nothing.
 */
TEST_F(tree, quota_is_eperm_for_root)
{
	struct if_dqinfo info = {};
	int dir;

	ASSERT_EQ(0, mkdir(at(self->base, "a/quota"), 0755));
	if (mount("tmpfs", at(self->base, "a/quota"), "tmpfs", 0, "usrquota"))
		SKIP(return, "no tmpfs with quotas: %s", strerror(errno));
	dir = open(at(self->base, "a/quota"), O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dir);
	ASSERT_EQ(0, errno_of(syscall(__NR_quotactl_fd, dir,
				      QCMD(Q_SETINFO, USRQUOTA), 0, &info)));

	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EPERM, errno_of(syscall(__NR_quotactl_fd, dir,
					  QCMD(Q_SETINFO, USRQUOTA), 0,
					  &info)));
	EXPECT_EQ(0, errno_of(syscall(__NR_quotactl_fd, dir,
				      QCMD(Q_GETINFO, USRQUOTA), 0, &info)));
	close(dir);
}

/*
 * CAP_NET_ADMIN sets up the kernel's own services that open files by paths
 * their caller chose, in kernel threads no veil judges (ksmbd's shares,
 * DRBD's backing devices, iptables' pinned BPF programs): refused.  Shown
 * here with a harmless use of it, forcing a socket's receive buffer.
 */
TEST_F(tree, network_administration_is_eperm_for_root)
{
	const int size = 1 << 16;
	const int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	ASSERT_LE(0, sock);
	ASSERT_EQ(0, errno_of(setsockopt(sock, SOL_SOCKET, SO_RCVBUFFORCE,
					 &size, sizeof(size))));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EPERM, errno_of(setsockopt(sock, SOL_SOCKET, SO_RCVBUFFORCE,
					     &size, sizeof(size))));
	close(sock);
}

#define DMESG_RESTRICT "/proc/sys/kernel/dmesg_restrict"

/*
 * Where the kernel log is kept from unprivileged readers, it is kept from a
 * veiled root too (CAP_SYSLOG): its refusal lines name hidden files.  The
 * parent sets the restriction, and sets it back once the veiled child is
 * done.
 */
TEST_F(tree, restricted_kernel_log_is_eperm_for_root)
{
	char before[8], buf[64];
	pid_t child;
	int status;

	ASSERT_EQ(0, read_at(AT_FDCWD, DMESG_RESTRICT, before, sizeof(before)));
	ASSERT_EQ(0, write_text(DMESG_RESTRICT, "1"));
	/* Without a veil: root reads it. */
	EXPECT_LE(0, klogctl(3, buf, sizeof(buf)));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (sys_unveil(at(self->base, "a"), "r"))
			_exit(100);
		_exit(klogctl(3, buf, sizeof(buf)) < 0 ? errno : 0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, write_text(DMESG_RESTRICT, before));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(EPERM, WEXITSTATUS(status));
}

/* clone3() into a cgroup, in a child veiled with r on @base/a. */
static int clone_into_cgroup_errno(const char *base, int cgroup)
{
	struct clone_args args = {
		.flags = CLONE_INTO_CGROUP,
		.exit_signal = SIGCHLD,
		.cgroup = cgroup,
	};
	pid_t child = fork();
	int status;

	if (child == 0) {
		if (sys_unveil(at(base, "a"), "r"))
			_exit(100);
		child = syscall(__NR_clone3, &args, sizeof(args));
		if (child == 0)
			_exit(0);
		_exit(child < 0 ? errno : 0);
	}
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * clone3(CLONE_INTO_CGROUP) writes the cgroup.procs of a cgroup named by a
 * descriptor, O_PATH or not: refused, as no rule judges it.
 */
TEST_F(tree, clone_into_a_cgroup_is_eperm)
{
	const char *cgroup = at(self->base, "a/empty/sub");
	struct clone_args args = {
		.flags = CLONE_INTO_CGROUP,
		.exit_signal = SIGCHLD,
	};
	pid_t child;
	int fd;

	if (mount("none", at(self->base, "a/empty"), "cgroup2", 0, NULL))
		SKIP(return, "no cgroup2: %s", strerror(errno));
	ASSERT_EQ(0, mkdir(cgroup, 0755));
	fd = open(cgroup, O_PATH | O_DIRECTORY);
	ASSERT_LE(0, fd);
	/* Without a veil: it works. */
	args.cgroup = fd;
	child = syscall(__NR_clone3, &args, sizeof(args));
	if (child == 0)
		_exit(0);
	ASSERT_LT(0, child);
	ASSERT_EQ(child, waitpid(child, NULL, 0));
	EXPECT_EQ(EPERM, clone_into_cgroup_errno(self->base, fd));
	close(fd);
	EXPECT_EQ(0, rmdir(cgroup));
	EXPECT_EQ(0, umount(at(self->base, "a/empty")));
}

/* The capabilities that override owners and modes keep their meaning. */
TEST_F(tree, owner_and_mode_overrides_still_work_for_root)
{
	const char *f1 = at(self->base, "a/f1");

	ASSERT_EQ(0, chmod(f1, 0));
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(0, open_errno(f1, O_RDWR));
	EXPECT_EQ(0, errno_of(chown(f1, 1000, 1000)));
	EXPECT_EQ(0, errno_of(chmod(f1, 0644)));
}

static int refused_sethostname(void)
{
	return sethostname("veiled", 6) == -1 && errno == EPERM ? 0 : 1;
}

TEST_F(tree, refused_capability_is_reported)
{
	char buf[4096], expected[256];
	pid_t child;

	child = refusals_of_child(at(self->base, "a"), "r", refused_sethostname,
				  buf, sizeof(buf));
	ASSERT_LT(0, child);
	snprintf(expected, sizeof(expected),
		 "refusals 1\nop=cap_sys_admin needed=- held=- errno=1 pid=%d comm=\"no_way_around_t\" path=\"\"\n",
		 child);
	EXPECT_STREQ(expected, buf);
}

/*
 * An io_uring personality registered before the process dropped a
 * capability runs requests with it: refused under a veil, so that it is no
 * way past the refused capabilities.  One that holds the process's own
 * credentials works.
 */
TEST_F(tree, io_uring_personality_of_other_credentials_is_eperm)
{
	struct io_uring_sqe sqe = { .opcode = IORING_OP_NOP };
	struct ring ring;

	ASSERT_EQ(0, ring_init(&ring, 0));
	sqe.personality = ring_register_personality(&ring);
	ASSERT_LT(0, sqe.personality);
	ASSERT_EQ(0, drop_an_effective_capability());
	ASSERT_EQ(0, ring_run(&ring, &sqe));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EPERM, ring_run(&ring, &sqe));
	sqe.personality = ring_register_personality(&ring);
	ASSERT_LT(0, sqe.personality);
	EXPECT_EQ(0, ring_run(&ring, &sqe));
}

/* ioctl */

/* errno of ioctl(@fd, @cmd, @arg), 0 on success. */
static int ioctl_errno(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? errno : 0;
}

TEST_F(tree, ioctls_the_vfs_handles_work_on_a_file)
{
	int fd = open(at(self->base, "a/f1"), O_RDONLY);
	int n, flags;

	ASSERT_LE(0, fd);
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, ioctl_errno(fd, FIONREAD, &n));
	EXPECT_EQ(2, n);
	EXPECT_EQ(0, ioctl_errno(fd, FIOCLEX, NULL));
	EXPECT_EQ(0, ioctl_errno(fd, FS_IOC_GETFLAGS, &flags));
	close(fd);
}

/* A file is not a terminal: isatty() says so, and nothing is refused. */
static int isatty_of_a_file(void)
{
	struct termios t;
	int fd = open("/", O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return 1;
	return ioctl(fd, TCGETS, &t) == -1 && errno == ENOTTY ? 0 : 1;
}

TEST_F(tree, terminal_ioctl_on_a_file_is_enotty_without_a_report)
{
	char buf[4096];

	ASSERT_LT(0, refusals_of_child("/", "r", isatty_of_a_file, buf,
				       sizeof(buf)));
	EXPECT_STREQ("refusals 0\n", buf);
}

/*
 * A file system's own ioctls may reach other objects by name, handle or
 * inode number: refused on regular files and directories, visible or not,
 * opened before the veil or after.  FS_IOC_GETFSLABEL is one (ext4, XFS and
 * btrfs have it; tmpfs has none, so that it is ENOTTY there without a veil).
 */
TEST_F(tree, file_system_ioctl_on_a_file_or_directory_is_eperm)
{
	char label[FSLABEL_MAX];
	int hidden = open(at(self->base, "b"), O_RDONLY | O_DIRECTORY);
	int dir, file;
	int without;

	ASSERT_LE(0, hidden);
	without = ioctl_errno(hidden, FS_IOC_GETFSLABEL, label);
	ASSERT_TRUE(without == 0 || without == ENOTTY);
	UNVEIL(at(self->base, "a"), "rwc");
	dir = open(at(self->base, "a"), O_RDONLY | O_DIRECTORY);
	file = open(at(self->base, "a/f1"), O_RDWR);
	ASSERT_LE(0, dir);
	ASSERT_LE(0, file);
	EXPECT_EQ(EPERM, ioctl_errno(hidden, FS_IOC_GETFSLABEL, label));
	EXPECT_EQ(EPERM, ioctl_errno(dir, FS_IOC_GETFSLABEL, label));
	EXPECT_EQ(EPERM, ioctl_errno(file, FS_IOC_GETFSLABEL, label));
	close(file);
	close(dir);
	close(hidden);
}

/*
 * A namespace file (nsfs) leads to other namespaces, and from there to
 * their mounts: its ioctls are refused.
 */
TEST_F(tree, namespace_file_ioctls_are_eperm)
{
	int ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	int userns;

	ASSERT_LE(0, ns);
	userns = ioctl(ns, NS_GET_USERNS);
	ASSERT_LE(0, userns);
	close(userns);
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EPERM, ioctl_errno(ns, NS_GET_USERNS, NULL));
	EXPECT_EQ(EPERM, ioctl_errno(ns, NS_GET_NSTYPE, NULL));
	close(ns);
}

TEST_F(tree, ioctl_on_a_pipe_is_not_judged)
{
	int pipefd[2], n;

	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ(3, write(pipefd[1], "abc", 3));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, ioctl_errno(pipefd[0], FIONREAD, &n));
	EXPECT_EQ(3, n);
}

/* Programs the veil lets a process run but not read */

FIXTURE(x_only) {
	char base[64];
	char prog[PATH_MAX];
};

FIXTURE_SETUP(x_only)
{
	char probe[PATH_MAX];

	ASSERT_EQ(0, make_test_tree(self->base, sizeof(self->base)));
	snprintf(self->prog, sizeof(self->prog), "%s",
		 at(self->base, "a/prog"));
	helper_path(probe, sizeof(probe), "probe");
	ASSERT_EQ(0, copy_file(probe, self->prog, 0755));
}

FIXTURE_TEARDOWN_PARENT(x_only)
{
	EXPECT_EQ(0, remove_tree(self->base));
}

/* Veils the process with r on a and /proc, and x only on a/prog. */
static void veil_x_only(struct __test_metadata *const _metadata,
			const char *base)
{
	UNVEIL(at(base, "a"), "r");
	UNVEIL(at(base, "a/prog"), "x");
	UNVEIL("/proc", "r");
}

/*
 * Starts @prog with "pause" in a child, its standard output a pipe, and
 * waits until it runs.  Returns its PID, or -1.
 */
static pid_t start_paused(const char *prog)
{
	int pipefd[2];
	pid_t child;
	char c;

	if (pipe(pipefd))
		return -1;
	child = fork();
	if (child == 0) {
		dup2(pipefd[1], 1);
		execl(prog, prog, "pause", (char *)NULL);
		_exit(errno);
	}
	close(pipefd[1]);
	if (child > 0 && read(pipefd[0], &c, 1) != 1) {
		waitpid(child, NULL, 0);
		child = -1;
	}
	close(pipefd[0]);
	return child;
}

TEST_F(x_only, program_runs_not_dumpable_and_secure)
{
	/* Without a veil: dumpable, no AT_SECURE. */
	EXPECT_EQ(1, exec_program(self->prog, "exec-state", NULL, NULL));
	veil_x_only(_metadata, self->base);
	EXPECT_EQ(EACCES, open_errno(self->prog, O_RDONLY));
	EXPECT_EQ(2, exec_program(self->prog, "exec-state", NULL, NULL));
}

TEST_F(x_only, program_with_r_too_stays_dumpable)
{
	UNVEIL(at(self->base, "a"), "rx");
	EXPECT_EQ(1, exec_program(self->prog, "exec-state", NULL, NULL));
}

/*
 * Runs @prog with "exec-state" in a child that first calls @prepare (0 on
 * success); returns the errno of a failed execve(), the program's status,
 * 100 if @prepare failed, or -1.
 */
static int exec_state_after(const char *prog, int (*prepare)(void))
{
	pid_t child = fork();
	int status;

	if (child == 0) {
		if (prepare())
			_exit(100);
		execl(prog, prog, "exec-state", (char *)NULL);
		_exit(errno);
	}
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int trace_me(void)
{
	return ptrace(PTRACE_TRACEME, 0, NULL, NULL);
}

/*
 * A tracer from before execve() would read the program through its tracee
 * (PTRACE_PEEKTEXT, or registers set so that it writes itself out): the
 * execve() is refused.
 */
TEST_F(x_only, program_does_not_run_under_ptrace_traceme)
{
	veil_x_only(_metadata, self->base);
	EXPECT_EQ(EPERM, exec_state_after(self->prog, trace_me));
}

static int filter_by_seccomp(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };

	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

/*
 * A seccomp filter's listener could answer the program's calls, and have
 * the dynamic loader load code of its choice: the execve() is refused.
 */
TEST_F(x_only, program_does_not_run_under_a_seccomp_filter)
{
	veil_x_only(_metadata, self->base);
	EXPECT_EQ(EPERM, exec_state_after(self->prog, filter_by_seccomp));
}

#if defined(__x86_64__)
#define ELF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define ELF_MACHINE EM_AARCH64
#endif

#ifdef ELF_MACHINE
/*
 * Writes to @path a program of one segment, mode 0755, that names @interp
 * as its ELF interpreter; returns 0 or the errno.
 */
static int write_program_naming_interpreter(const char *path,
					    const char *interp)
{
	struct {
		struct elf64_hdr ehdr;
		struct elf64_phdr phdr[2];
		char interp[PATH_MAX];
	} elf = {};
	const size_t len = strlen(interp) + 1;
	const size_t size = offsetof(typeof(elf), interp) + len;

	memcpy(elf.ehdr.e_ident, ELFMAG, SELFMAG);
	elf.ehdr.e_ident[EI_CLASS] = ELFCLASS64;
	elf.ehdr.e_ident[EI_DATA] = ELFDATA2LSB;
	elf.ehdr.e_ident[EI_VERSION] = EV_CURRENT;
	elf.ehdr.e_type = ET_EXEC;
	elf.ehdr.e_machine = ELF_MACHINE;
	elf.ehdr.e_version = EV_CURRENT;
	elf.ehdr.e_entry = 0x10000000;
	elf.ehdr.e_phoff = offsetof(typeof(elf), phdr);
	elf.ehdr.e_ehsize = sizeof(elf.ehdr);
	elf.ehdr.e_phentsize = sizeof(elf.phdr[0]);
	elf.ehdr.e_phnum = 2;
	elf.phdr[0].p_type = PT_INTERP;
	elf.phdr[0].p_offset = offsetof(typeof(elf), interp);
	elf.phdr[0].p_filesz = len;
	elf.phdr[0].p_memsz = len;
	elf.phdr[0].p_flags = PF_R;
	elf.phdr[0].p_align = 1;
	elf.phdr[1].p_type = PT_LOAD;
	elf.phdr[1].p_vaddr = 0x10000000;
	elf.phdr[1].p_paddr = 0x10000000;
	elf.phdr[1].p_filesz = size;
	elf.phdr[1].p_memsz = size;
	elf.phdr[1].p_flags = PF_R | PF_X;
	elf.phdr[1].p_align = 0x1000;
	memcpy(elf.interp, interp, len);
	return write_bytes(path, &elf, size, 0755);
}

/*
 * Any program may name any other as its ELF interpreter, whose code then
 * runs beside its own: a program the process may read does not get one
 * that it may not.
 */
TEST_F(x_only, program_is_not_the_elf_interpreter_of_a_readable_program)
{
	const char *loader = at(self->base, "a/loader");

	ASSERT_EQ(0, write_program_naming_interpreter(loader, self->prog));
	/*
	 * Without a veil: it runs (the probe, as the interpreter, may then
	 * crash on what it was given).
	 */
	EXPECT_NE(EPERM, exec_program(loader, NULL, NULL, NULL));
	veil_x_only(_metadata, self->base);
	UNVEIL(loader, "rx");
	EXPECT_EQ(EPERM, exec_program(loader, NULL, NULL, NULL));
}
#endif /* ELF_MACHINE */

TEST_F(x_only, running_program_is_out_of_reach_of_ptrace)
{
	char buf[16], path[64];
	struct iovec local = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct iovec remote = { .iov_base = (void *)0x400000,
				.iov_len = sizeof(buf) };
	pid_t child;

	veil_x_only(_metadata, self->base);
	child = start_paused(self->prog);
	ASSERT_LT(0, child);
	EXPECT_EQ(EPERM, errno_of(ptrace(PTRACE_ATTACH, child, NULL, NULL)));
	EXPECT_EQ(EPERM, errno_of(ptrace(PTRACE_SEIZE, child, NULL, NULL)));
	EXPECT_EQ(EPERM, errno_of(process_vm_readv(child, &local, 1, &remote,
						   1, 0)));
	snprintf(path, sizeof(path), "/proc/%d/mem", child);
	EXPECT_EQ(EACCES, open_errno(path, O_RDONLY));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

/* The same process, running a program it may read: within reach. */
TEST_F(x_only, running_readable_program_is_within_reach_of_ptrace)
{
	pid_t child;
	int status;

	UNVEIL(at(self->base, "a"), "rx");
	UNVEIL("/proc", "r");
	child = start_paused(self->prog);
	ASSERT_LT(0, child);
	EXPECT_EQ(0, errno_of(ptrace(PTRACE_ATTACH, child, NULL, NULL)));
	EXPECT_EQ(child, waitpid(child, &status, 0));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

TEST_HARNESS_MAIN
