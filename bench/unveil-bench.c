// SPDX-License-Identifier: GPL-2.0
/*
 * unveil benchmark: times file system calls without a veil, under a veil
 * that allows them, under one that hides them, and under the equivalent
 * Landlock ruleset, at several path depths and numbers of rules.
 *
 * Usage: unveil-bench KERNEL [MODE...]
 *   KERNEL  label for the first CSV column (scripts/bench: unveil, nounveil)
 *   MODE    none, veiled, denied or landlock (default: all four)
 *
 * Prints one CSV line per cell, after all timings:
 *   kernel,mode,rules,op,depth,ns_per_op
 * It runs as root in the guest (scripts/bench) and builds its tree in
 * /tmp/bench: the chain d1/d2/.../d30 that the calls work in, the directories
 * other/N that the extra rules reveal, and sibling, the only directory the
 * "denied" veil reveals.  Each mode runs in a child, one per number of rules,
 * since neither a veil nor a Landlock domain can be removed.  Nothing depends
 * on chance and every batch starts at a timer tick: under QEMU -icount the
 * figures repeat from one run to the next.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
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

#define ROOT		"/tmp/bench"
#define MAX_DEPTH	30
#define MAX_RULES	1000
#define BATCHES		7

static const int depths[] = { 1, 10, 20, 30 };
static const int rule_counts[] = { 1, 10, 100, 1000 };
static const char *const mode_names[] = { "none", "veiled", "denied", "landlock" };

enum mode { NONE, VEILED, DENIED, LANDLOCK, NUM_MODES };

#define NUM_DEPTHS	ARRAY_SIZE(depths)
#define NUM_RULE_COUNTS	ARRAY_SIZE(rule_counts)

/* What the calls of one depth work on, all in the directory at that depth. */
struct target {
	/* An existing file: open, stat, openat, access. */
	char file[PATH_MAX];
	/* Names that do not exist: mkdir, open with O_CREAT. */
	char new_dir[PATH_MAX];
	char new_file[PATH_MAX];
	/* What rmdir and unlink remove: the new names, or existing ones. */
	char *old_dir;
	char *old_file;
	char existing_dir[PATH_MAX];
	char existing_file[PATH_MAX];
	/* The directory, opened before any veil. */
	int dirfd;
};

static struct target targets[NUM_DEPTHS];

/* Calls fail with ENOENT (mode "denied") instead of succeeding. */
static bool hidden;

/* Dies unless the call did what the mode expects of it. */
static void check(long ret, const char *call, const char *path)
{
	if (hidden ? ret == -1 && errno == ENOENT : ret >= 0)
		return;
	fprintf(stderr, "unveil-bench: %s(%s): %s, expected %s\n", call, path,
		ret < 0 ? strerror(errno) : "success",
		hidden ? "ENOENT" : "success");
	exit(1);
}

static void op_open(const struct target *t)
{
	int fd = open(t->file, O_RDONLY);

	check(fd, "open", t->file);
	if (fd >= 0)
		close(fd);
}

static void op_stat(const struct target *t)
{
	struct stat st;

	check(stat(t->file, &st), "stat", t->file);
}

static void op_openat(const struct target *t)
{
	int fd = openat(t->dirfd, "f", O_RDONLY);

	check(fd, "openat", "f");
	if (fd >= 0)
		close(fd);
}

static void op_access(const struct target *t)
{
	check(access(t->file, R_OK), "access", t->file);
}

static void op_mkdir(const struct target *t)
{
	check(mkdir(t->new_dir, 0700), "mkdir", t->new_dir);
	check(rmdir(t->old_dir), "rmdir", t->old_dir);
}

static void op_create(const struct target *t)
{
	int fd = open(t->new_file, O_WRONLY | O_CREAT, 0600);

	check(fd, "open(O_CREAT)", t->new_file);
	if (fd >= 0)
		close(fd);
	check(unlink(t->old_file), "unlink", t->old_file);
}

/*
 * Calls per batch: removing a file or directory leaves work to RCU callbacks
 * that run at later timer ticks, so those batches span several ticks.
 */
static const struct {
	const char *name;
	void (*run)(const struct target *t);
	int iterations;
} ops[] = {
	{ "open+close", op_open, 200 },
	{ "stat", op_stat, 200 },
	{ "openat", op_openat, 200 },
	{ "access", op_access, 200 },
	{ "mkdir+rmdir", op_mkdir, 1000 },
	{ "create+unlink", op_create, 1000 },
};

#define NUM_OPS	ARRAY_SIZE(ops)

/* ns per call, [mode][rule count][op][depth]; shared with the children. */
static double (*results)[NUM_RULE_COUNTS][NUM_OPS][NUM_DEPTHS];

