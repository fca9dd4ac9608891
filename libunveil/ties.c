// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libunveil: what a Landlock domain would not bind.
 *
 * The system call refuses to lock a veil (EBUSY) while the process can act
 * as another one.  restrict_self() confines only the calling thread, and
 * leaves alone what already acts with the process's credentials from
 * before: an io_uring ring's personalities and workers, another process
 * it traces, or whose memory (/proc/PID/mem) or descriptor table it
 * shares.  The emulation finds them in /proc and refuses the same way;
 * where /proc/self cannot be read, it cannot tell, and refuses with the
 * error of reading it.
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/kcmp.h>

#include "emulation.h"

static int busy(void)
{
	errno = EBUSY;
	return -1;
}

static int other_threads(void)
{
	unsigned long threads = 0;
	char line[128];
	FILE *status;

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

/* An io_uring ring, or another process's memory, that @name leads to. */
static bool is_tie(const char *name, pid_t self)
{
	char *end;
	long pid;

	if (strstr(name, "[io_uring]"))
		return true;
	if (strncmp(name, "/proc/", 6) || !isdigit((unsigned char)name[6]))
		return false;
	pid = strtol(name + 6, &end, 10);
	return !strcmp(end, "/mem") && pid != self;
}

/* The descriptors and the mappings of the process, a ring's included. */
static int open_ties(pid_t self)
{
	char link[300], name[256];
	struct dirent *entry;
	ssize_t n;
	FILE *maps;
	DIR *fds;
	int ret = 0;

	fds = opendir("/proc/self/fd");
	if (!fds)
		return -1;
	while (!ret && (entry = readdir(fds))) {
		snprintf(link, sizeof(link), "/proc/self/fd/%s", entry->d_name);
		n = readlink(link, name, sizeof(name) - 1);
		if (n < 0)
			continue;
		name[n] = '\0';
		if (is_tie(name, self))
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
	return ret;
}

/*
 * Whether process @pid is traced by @self, or shares its memory or its
 * descriptor table (kcmp(2); not checked on kernels without it).  A
 * process whose status cannot be read is not one: an earlier veil hides
 * it, and Landlock let no veiled process attach to it.
 */
static bool tied_to(pid_t pid, pid_t self)
{
	char path[64], line[128];
	bool tied = false;
	FILE *status;
	int tracer;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	status = fopen(path, "re");
	if (!status)
		return false;
	while (fgets(line, sizeof(line), status))
		if (sscanf(line, "TracerPid: %d", &tracer) == 1) {
			tied = tracer == self;
			break;
		}
	fclose(status);
	return tied || !syscall(SYS_kcmp, self, pid, KCMP_VM, 0, 0) ||
	       !syscall(SYS_kcmp, self, pid, KCMP_FILES, 0, 0);
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
		if (pid > 0 && pid != self && tied_to(pid, self))
			ret = busy();
	}
	closedir(proc);
	return ret;
}

int unveil_check_ties(void)
{
	pid_t self = getpid();

	if (other_threads() || open_ties(self) || process_ties(self))
		return -1;
	return 0;
}
