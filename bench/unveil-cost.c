// SPDX-License-Identifier: GPL-2.0
/*
 * unveil cost benchmark: what a veil costs besides the checks of
 * bench/unveil-bench.c.
 *
 * Usage: unveil-cost KERNEL setup|process|threads...
 *   setup    unveil() itself: 1, 10, 100 and 1000 directory rules, and 1000
 *            directory rules then 1000 name rules in one directory ("2000"),
 *            then unveil(NULL, NULL).  ops: "add" (ns per unveil() call,
 *            over all of them), "add-last" (per call, over the last tenth:
 *            what one more rule costs at that size), "lock".
 *   process  fork() + _exit() + wait() ("fork") and fork() + execve() of this
 *            static program + wait() ("exec"), without a veil (0 rules) and
 *            under one of 100 and 1000 rules.
 *   threads  1 and 2 threads opening and closing the same file at depth 10,
 *            without a veil ("none"), under a veil ("veiled") and under the
 *            same Landlock ruleset ("landlock"), by the wall clock: run it
 *            without -icount, on 2 vCPUs.  op: the mode; depth: the number
 *            of threads; ns: wall time per call, divided by the threads.
 *
 * Prints, after all timings, one CSV line per cell, as unveil-bench does:
 *   kernel,mode,rules,op,depth,ns_per_op
 * Its tree is /tmp/cost: other/N (the directories of the extra rules),
 * names/fN (the files of the name rules) and d1/.../d10/f.  Every
 * measurement runs in a child, since no veil can be removed, three times:
 * the median is printed.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define ROOT		"/tmp/cost"
#define MAX_RULES	1000
#define DEPTH		10
#define RUNS		3
#define FORKS		200
#define EXECS		50
#define THREAD_CALLS	20000
#define MAX_THREADS	2

static char self[PATH_MAX];
static char deep_file[PATH_MAX];

/* One measurement: a CSV line, printed at the end. */
struct cell {
	const char *mode;
	int rules;
	const char *op;
	int depth;
	double ns;
};

static struct cell cells[64];
static unsigned int num_cells;

/* What a child measured, shared with its parent. */
static double *shared;

static void add_cell(const char *mode, int rules, const char *op, int depth,
		     double ns)
{
	if (num_cells == ARRAY_SIZE(cells)) {
		errno = ENOSPC;
		die("too many cells");
	}
	cells[num_cells++] = (struct cell){ mode, rules, op, depth, ns };
}

static int compare(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *values, int n)
{
	qsort(values, n, sizeof(*values), compare);
	return values[n / 2];
}

/*
 * Runs @measure(@arg) in a child, RUNS times; the child writes @count values
 * to shared[]; returns their medians in @out.
 */
static void in_children(void (*measure)(int arg), int arg, int count,
			double *out)
{
	double runs[MAX_THREADS * 3][RUNS];
	int run, i, status;
	pid_t pid;

	for (run = 0; run < RUNS; run++) {
		settle();
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			measure(arg);
			exit(0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			exit(1);
		for (i = 0; i < count; i++)
			runs[i][run] = shared[i];
	}
	for (i = 0; i < count; i++)
		out[i] = median(runs[i], RUNS);
}

static void make_tree(void)
{
	char path[PATH_MAX];
	int i;

	make_dir(ROOT);
	make_dir(ROOT "/other");
	make_dir(ROOT "/names");
	for (i = 0; i < MAX_RULES; i++) {
		snprintf(path, sizeof(path), ROOT "/other/%d", i);
		make_dir(path);
		snprintf(path, sizeof(path), ROOT "/names/f%d", i);
		make_file(path);
	}
	strcpy(path, ROOT);
	for (i = 1; i <= DEPTH; i++) {
		snprintf(path + strlen(path), sizeof(path) - strlen(path),
			 "/d%d", i);
		make_dir(path);
	}
	snprintf(deep_file, sizeof(deep_file), "%s/f", path);
	make_file(deep_file);
}

/* The @i-th extra rule: a directory, or past MAX_RULES a name. */
static void unveil_rule(int i)
{
	char path[PATH_MAX];

	if (i < MAX_RULES)
		snprintf(path, sizeof(path), ROOT "/other/%d", i);
	else
		snprintf(path, sizeof(path), ROOT "/names/f%d", i - MAX_RULES);
	unveil_or_die(path, "r");
}

/* shared[]: ns per unveil() call, per call over the last tenth, lock. */
static void measure_setup(int rules)
{
	const int last = rules - (rules + 9) / 10;
	long long start, tenth = 0, end;
	int i;

	start = now_ns();
	for (i = 0; i < rules; i++) {
		if (i == last)
			tenth = now_ns();
		unveil_rule(i);
	}
	end = now_ns();
	unveil_or_die(NULL, NULL);
	shared[0] = (double)(end - start) / rules;
	shared[1] = (double)(end - tenth) / (rules - last);
	shared[2] = now_ns() - end;
}

static void run_setup(void)
{
	static const int counts[] = { 1, 10, 100, 1000, 2 * MAX_RULES };
	double out[3];
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(counts); c++) {
		in_children(measure_setup, counts[c], 3, out);
		add_cell("setup", counts[c], "add", 0, out[0]);
		add_cell("setup", counts[c], "add-last", 0, out[1]);
		add_cell("setup", counts[c], "lock", 0, out[2]);
	}
}

