/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the programs of the benchmark (unveil-bench.c, unveil-cost.c) share:
 * dying with a message, the clock, waiting for a timer tick, making their
 * trees and unveiling.
 */

#ifndef UNVEIL_BENCH_H
#define UNVEIL_BENCH_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* __NR_unveil comes from the kernel's headers (scripts/build: -isystem). */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Prints "PROGRAM: MESSAGE: ERRNO" and exits with 1. */
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", program_invocation_short_name);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, ": %s\n", strerror(errno));
	va_end(ap);
	exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * Sleeps while the work that earlier calls left to RCU callbacks runs, and
 * wakes up at a timer tick (the kernel has no high-resolution timers): each
 * batch starts at the same point between two ticks, so the ticks, and what
 * runs in them, fall at the same calls in every run.  Idle time costs no
 * host time under -icount.
 */
static void settle(void)
{
	const struct timespec idle = { .tv_nsec = 20 * 1000 * 1000 };

	nanosleep(&idle, NULL);
}

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		die("mkdir(%s)", path);
}

static void make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	if (fd < 0)
		die("creating %s", path);
	close(fd);
}

static void unveil_or_die(const char *path, const char *permissions)
{
	if (syscall(__NR_unveil, path, permissions))
		die("unveil(%s, %s)", path, permissions);
}

#endif /* UNVEIL_BENCH_H */
