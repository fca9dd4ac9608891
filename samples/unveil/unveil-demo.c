// SPDX-License-Identifier: GPL-2.0
/*
 * unveil demo: build a small tree, reveal parts of it, and show what the
 * process can still see and do.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unveil.h>

#define DEMO "/tmp/unveil-demo"

static void report(const char *what, int ret)
{
	printf("  %-46s %s\n", what, ret < 0 ? strerrorname_np(errno) : "ok");
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0) {
		if (write(fd, text, strlen(text)) < 0)
			perror(path);
		close(fd);
	}
}

static int try_read(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t len;

	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	return len < 0 ? -1 : 0;
}

static int try_create(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0)
		return -1;
	return close(fd);
}

int main(void)
{
	struct stat st;

	/*
	 * <unveil.h> makes the system call only where unveil is active: its
	 * number belongs to another call on kernels without it.
	 */
	if (!unveil_active()) {
		fputs("unveil is not active on this kernel (not built in, or not in lsm=)\n",
		      stderr);
		return 1;
	}
	if (!unveil_supported()) {
		perror("unveil");	/* EPERM: the veil is locked */
		return 1;
	}
	mkdir(DEMO, 0755);
	mkdir(DEMO "/public", 0755);
	mkdir(DEMO "/private", 0700);
	mkdir(DEMO "/drop", 0755);
	write_file(DEMO "/public/readme.txt", "hello\n");
	write_file(DEMO "/private/secret.txt", "s3cret\n");
	unlink(DEMO "/drop/new.txt");
	unlink(DEMO "/public/new.txt");

	printf("unveil demo (pid %d)\n", getpid());
	printf("tree: %s/{public/readme.txt, private/secret.txt, drop/}\n\n",
	       DEMO);
	printf("unveil calls:\n");
	report("unveil(\"" DEMO "/public\", \"r\")",
	       unveil(DEMO "/public", "r"));
	report("unveil(\"" DEMO "/drop\", \"rwc\")",
	       unveil(DEMO "/drop", "rwc"));
	report("unveil(NULL, NULL)  (lock)", unveil(NULL, NULL));

	printf("\nwhat the process sees now:\n");
	report("read public/readme.txt", try_read(DEMO "/public/readme.txt"));
	report("create public/new.txt", try_create(DEMO "/public/new.txt"));
	report("create drop/new.txt", try_create(DEMO "/drop/new.txt"));
	report("read drop/new.txt", try_read(DEMO "/drop/new.txt"));
	report("read private/secret.txt", try_read(DEMO "/private/secret.txt"));
	report("stat /bin/busybox", stat("/bin/busybox", &st));
	report("stat /", stat("/", &st));
	report("fstat(1) (fd opened before the veil)", fstat(1, &st));
	report("unveil(\"/\", \"rwxc\") after the lock", unveil("/", "rwxc"));
	return 0;
}