/* A veil of @rules rules that lets this program run again, or none. */
static void veil(int rules)
{
	int i;

	if (!rules)
		return;
	unveil_or_die(self, "x");
	unveil_or_die(ROOT "/d1", "r");
	for (i = 2; i < rules; i++)
		unveil_rule(i);
	unveil_or_die(NULL, NULL);
}

static void wait_child(pid_t pid)
{
	int status;

	if (pid < 0)
		die("fork");
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("child failed");
}

/* shared[]: ns per fork() + _exit() + wait(), per fork() + execve() + wait(). */
static void measure_process(int rules)
{
	char *const argv[] = { self, "exit", NULL };
	long long start;
	pid_t pid;
	int i;

	veil(rules);
	settle();
	start = now_ns();
	for (i = 0; i < FORKS; i++) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		wait_child(pid);
	}
	shared[0] = (double)(now_ns() - start) / FORKS;
	settle();
	start = now_ns();
	for (i = 0; i < EXECS; i++) {
		pid = fork();
		if (pid == 0) {
			execv(self, argv);
			_exit(1);
		}
		wait_child(pid);
	}
	shared[1] = (double)(now_ns() - start) / EXECS;
}

static void run_process(void)
{
	static const int counts[] = { 0, 100, 1000 };
	double out[2];
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(counts); c++) {
		in_children(measure_process, counts[c], 2, out);
		add_cell("process", counts[c], "fork", 0, out[0]);
		add_cell("process", counts[c], "exec", 0, out[1]);
	}
}

static void *open_close(void *unused)
{
	int i, fd;

	for (i = 0; i < THREAD_CALLS; i++) {
		fd = open(deep_file, O_RDONLY);
		if (fd < 0)
			die("open(%s)", deep_file);
		close(fd);
	}
	return NULL;
}

/* Wall time per call of @threads threads calling open_close() at once. */
static double time_threads(int threads)
{
	pthread_t ids[MAX_THREADS];
	long long start;
	int t;

	settle();
	start = now_ns();
	for (t = 0; t < threads; t++)
		if (pthread_create(&ids[t], NULL, open_close, NULL))
			die("pthread_create");
	for (t = 0; t < threads; t++)
		pthread_join(ids[t], NULL);
	return (double)(now_ns() - start) / THREAD_CALLS;
}

static void landlock(void)
{
	struct landlock_ruleset_attr attr = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_READ_FILE |
				     LANDLOCK_ACCESS_FS_READ_DIR,
	};
	struct landlock_path_beneath_attr rule = {
		.allowed_access = attr.handled_access_fs,
	};
	int ruleset;

	ruleset = syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	rule.parent_fd = open(ROOT "/d1", O_PATH | O_DIRECTORY);
	if (ruleset < 0 || rule.parent_fd < 0 ||
	    syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    &rule, 0) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_landlock_restrict_self, ruleset, 0))
		die("landlock");
}

enum thread_mode { THREADS_NONE, THREADS_VEILED, THREADS_LANDLOCK };
static const char *const thread_modes[] = { "none", "veiled", "landlock" };

/* shared[]: wall time per call with 1 and 2 threads. */
static void measure_threads(int mode)
{
	int threads;

	if (mode == THREADS_VEILED) {
		unveil_or_die(ROOT "/d1", "r");
		unveil_or_die(NULL, NULL);
	} else if (mode == THREADS_LANDLOCK) {
		landlock();
	}
	for (threads = 1; threads <= MAX_THREADS; threads++)
		shared[threads - 1] = time_threads(threads);
}

static void run_threads(void)
{
	double out[MAX_THREADS];
	int mode, threads;

	for (mode = 0; mode < (int)ARRAY_SIZE(thread_modes); mode++) {
		in_children(measure_threads, mode, MAX_THREADS, out);
		for (threads = 1; threads <= MAX_THREADS; threads++)
			add_cell("threads", 1, thread_modes[mode], threads,
				 out[threads - 1]);
	}
}

int main(int argc, char **argv)
{
	unsigned int c;
	int i;

	if (argc == 2 && !strcmp(argv[1], "exit"))
		return 0;
	if (argc < 3) {
		fprintf(stderr, "usage: %s KERNEL setup|process|threads...\n",
			argv[0]);
		return 2;
	}
	if (readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
		die("readlink(/proc/self/exe)");
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		die("mmap");
	make_tree();
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "setup")) {
			run_setup();
		} else if (!strcmp(argv[i], "process")) {
			run_process();
		} else if (!strcmp(argv[i], "threads")) {
			run_threads();
		} else {
			fprintf(stderr, "unveil-cost: unknown study %s\n",
				argv[i]);
			return 2;
		}
	}
	for (c = 0; c < num_cells; c++)
		printf("%s,%s,%d,%s,%d,%.1f\n", argv[1], cells[c].mode,
		       cells[c].rules, cells[c].op, cells[c].depth,
		       cells[c].ns);
	return 0;
}
