/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unveil selftests - common helpers
 */

#ifndef _SELFTESTS_UNVEIL_COMMON_H
#define _SELFTESTS_UNVEIL_COMMON_H

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_unveil
#define __NR_unveil 463
#endif

static inline int sys_unveil(const char *path, const char *permissions)
{
	return syscall(__NR_unveil, path, permissions);
}

/* errno of a failed call, 0 on success. */
static inline int unveil_errno(const char *path, const char *permissions)
{
	return sys_unveil(path, permissions) ? errno : 0;
}

/* Path of a helper program that sits next to the running test. */
static inline void helper_path(char *buf, size_t size, const char *name)
{
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (len < 0)
		len = 0;
	self[len] = '\0';
	snprintf(buf, size, "%s/%s", dirname(self), name);
}

#endif /* _SELFTESTS_UNVEIL_COMMON_H */
