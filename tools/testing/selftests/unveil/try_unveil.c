// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - helper run through execve(): calls unveil(argv[1],
 * argv[2]) ("NULL" for a NULL argument) and exits with the errno, or 0.
 */

#include <string.h>

#include "common.h"

static const char *arg(const char *s)
{
	return strcmp(s, "NULL") ? s : NULL;
}

int main(int argc, char *argv[])
{
	if (argc != 3)
		return 255;
	return unveil_errno(arg(argv[1]), arg(argv[2]));
}
