// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - helper run through execve(), so that tests can see what
 * a new program gets.  Exits with the errno of one call, or 0:
 *   probe unveil PATH PERMISSIONS   ("NULL" for a NULL argument)
 *   probe open PATH                 open(PATH, O_RDONLY)
 *   probe exec-state                2 * AT_SECURE + PR_GET_DUMPABLE
 *   probe pause                     writes "x" to stdout, then waits to be
 *                                   killed
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>

#include "common.h"

static const char *arg(const char *s)
{
	return strcmp(s, "NULL") ? s : NULL;
}

int main(int argc, char *argv[])
{
	if (argc == 4 && !strcmp(argv[1], "unveil"))
		return unveil_errno(arg(argv[2]), arg(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "open"))
		return open(argv[2], O_RDONLY) < 0 ? errno : 0;
	if (argc == 2 && !strcmp(argv[1], "exec-state"))
		return 2 * !!getauxval(AT_SECURE) +
		       prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	if (argc == 2 && !strcmp(argv[1], "pause")) {
		if (write(1, "x", 1) != 1)
			return errno;
		for (;;)
			pause();
	}
	return 255;
}