static int compare(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* ns per call: median over BATCHES batches, after a warm-up batch. */
static double time_op(unsigned int op, const struct target *t)
{
	const int iterations = ops[op].iterations;
	long long batch[BATCHES], start;
	int b, i;

	settle();
	for (i = 0; i < iterations; i++)
		ops[op].run(t);
	for (b = 0; b < BATCHES; b++) {
		settle();
		start = now_ns();
		for (i = 0; i < iterations; i++)
			ops[op].run(t);
		batch[b] = now_ns() - start;
	}
	qsort(batch, BATCHES, sizeof(batch[0]), compare);
	return (double)batch[BATCHES / 2] / iterations;
}

static char *path_printf(char *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
	return buf;
}

/* Fills @t for the directory @dir; the calls create and remove the same names. */
static void make_target(struct target *t, const char *dir)
{
	make_file(path_printf(t->file, "%s/f", dir));
	path_printf(t->new_dir, "%s/newdir", dir);
	path_printf(t->new_file, "%s/newfile", dir);
	make_dir(path_printf(t->existing_dir, "%s/olddir", dir));
	make_file(path_printf(t->existing_file, "%s/oldfile", dir));
	t->old_dir = t->new_dir;
	t->old_file = t->new_file;
	t->dirfd = open(dir, O_PATH | O_DIRECTORY);
	if (t->dirfd < 0)
		die("open(%s)", dir);
}

static void make_tree(void)
{
	char dir[PATH_MAX] = ROOT, path[PATH_MAX];
	unsigned int i = 0;
	int depth;

	make_dir(ROOT);
	make_dir(ROOT "/sibling");
	make_dir(ROOT "/other");
	for (depth = 1; depth <= MAX_DEPTH; depth++) {
		snprintf(dir + strlen(dir), PATH_MAX - strlen(dir), "/d%d", depth);
		make_dir(dir);
		if (i < NUM_DEPTHS && depth == depths[i])
			make_target(&targets[i++], dir);
	}
	for (i = 1; i < MAX_RULES; i++)
		make_dir(path_printf(path, ROOT "/other/%u", i));
}

/* Reveals @allowed for everything, plus @rules - 1 directories for reading. */
static void veil(const char *allowed, int rules)
{
	char path[PATH_MAX];
	int i;

	unveil_or_die(allowed, "rwc");
	for (i = 1; i < rules; i++)
		unveil_or_die(path_printf(path, ROOT "/other/%d", i), "r");
	unveil_or_die(NULL, NULL);
}

static void landlock_allow(int ruleset, const char *path, __u64 access)
{
	struct landlock_path_beneath_attr rule = { .allowed_access = access };

	rule.parent_fd = open(path, O_PATH | O_DIRECTORY);
	if (rule.parent_fd < 0)
		die("open(%s)", path);
	if (syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    &rule, 0))
		die("landlock_add_rule(%s)", path);
	close(rule.parent_fd);
}

/*
 * The Landlock equivalent of veil(ROOT "/d1", rules): every file system
 * right is handled, "rwc" beneath d1 is read, write (and truncate, which
 * unveil's "w" allows too), make and remove directories and regular files,
 * and "r" beneath the others is read.
 */
static void landlock(int rules)
{
	const __u64 read = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
	struct landlock_ruleset_attr attr = {
		.handled_access_fs = (LANDLOCK_ACCESS_FS_IOCTL_DEV << 1) - 1,
	};
	char path[PATH_MAX];
	int ruleset, i;

	ruleset = syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0)
		die("landlock_create_ruleset");
	landlock_allow(ruleset, ROOT "/d1", read |
		       LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |
		       LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
		       LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE);
	for (i = 1; i < rules; i++)
		landlock_allow(ruleset, path_printf(path, ROOT "/other/%d", i), read);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_landlock_restrict_self, ruleset, 0))
		die("landlock_restrict_self");
	close(ruleset);
}

/* In a child: sets up @mode with rule_counts[@rule_index] rules, times every cell. */
static void run_mode(enum mode mode, unsigned int rule_index)
{
	int rules = rule_counts[rule_index];
	unsigned int op, depth;
	pid_t pid;
	int status;

	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid > 0) {
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			exit(1);
		return;
	}
	switch (mode) {
	case VEILED:
		veil(ROOT "/d1", rules);
		break;
	case DENIED:
		veil(ROOT "/sibling", rules);
		hidden = true;
		for (depth = 0; depth < NUM_DEPTHS; depth++) {
			targets[depth].old_dir = targets[depth].existing_dir;
			targets[depth].old_file = targets[depth].existing_file;
		}
		break;
	case LANDLOCK:
		landlock(rules);
		break;
	default:
		break;
	}
	for (op = 0; op < NUM_OPS; op++)
		for (depth = 0; depth < NUM_DEPTHS; depth++)
			results[mode][rule_index][op][depth] =
				time_op(op, &targets[depth]);
	exit(0);
}

int main(int argc, char **argv)
{
	bool selected[NUM_MODES] = { false };
	unsigned int mode, r, op, depth;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s KERNEL [none|veiled|denied|landlock...]\n",
			argv[0]);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		for (mode = 0; mode < NUM_MODES; mode++)
			if (!strcmp(argv[i], mode_names[mode]))
				break;
		if (mode == NUM_MODES) {
			fprintf(stderr, "unveil-bench: unknown mode %s\n", argv[i]);
			return 2;
		}
		selected[mode] = true;
	}
	if (argc == 2)
		memset(selected, true, sizeof(selected));

	results = mmap(NULL, NUM_MODES * sizeof(*results), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (results == MAP_FAILED)
		die("mmap");
	make_tree();

	/* Mode "none" has no rules: one round, printed with 0 rules. */
	for (mode = 0; mode < NUM_MODES; mode++)
		for (r = 0; selected[mode] && r < (mode == NONE ? 1 : NUM_RULE_COUNTS); r++)
			run_mode(mode, r);

	for (mode = 0; mode < NUM_MODES; mode++)
		for (r = 0; selected[mode] && r < (mode == NONE ? 1 : NUM_RULE_COUNTS); r++)
			for (op = 0; op < NUM_OPS; op++)
				for (depth = 0; depth < NUM_DEPTHS; depth++)
					printf("%s,%s,%d,%s,%d,%.1f\n", argv[1],
					       mode_names[mode],
					       mode == NONE ? 0 : rule_counts[r],
					       ops[op].name, depths[depth],
					       results[mode][r][op][depth]);
	return 0;
}
