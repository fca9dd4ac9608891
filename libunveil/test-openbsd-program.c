// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A program as it is written for OpenBSD: unveil() from <unistd.h>, no
 * Linux in sight.  Built with $(pkg-config --cflags --libs unveil) and no
 * change, it must run confined: it writes and reads back a file in DIR,
 * and cannot open FILE outside it.  Exits 0 if so.
 *
 * Usage: test-openbsd-program DIR FILE
 */

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
	char path[1024], buf[8];
	int fd;

	if (argc != 3)
		errx(2, "usage: test-openbsd-program DIR FILE");
	if (unveil(argv[1], "rwc") == -1)
		err(1, "unveil");
	if (unveil(NULL, NULL) == -1)
		err(1, "unveil");

	snprintf(path, sizeof(path), "%s/written", argv[1]);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd == -1 || write(fd, "veiled", 6) != 6 || close(fd) == -1)
		err(1, "%s", path);
	fd = open(path, O_RDONLY);
	if (fd == -1 || read(fd, buf, sizeof(buf)) != 6 ||
	    memcmp(buf, "veiled", 6))
		err(1, "%s: read back", path);
	close(fd);

	fd = open(argv[2], O_RDONLY);
	if (fd != -1)
		errx(1, "%s: opened outside the veil", argv[2]);
	printf("confined: %s: %s\n", argv[2], strerror(errno));
	return 0;
}
