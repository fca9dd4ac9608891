// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libunveil: what a Landlock domain would not bind.
 *
 * The system call refuses to lock a veil (EBUSY) while the process can act
 * as another one.  restrict_self() confines only the calling thread, and
 * leaves alone what already acts with the process's credentials from
 * before: an io_uring ring's personalities and workers, another process
 * it traces, or whose memory (/proc/PID/mem) or descriptor table it
 * shares.  The emulation looks for them in /proc, and refuses the same
 * way; where it cannot look (no /proc, or the /proc of another PID
 * namespace), it refuses too, and while one of its AF_UNIX sockets has a
 * message waiting, which may carry such descriptors.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/io_uring.h>
#include <linux/kcmp.h>
#include <linux/magic.h>

#include "emulation.h"

/* The slots of io_uring_register(IORING_REGISTER_RING_FDS). */
#define REGISTERED_RING_SLOTS 16

static int busy(void)
{
	errno = EBUSY;
	return -1;
}

/* The one thread of this process, in this process's PID namespace. */
static int other_threads(pid_t self)
{
	unsigned long threads = 0;
	char line[128], link[32];
	ssize_t n;
	FILE *status;

	n = readlink("/proc/self", link, sizeof(link) - 1);
	if (n < 0)
		return -1;
	link[n] = '\0';
	if (strtol(link, NULL, 10) != self)
		return busy();
	status = fopen("/proc/self/status", "re");
	if (!status)
		return -1;
	while (fgets(line, sizeof(line), status))
		if (sscanf(line, "Threads: %lu", &threads) == 1)
			break;
	fclose(status);
	if (!threads) {
		errno = EIO;
		return -1;
	}
	return threads > 1 ? busy() : 0;
}

/* A ring, or a process's memory (but this one's), behind a descriptor. */
static bool is_tie(const char *link, const char *name, pid_t self)
{
	const char *pid = strrchr(name, '/');
	char own[32];
	struct statfs fs;

	if (strstr(name, "[io_uring]"))
		return true;
	if (!pid || strcmp(pid, "/mem") || statfs(link, &fs) ||
	    fs.f_type != PROC_SUPER_MAGIC)
		return false;
	snprintf(own, sizeof(own), "/%d/mem", self);
	return strlen(name) < strlen(own) ||
	       strcmp(name + strlen(name) - strlen(own), own) ||
	       strstr(name, "/task/");
}

/*
 * Whether @fd is an AF_UNIX socket with something waiting: a message may
 * carry descriptors the process sent itself before the lock (a ring, or
 * another process's memory), which it would receive inside the domain.
 */
static bool carries_descriptors(int fd)
{
	struct pollfd waiting = { .fd = fd, .events = POLLIN };
	int domain;
	socklen_t len = sizeof(domain);

	return !getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) &&
	       domain == AF_UNIX && poll(&waiting, 1, 0) == 1 &&
	       (waiting.revents & POLLIN);
}

/*
 * The descriptors, the mappings and the registered rings of the process:
 * io_uring_enter() on a slot without a ring fails with EBADF.
 */
static int open_ties(pid_t self)
{
	char link[300], name[256];
	struct dirent *entry;
	ssize_t n;
	FILE *maps;
	DIR *fds;
	int ret = 0, slot;

	fds = opendir("/proc/self/fd");
	if (!fds)
		return -1;
	while (!ret && (entry = readdir(fds))) {
		snprintf(link, sizeof(link), "/proc/self/fd/%s", entry->d_name);
		n = readlink(link, name, sizeof(name) - 1);
		if (n < 0)
			continue;
		name[n] = '\0';
		if (is_tie(link, name, self) ||
		    carries_descriptors(atoi(entry->d_name)))
			ret = busy();
	}
	closedir(fds);
	if (ret)
		return ret;
	maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return -1;
	while (!ret && fgets(name, sizeof(name), maps))
		if (strstr(name, "[io_uring]"))
			ret = busy();
	fclose(maps);
	for (slot = 0; !ret && slot < REGISTERED_RING_SLOTS; slot++)
		if (!syscall(SYS_io_uring_enter, slot, 0, 0,
			     IORING_ENTER_REGISTERED_RING, NULL, 0))
			ret = busy();
	return ret;
}

/*
 * Whether kcmp(2) finds @tid sharing @what with @self.  It may not compare
 * a process that is not dumpable: one that shares this process's memory
 * is not dumpable when this one is not, so then it counts as sharing.
 */
static bool shares(pid_t self, pid_t tid, int what)
{
	if (!syscall(SYS_kcmp, self, tid, what, 0, 0))
		return true;
	return errno == EPERM && what == KCMP_VM && !prctl(PR_GET_DUMPABLE);
}

/*
 * Whether thread @tid (of another process) is traced by @self, or shares
 * its memory or its descriptor table.  A thread whose status cannot be
 * read is not one: an earlier veil hides it, and Landlock let no veiled
 * process attach to it.
 */
static bool tied_to(const char *status_path, pid_t tid, pid_t self)
{
	char line[128];
	bool tied = false;
	FILE *status;
	int tracer;

	status = fopen(status_path, "re");
	if (!status)
		return false;
	while (fgets(line, sizeof(line), status))
		if (sscanf(line, "TracerPid: %d", &tracer) == 1) {
			tied = tracer == self;
			break;
		}
	fclose(status);
	return tied || shares(self, tid, KCMP_VM) ||
	       shares(self, tid, KCMP_FILES);
}

/* Each thread of process @pid. */
static bool threads_tied(long pid, pid_t self)
{
	char path[300];
	struct dirent *entry;
	bool tied = false;
	DIR *tasks;
	long tid;

	snprintf(path, sizeof(path), "/proc/%ld/task", pid);
	tasks = opendir(path);
	if (!tasks)
		return false;
	while (!tied && (entry = readdir(tasks))) {
		tid = strtol(entry->d_name, NULL, 10);
		snprintf(path, sizeof(path), "/proc/%ld/task/%ld/status", pid,
			 tid);
		tied = tid > 0 && tied_to(path, tid, self);
	}
	closedir(tasks);
	return tied;
}

static int process_ties(pid_t self)
{
	struct dirent *entry;
	DIR *proc;
	int ret = 0;
	long pid;

	proc = opendir("/proc");
	if (!proc)
		return -1;
	while (!ret && (entry = readdir(proc))) {
		pid = strtol(entry->d_name, NULL, 10);
		if (pid > 0 && pid != self && threads_tied(pid, self))
			ret = busy();
	}
	closedir(proc);
	return ret;
}

int unveil_check_ties(void)
{
	pid_t self = getpid();

	if (other_threads(self) || open_ties(self) || process_ties(self))
		return -1;
	return 0;
}
