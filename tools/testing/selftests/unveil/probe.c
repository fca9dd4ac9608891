// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - helper run through execve(), so that tests can see what
 * a new program gets.  Exits with the errno of one call, or 0:
 *   probe unveil PATH PERMISSIONS   ("NULL" for a NULL argument)
 *   probe open PATH                 open(PATH, O_RDONLY)
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>

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
	return 255;
}
