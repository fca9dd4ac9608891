/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unveil selftests - common helpers
 */

#ifndef _SELFTESTS_UNVEIL_COMMON_H
#define _SELFTESTS_UNVEIL_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * The system call itself.  __NR_unveil comes from the headers of the kernel
 * the tests are built with (KHDR_INCLUDES); programs built without them
 * take it from <unveil.h> (tools/unveil/unveil.h).
 */
static inline int sys_unveil(const char *path, const char *permissions)
{
	return syscall(__NR_unveil, path, permissions);
}

/* errno of a failed call, 0 on success. */
static inline int unveil_errno(const char *path, const char *permissions)
{
	return sys_unveil(path, permissions) ? errno : 0;
}

/* errno of a call that returns -1 on failure, 0 on success. */
static inline int errno_of(long ret)
{
	return ret < 0 ? errno : 0;
}

/* errno of open(path, flags), 0 on success (the file is closed again). */
static inline int open_errno(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Builds "base/rel" into a static buffer; up to four live at once. */
static inline const char *at(const char *base, const char *rel)
{
	static char bufs[4][PATH_MAX];
	static int next;
	char *buf = bufs[next++ % 4];

	snprintf(buf, PATH_MAX, "%s/%s", base, rel);
	return buf;
}

/*
 * Opens @path relative to @dirfd for reading and reads it into @buf, NUL
 * terminated; returns the errno of the open, 0 on success.
 */
static inline int read_at(int dirfd, const char *path, char *buf, size_t size)
{
	int fd = openat(dirfd, path, O_RDONLY);
	ssize_t len;

	buf[0] = '\0';
	if (fd < 0)
		return errno;
	len = read(fd, buf, size - 1);
	buf[len > 0 ? len : 0] = '\0';
	close(fd);
	return 0;
}

/* Opens /proc/@pid/attr/unveil/@name (@pid 0: self); returns an fd or -1. */
static inline int open_attr(pid_t pid, const char *name)
{
	char path[64];

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/attr/unveil/%s", pid,
			 name);
	else
		snprintf(path, sizeof(path), "/proc/self/attr/unveil/%s", name);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* Reads all of @fd into @buf and closes it; returns 0 or the errno. */
static inline int read_attr_fd(int fd, char *buf, size_t size)
{
	size_t done = 0;
	ssize_t len = 0;

	if (fd < 0)
		return errno;
	while (done < size - 1 &&
	       (len = read(fd, buf + done, size - 1 - done)) > 0)
		done += len;
	close(fd);
	if (len < 0)
		return errno;
	buf[done] = '\0';
	return 0;
}

/* Writes @text to the existing file @path; returns 0 or the errno. */
static inline int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		err = errno ?: EIO;
	close(fd);
	return err;
}

/*
 * Writes @value to /proc/@pid/attr/unveil/learn (@pid 0: the calling
 * process); returns 0 or the errno.  "1" asks for a learning veil.
 */
static inline int write_learn(pid_t pid, const char *value)
{
	char path[64];

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/attr/unveil/learn", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/attr/unveil/learn");
	return write_text(path, value);
}

/* In a test: unveil() that must succeed. */
#define UNVEIL(path, perms) ASSERT_EQ(0, unveil_errno(path, perms))

/*
 * The directory of the running test, found when it starts: once a test has
 * dropped its veil, /proc/self/exe may be hidden.
 */
static char test_dir[PATH_MAX / 2];

static void __attribute__((constructor)) find_test_dir(void)
{
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (len < 0)
		len = 0;
	self[len] = '\0';
	snprintf(test_dir, sizeof(test_dir), "%s", dirname(self));
}

/* Path of a helper program that sits next to the running test. */
static inline void helper_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", test_dir, name);
}

/*
 * Creates or truncates @path with @mode and writes the @size bytes at @data
 * into it; returns 0 or the errno.
 */
static inline int write_bytes(const char *path, const void *data,
			      size_t size, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, data, size) < 0) {
		err = errno;
		perror(path);
	}
	close(fd);
	return err;
}

/*
 * Creates or truncates @path and writes @text into it; returns 0 or the
 * errno.
 */
static inline int write_file(const char *path, const char *text)
{
	return write_bytes(path, text, strlen(text), 0644);
}

static inline int remove_entry(const char *path, const struct stat *st,
			       int type, struct FTW *ftw)
{
	return remove(path) ? -errno : 0;
}

/*
 * Makes a fresh directory for the files of a test in @base (@size bytes):
 * in $UNVEIL_TEST_DIR (scripts/guest-fs-matrix runs a suite on each file
 * system) or in /tmp, named after the program.  Its fixture removes it
 * with remove_tree() in FIXTURE_TEARDOWN_PARENT(), which runs in the
 * parent, without the veil the test dropped.  Returns 0 or the errno.
 */
static inline int make_test_dir(char *base, size_t size)
{
	const char *dir = getenv("UNVEIL_TEST_DIR");

	snprintf(base, size, "%s/%s.XXXXXX", dir ?: "/tmp",
		 program_invocation_short_name);
	return mkdtemp(base) ? 0 : errno;
}

