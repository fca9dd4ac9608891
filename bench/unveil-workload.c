// SPDX-License-Identifier: GPL-2.0
/*
 * Times a real program for "make bench" (bench/workloads.sh): runs a
 * command once to warm the caches, then RUNS times, each in a child with
 * its standard input and output on /dev/null, and prints one CSV line a
 * run:
 *
 *   workload,KERNEL,MODE,NAME,RUN,NS
 *
 * Under QEMU's -icount the guest's clock counts instructions, so NS is
 * the instructions the run took, the kernel's included.  Exits 1 when a
 * run fails: a veil that the workload does not run under measures
 * nothing.
 *
 * To time the veil and not the launcher's start, run it under the veil
 * (unveil ... -- unveil-workload ...): each run is then a fork and an exec
 * under the veil, as a veiled shell or make runs a command.  It execs
 * nothing but the command, so the veil needs to show it nothing else.
 *
 * Usage: unveil-workload [--fresh DIR] KERNEL MODE NAME RUNS -- CMD [ARG...]
 *   --fresh DIR  before each run, untimed, remove DIR and make it again,
 *                empty (for a command that fills it)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: unveil-workload [--fresh DIR] KERNEL MODE NAME RUNS -- CMD [ARG...]\n";

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Runs @argv, input and output on /dev/null; returns its wait status. */
static int run(char *const argv[])
{
	int status;
	pid_t child = fork();

	if (child < 0)
		return -1;
	if (child == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null < 0 || dup2(null, STDIN_FILENO) < 0 ||
		    dup2(null, STDOUT_FILENO) < 0)
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child)
		return -1;
	return status;
}

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	return remove(path);
}

static int make_fresh(const char *dir)
{
	if (nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		return -1;
	return mkdir(dir, 0755);
}

int main(int argc, char *argv[])
{
	const char *fresh = NULL, *kernel, *mode, *name;
	int i, runs, status;
	char **cmd;

	if (argc > 2 && !strcmp(argv[1], "--fresh")) {
		fresh = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 7 || strcmp(argv[5], "--")) {
		fputs(usage, stderr);
		return 2;
	}
	kernel = argv[1];
	mode = argv[2];
	name = argv[3];
	runs = atoi(argv[4]);
	cmd = argv + 6;
	/* Run 0 warms the caches (the host's programs come over 9p). */
	for (i = 0; i <= runs; i++) {
		long long start;

		if (fresh && make_fresh(fresh)) {
			fprintf(stderr, "unveil-workload: cannot empty %s\n", fresh);
			return 1;
		}
		start = now_ns();
		status = run(cmd);
		if (status) {
			fprintf(stderr, "unveil-workload: %s (%s, %s) failed: status %#x\n",
				name, kernel, mode, status);
			return 1;
		}
		if (i)
			printf("workload,%s,%s,%s,%d,%lld\n", kernel, mode, name,
			       i, now_ns() - start);
	}
	return 0;
}