/*
 * Makes the tree most tests work in, in a fresh directory of make_test_dir():
 *   a/f1  a/f2  a/sub/f3  a/empty/
 *   b/f4
 * Returns 0 or the errno of the first step that failed.
 */
static inline int make_test_tree(char *base, size_t size)
{
	static const char *const dirs[] = { "a", "a/sub", "a/empty", "b",
					    NULL };
	static const char *const files[] = { "a/f1", "a/f2", "a/sub/f3",
					     "b/f4", NULL };
	int err = make_test_dir(base, size);
	int i;

	for (i = 0; !err && dirs[i]; i++)
		err = mkdir(at(base, dirs[i]), 0755) ? errno : 0;
	/* Each file holds its name: "f1" ... "f4". */
	for (i = 0; !err && files[i]; i++)
		err = write_file(at(base, files[i]), strrchr(files[i], '/') + 1);
	return err;
}

/*
 * Removes the tree at @base, depth first, after detaching every mount in
 * it; returns 0, or nonzero on failure.
 */
static inline int remove_tree(const char *base)
{
	char line[2 * PATH_MAX], point[PATH_MAX];
	size_t len = strlen(base);
	bool detached;
	FILE *mounts;

	do {
		detached = false;
		mounts = fopen("/proc/self/mounts", "re");
		if (!mounts)
			break;
		while (fgets(line, sizeof(line), mounts))
			if (sscanf(line, "%*s %4095s", point) == 1 &&
			    !strncmp(point, base, len) && point[len] == '/' &&
			    !umount2(point, MNT_DETACH))
				detached = true;
		fclose(mounts);
	} while (detached);
	return -nftw(base, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Sends @fd over the AF_UNIX socket @sock with one byte; 0 or -1. */
static inline int send_fd(int sock, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control = {};
	struct iovec iov = { .iov_base = "f", .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

/*
 * The descriptor that a message on @sock carries: -1 if no message came, -2
 * if it came without one (the kernel refused to pass it: MSG_CTRUNC).
 */
static inline int recv_fd(int sock)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control = {};
	char data;
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS)
		return msg.msg_flags & MSG_CTRUNC ? -2 : -1;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

/* The exit status of @child once it ends, -1 if it did not exit. */
static inline int exit_status_of(pid_t child)
{
	int status;

	if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A child that sleeps until it is killed. */
static inline pid_t spawn_sleeper(void)
{
	pid_t child = fork();

	if (child == 0) {
		for (;;)
			pause();
	}
	return child;
}

/*
 * Runs @prog with up to three arguments (NULL ends them) through fork() and
 * execve(); returns its exit status, the errno of a failed execve(), or -1.
 */
static inline int exec_program(const char *prog, const char *a1,
			       const char *a2, const char *a3)
{
	int status;
	pid_t child = fork();

	if (child == 0) {
		execl(prog, prog, a1, a2, a3, (char *)NULL);
		_exit(errno);
	}
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Runs the probe helper (see probe.c) with up to three arguments. */
static inline int exec_probe(const char *a1, const char *a2, const char *a3)
{
	char helper[PATH_MAX];

	helper_path(helper, sizeof(helper), "probe");
	return exec_program(helper, a1, a2, a3);
}

/*
 * Gives the process new credentials, the same but for one effective
 * capability: requests of an io_uring personality registered before, and
 * faccessat(), then run with credentials that are not the process's own.
 * Returns 0 or the errno.
 */
static inline int drop_an_effective_capability(void)
{
	struct __user_cap_header_struct header = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[2];

	if (syscall(SYS_capget, &header, caps))
		return errno;
	caps[0].effective &= ~(1u << CAP_SYS_NICE);
	return syscall(SYS_capset, &header, caps) ? errno : 0;
}

/* Copies a file, e.g. a program; returns 0 or an errno. */
static inline int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[4096];
	int in, out, err = 0;
	ssize_t len;

	in = open(from, O_RDONLY);
	if (in < 0)
		return errno;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL, mode);
	if (out < 0) {
		err = errno;
		close(in);
		return err;
	}
	while ((len = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, len) != len) {
			err = EIO;
			break;
		}
	}
	if (len < 0)
		err = errno;
	close(in);
	close(out);
	return err;
}

/*
 * Runs @refusals in a child veiled with @path @perms, then reads the
 * child's refusals (/proc/PID/attr/unveil/refusals) into @buf, once it has
 * exited and before it is reaped: its veil lives until then.  Returns the
 * child's PID, or -1 if @refusals did not return 0 or the file could not be
 * read.
 */
static inline pid_t refusals_of_child(const char *path, const char *perms,
				      int (*refusals)(void), char *buf,
				      size_t size)
{
	siginfo_t info;
	pid_t child;
	int err;

	child = fork();
	if (child < 0)
		return -1;
	if (child == 0)
		_exit(sys_unveil(path, perms) ? 100 : refusals());
	if (waitid(P_PID, child, &info, WEXITED | WNOWAIT) ||
	    info.si_code != CLD_EXITED || info.si_status) {
		waitpid(child, NULL, 0);
		return -1;
	}
	err = read_attr_fd(open_attr(child, "refusals"), buf, size);
	waitpid(child, NULL, 0);
	return err ? -1 : child;
}

#endif /* _SELFTESTS_UNVEIL_COMMON_H */
