// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - a veil's memory under a memory cgroup (cgroup v2): the
 * rules are charged to the cgroup of the process that makes them, unveil()
 * fails with ENOMEM at the cgroup's limit and changes nothing then, and the
 * memory of veils goes back to the cgroup when their processes exit.
 *
 * The test process makes the tree the rules name outside the cgroup, so
 * that its dentries and inodes are not charged to it; workers move
 * themselves into the cgroup before they unveil.
 */

#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "common.h"

/* The kernel's limits: exactly this many directory rules and name rules. */
#define RULE_LIMIT 1024
#define RULES (2 * RULE_LIMIT)
/* Far less than any rule takes (the ruleset alone takes more). */
#define MIN_BYTES_PER_RULE 32
/* Far more: a ruleset that grew quadratically, or kept its old copies. */
#define MAX_BYTES_PER_RULE 1024

#define CGROUP_ROOT "/sys/fs/cgroup"
/* Too little for 2048 rules (about 550 KiB), enough for the first ones. */
#define SMALL_LIMIT (128 * 1024)
/* Rounds of processes that copy a veil, and the processes of a round. */
#define ROUNDS 8
#define COPIERS 4
/* For a veil, COPIERS copies and their children, with room to spare. */
#define ROUND_LIMIT (32 * 1024 * 1024)

/* Stack a worker may use once in the cgroup, made present beforehand. */
#define STACK_RESERVE (256 * 1024)
#define RULES_TEXT_SIZE (256 * 1024)

/* What a worker tells the test, in memory shared with it. */
struct report {
	/* Index of the call that failed with ENOMEM, or -1. */
	int failed_at;
	/* stat() of the first rule's target, and of a hidden file, then. */
	int first_rule_err;
	int hidden_err;
	/* The failed call again, once the limit is gone. */
	int retry_err;
	/* The calls made in all, then one rule too many of the same kind. */
	int made;
	int extra_err;
	/* Why a worker gave up: what it did, and the errno. */
	char what[64];
	int err;
};

/* What a test shares with its worker. */
struct env {
	/* The tree the rules name, as the kernel shows it. */
	char dir[PATH_MAX / 2];
	/* The cgroup of the test. */
	char cgroup[PATH_MAX / 2];
	/* Whether the test mounted cgroup2 on CGROUP_ROOT. */
	bool mounted;
	/* Shared with the worker. */
	struct report *report;
	pid_t worker;
};

FIXTURE(memcg) {
	struct env env;
};

static int read_from(const char *path, char *buf, size_t size)
{
	return read_attr_fd(open(path, O_RDONLY | O_CLOEXEC), buf, size);
}

/* Value of @key in the "key value" lines of @text, or -1. */
static long key_value(const char *text, const char *key)
{
	const size_t len = strlen(key);
	const char *line = text;

	while (line && *line) {
		if (!strncmp(line, key, len) && line[len] == ' ')
			return atol(line + len + 1);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -1;
}

/* Whether the space-separated @list holds @word. */
static bool has_word(const char *list, const char *word)
{
	const size_t len = strlen(word);
	const char *p;

	for (p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ') &&
		    (!p[len] || p[len] == ' ' || p[len] == '\n'))
			return true;
	return false;
}

/*
 * Finds the cgroup2 mount; mounts it on CGROUP_ROOT if there is none, and
 * then sets *@mounted.
 */
static int cgroup2_root(char *root, size_t size, bool *mounted)
{
	char line[PATH_MAX + 256], dev[256], path[PATH_MAX], type[64];
	FILE *mounts = fopen("/proc/mounts", "r");
	bool found = false;
	int err;

	if (!mounts)
		return errno;
	while (!found && fgets(line, sizeof(line), mounts))
		found = sscanf(line, "%255s %4095s %63s", dev, path, type) == 3 &&
			!strcmp(type, "cgroup2");
	fclose(mounts);
	if (!found) {
		if (mount("cgroup2", CGROUP_ROOT, "cgroup2", 0, NULL))
			return errno;
		*mounted = true;
		snprintf(path, sizeof(path), "%s", CGROUP_ROOT);
	}
	err = strlen(path) < size ? 0 : ENAMETOOLONG;
	if (!err)
		memcpy(root, path, strlen(path) + 1);
	return err;
}

/* Exit status of a process, or 128 + the signal that killed it. */
static int exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);
}

/* Path of rule @i: directories d/0 to d/1023, then files n/f0 to n/f1023. */
static const char *rule_path(const char *dir, int i, char *buf, size_t size)
{
	if (i < RULE_LIMIT)
		snprintf(buf, size, "%s/d/%d", dir, i);
	else
		snprintf(buf, size, "%s/n/f%d", dir, i - RULE_LIMIT);
	return buf;
}

/*
 * Makes (or removes, if @remove) the directories of the rules, and one more
 * than the limit, or (if @files) their files; returns 0 or an errno.
 */
static int make_entries(const char *dir, bool files, bool remove)
{
	char path[PATH_MAX];
	int err = 0, i;

	for (i = 0; i <= RULE_LIMIT; i++) {
		if (files)
			snprintf(path, sizeof(path), "%s/n/f%d", dir, i);
		else
			snprintf(path, sizeof(path), "%s/d/%d", dir, i);
		if (remove)
			err = errno_of(files ? unlink(path) : rmdir(path)) ?: err;
		else if (files)
			err = err ?: open_errno(path, O_CREAT | O_WRONLY);
		else
			err = err ?: errno_of(mkdir(path, 0755));
	}
	return err;
}

/*
 * Makes or removes the directories and the files at once, in two processes:
 * two thousand calls take seconds on a kernel with KASAN under emulation.
 */
static int make_all_entries(const char *dir, bool remove)
{
	int err, status;
	pid_t child;

	child = fork();
	if (child == 0)
		_exit(make_entries(dir, true, remove));
	err = make_entries(dir, false, remove);
	if (child < 0 || waitpid(child, &status, 0) != child)
		return err ?: ECHILD;
	return err ?: exit_code(status);
}

static int make_tree(const char *dir)
{
	int err;

	err = errno_of(mkdir(at(dir, "d"), 0755));
	err = err ?: errno_of(mkdir(at(dir, "n"), 0755));
	err = err ?: open_errno(at(dir, "hidden"), O_CREAT | O_WRONLY);
	return err ?: make_all_entries(dir, false);
}

static void remove_rule_tree(const char *dir)
{
	make_all_entries(dir, true);
	rmdir(at(dir, "d"));
	rmdir(at(dir, "n"));
	unlink(at(dir, "hidden"));
	rmdir(dir);
}

/*
 * Kills what is left in the cgroup (cgroup.kill also ends stopped processes
 * whose parent is gone) and the worker (reaped if it is a child), then
 * removes the cgroup and the tree, and unmounts cgroup2 if it mounted it.
 */
static void clean_up(struct env *env)
{
	int i;

	if (env->cgroup[0])
		write_text(at(env->cgroup, "cgroup.kill"), "1");
	if (env->worker > 0) {
		kill(env->worker, SIGKILL);
		waitpid(env->worker, NULL, 0);
		env->worker = 0;
	}
	/* An exited process may leave the cgroup a moment later. */
	for (i = 0; env->cgroup[0] && i < 50; i++) {
		if (!rmdir(env->cgroup) || errno != EBUSY)
			break;
		usleep(100000);
	}
	if (env->dir[0])
		remove_rule_tree(env->dir);
	if (env->mounted)
		umount2(CGROUP_ROOT, MNT_DETACH);
}

FIXTURE_SETUP(memcg)
{
	struct env *const env = &self->env;
	char root[PATH_MAX / 4], real[PATH_MAX], controllers[256];
	char tmpl[] = "/tmp/unveil_memcg.XXXXXX", skip[128] = "";
	int err;

	err = cgroup2_root(root, sizeof(root), &env->mounted);
	if (err)
		SKIP(return, "no cgroup2 file system: %s", strerror(err));
	err = read_from(at(root, "cgroup.controllers"), controllers,
			sizeof(controllers));
	if (err || !has_word(controllers, "memory")) {
		snprintf(skip, sizeof(skip),
			 "no memory controller (CONFIG_MEMCG)");
	} else {
		err = write_text(at(root, "cgroup.subtree_control"), "+memory");
		if (err)
			snprintf(skip, sizeof(skip),
				 "cannot enable the memory controller: %s",
				 strerror(err));
	}
	if (skip[0]) {
		clean_up(env);
		SKIP(return, "%s", skip);
	}

	env->report = mmap(NULL, sizeof(*env->report), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, env->report);
	ASSERT_NE(NULL, mkdtemp(tmpl));
	err = realpath(tmpl, real) ? 0 : errno;
	if (!err && strlen(real) >= sizeof(env->dir))
		err = ENAMETOOLONG;
	if (err) {
		rmdir(tmpl);
		ASSERT_EQ(0, err);
	}
	memcpy(env->dir, real, strlen(real) + 1);
	err = make_tree(env->dir);
	if (!err) {
		snprintf(env->cgroup, sizeof(env->cgroup),
			 "%s/unveil_memcg_test.%d", root, getpid());
		err = errno_of(mkdir(env->cgroup, 0755));
		if (err)
			env->cgroup[0] = '\0';
	}
	if (err) {
		clean_up(env);
		ASSERT_EQ(0, err);
	}
}

/* In the parent: also after a failed assertion ended the test. */
FIXTURE_TEARDOWN_PARENT(memcg)
{
	clean_up(&self->env);
}

/* The cgroup's figures, in bytes. */
struct memcg_figures {
	/* All kernel memory: slab, large kmalloc, vmalloc, page tables... */
	long kernel;
	long slab;
	long vmalloc;
	/* Kernel and user memory, and pages charged ahead (memory.current). */
	long current;
};

/*
 * Reads the cgroup's figures.  memory.stat sums per-CPU counters only every
 * 2 s, or past a threshold; reading cpu.stat first makes it sum them now
 * (cgroup_rstat_flush() of the cgroup), so the figures are exact but for
 * the charge caches (see slack()).
 */
static int read_figures(const char *cgroup, struct memcg_figures *figures)
{
	char text[8192];
	int err;

	err = read_from(at(cgroup, "cpu.stat"), text, sizeof(text));
	err = err ?: read_from(at(cgroup, "memory.current"), text,
			       sizeof(text));
	if (err)
		return err;
	figures->current = atol(text);
	err = read_from(at(cgroup, "memory.stat"), text, sizeof(text));
	if (err)
		return err;
	figures->kernel = key_value(text, "kernel");
	figures->slab = key_value(text, "slab");
	figures->vmalloc = key_value(text, "vmalloc");
	return figures->kernel < 0 || figures->slab < 0 ? ENODATA : 0;
}

static long elapsed_ms(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 +
	       (now.tv_nsec - start->tv_nsec) / 1000000;
}

#define SETTLE_STEP_MS 250
/*
 * kvfree_rcu() batches frees for up to 5 s, then waits for a grace period;
 * a ruleset frees its directory objects after a grace period itself.
 */
#define SETTLE_DRAIN_MS 7000
#define SETTLE_QUIET_MS 1000
#define SETTLE_MAX_MS 30000

/*
 * Reads the cgroup's figures until what processes freed is back: copies of
 * a ruleset that a larger one replaced, and the rulesets of processes that
 * exited, are freed after an RCU grace period from a workqueue, name tables
 * and directory objects by kvfree_rcu().  Stops after SETTLE_DRAIN_MS once
 * the kernel figure has not gone down for SETTLE_QUIET_MS, or after
 * SETTLE_MAX_MS.  Returns the figures of the lowest kernel figure seen, and
 * the time taken in @ms.
 */
static int settle(const char *cgroup, struct memcg_figures *lowest, long *ms)
{
	struct timespec start;
	struct memcg_figures now;
	long lowest_at = 0;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &start);
	err = read_figures(cgroup, lowest);
	while (!err) {
		*ms = elapsed_ms(&start);
		if (*ms > SETTLE_MAX_MS ||
		    (*ms > SETTLE_DRAIN_MS && *ms - lowest_at > SETTLE_QUIET_MS))
			break;
		usleep(SETTLE_STEP_MS * 1000);
		err = read_figures(cgroup, &now);
		if (!err && now.kernel < lowest->kernel) {
			*lowest = now;
			lowest_at = elapsed_ms(&start);
		}
	}
	*ms = elapsed_ms(&start);
	return err;
}

/*
 * How far the cgroup's figures may be from what its processes hold.  Per
 * CPU, the object charge cache (obj_stock) keeps bytes charged ahead of use:
 * under a page after a free, up to two after an allocation; and it adds up
 * to a page of slab statistics late.  The cgroup keeps under a page of
 * bytes that CPUs gave back (nr_charged_bytes).  That is 20 KiB with two
 * CPUs, where a veil of 2048 rules takes 550 KiB.
 */
static long slack(void)
{
	const long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return (2 * (cpus > 0 ? cpus : 1) + 1) * getpagesize();
}

/* In a worker: gives up, telling the test why. */
static void worker_fail(struct report *report, const char *what, int err)
{
	snprintf(report->what, sizeof(report->what), "%s", what);
	report->err = err;
	_exit(1);
}

/* In a worker: makes the calls of rules @from to @to, which must succeed. */
static void add_rules(const char *dir, int from, int to, struct report *report)
{
	char path[PATH_MAX], what[64];
	int err, i;

	for (i = from; i < to; i++) {
		err = unveil_errno(rule_path(dir, i, path, sizeof(path)), "r");
		if (err) {
			snprintf(what, sizeof(what), "unveil() call %d", i);
			worker_fail(report, what, err);
		}
	}
}

/*
 * In a worker, before it enters the cgroup: makes every page it will touch
 * present and its own (copy-on-write pages copied, page tables made), with
 * a stack of STACK_RESERVE, so that in the cgroup it only allocates the
 * kernel memory of its calls.  A page fault that the cgroup could not pay
 * for, with no process to kill, would be retried for ever.
 */
static int prefault(void)
{
	char stack[STACK_RESERVE];

	memset(stack, 1, sizeof(stack));
	/* Keeps the stores. */
	asm volatile("" : : "r"(stack) : "memory");
	return mlockall(MCL_CURRENT) ? errno : 0;
}

static int enter_cgroup(const char *cgroup)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", getpid());
	return write_text(at(cgroup, "cgroup.procs"), pid);
}

/*
 * Waits until the worker stops; returns 0, or -1 if it ended, after telling
 * why.  The worker stops itself: SIGSTOP needs no memory of the cgroup, a
 * pipe write would.
 */
static int wait_stopped(struct __test_metadata *const _metadata,
			struct env *env)
{
	int status;

	if (waitpid(env->worker, &status, WUNTRACED) != env->worker)
		return -1;
	if (WIFSTOPPED(status))
		return 0;
	env->worker = 0;
	if (WIFSIGNALED(status))
		TH_LOG("worker killed by signal %d", WTERMSIG(status));
	else
		TH_LOG("worker exited with %d: %s: %s", WEXITSTATUS(status),
		       env->report->what, strerror(env->report->err));
	return -1;
}

/* Lets the worker go on, and waits until it exits; returns its status. */
static int finish(struct env *env)
{
	const pid_t pid = env->worker;
	int status;

	if (kill(pid, SIGCONT) || waitpid(pid, &status, 0) != pid)
		return -1;
	env->worker = 0;
	return exit_code(status);
}

/* @env is shared with the parent, which tears the fixture down. */
static pid_t fork_worker(struct env *env,
			 void (*work)(struct env *, struct report *))
{
	pid_t worker;

	memset(env->report, 0, sizeof(*env->report));
	env->report->failed_at = -1;
	worker = fork();
	if (worker == 0)
		work(env, env->report);
	env->worker = worker;
	return worker;
}

/* Stops in the cgroup, then after making all its rules. */
static void charging_worker(struct env *env, struct report *report)
{
	int err = prefault();

	if (err)
		worker_fail(report, "mlockall()", err);
	err = enter_cgroup(env->cgroup);
	if (err)
		worker_fail(report, "entering the cgroup", err);
	raise(SIGSTOP);
	add_rules(env->dir, 0, RULES, report);
	raise(SIGSTOP);
	_exit(0);
}

/*
 * 1024 directory rules and 1024 name rules of one process are charged to
 * its cgroup: its kernel memory grows by at least 32 bytes a rule, and by
 * no more than 1 KiB once the copies that larger ones replaced are freed.
 */
TEST_F_TIMEOUT(memcg, rules_are_charged_to_the_memory_cgroup_of_the_caller,
	       300)
{
	struct env *const env = &self->env;
	struct memcg_figures before, after, settled;
	struct timespec start;
	long ms;

	ASSERT_LT(0, fork_worker(env, charging_worker));
	ASSERT_EQ(0, wait_stopped(_metadata, env));
	ASSERT_EQ(0, read_figures(env->cgroup, &before));
	clock_gettime(CLOCK_MONOTONIC, &start);
	ASSERT_EQ(0, kill(env->worker, SIGCONT));
	ASSERT_EQ(0, wait_stopped(_metadata, env));
	ms = elapsed_ms(&start);
	ASSERT_EQ(0, read_figures(env->cgroup, &after));
	TH_LOG("%d unveil() calls in %ld ms", RULES, ms);
	ASSERT_EQ(0, settle(env->cgroup, &settled, &ms));
	EXPECT_EQ(0, finish(env));

	TH_LOG("kernel memory: %ld bytes before, %ld after %d rules",
	       before.kernel, after.kernel, RULES);
	TH_LOG("kernel memory: %ld bytes settled, %ld ms later",
	       settled.kernel, ms);
	TH_LOG("bytes a rule: %ld at once, %ld settled",
	       (after.kernel - before.kernel) / RULES,
	       (settled.kernel - before.kernel) / RULES);
	TH_LOG("settled, bytes a rule: slab %ld, vmalloc %ld, memory.current %ld",
	       (settled.slab - before.slab) / RULES,
	       (settled.vmalloc - before.vmalloc) / RULES,
	       (settled.current - before.current) / RULES);
	EXPECT_LE(RULES * MIN_BYTES_PER_RULE, settled.kernel - before.kernel);
	EXPECT_GE(RULES * MAX_BYTES_PER_RULE, settled.kernel - before.kernel);
}

/*
 * Makes the rules one by one; at the first ENOMEM, looks at what is still
 * visible and stops.  Once continued (the limit gone), makes the failed call
 * again and the remaining ones of its kind, directory or name rules, then
 * one rule too many of that kind, and stops.  oom_score_adj -1000: the
 * memory cgroup's OOM killer finds no process to kill, so the charge, and
 * unveil(), fail with ENOMEM; without it, the OOM killer kills the worker.
 */
static void limited_worker(struct env *env, struct report *report)
{
	char path[PATH_MAX], what[64];
	int err, i, end = RULES;
	struct stat st;

	err = write_text("/proc/self/oom_score_adj", "-1000");
	if (err)
		worker_fail(report, "writing oom_score_adj", err);
	err = prefault();
	if (err)
		worker_fail(report, "mlockall()", err);
	err = enter_cgroup(env->cgroup);
	if (err)
		worker_fail(report, "entering the cgroup", err);
	for (i = 0; i < end; i++) {
		rule_path(env->dir, i, path, sizeof(path));
		err = unveil_errno(path, "r");
		if (err == ENOMEM && report->failed_at < 0) {
			report->failed_at = i;
			end = i < RULE_LIMIT ? RULE_LIMIT : RULES;
			report->first_rule_err =
				errno_of(stat(at(env->dir, "d/0"), &st));
			report->hidden_err =
				errno_of(stat(at(env->dir, "hidden"), &st));
			raise(SIGSTOP);
			err = unveil_errno(path, "r");
			report->retry_err = err;
		}
		if (err) {
			snprintf(what, sizeof(what), "unveil() call %d", i);
			worker_fail(report, what, err);
		}
	}
	report->made = end;
	report->extra_err = unveil_errno(at(env->dir, end == RULE_LIMIT ?
					     "d/1024" : "n/f1024"), "r");
	raise(SIGSTOP);
	_exit(0);
}

/* What /proc/PID/attr/unveil/rules shows after the first @count calls. */
static void expected_rules(const char *dir, int count, char *buf, size_t size)
{
	char path[PATH_MAX];
	size_t len;
	int i;

	len = snprintf(buf, size, "veiled %s\nlocked no\nlearning no\n",
		       count ? "yes" : "no");
	for (i = 0; i < count && len < size; i++)
		len += snprintf(buf + len, size - len, "rule r \"%s\"\n",
				rule_path(dir, i, path, sizeof(path)));
}

static int count_lines(const char *text)
{
	int lines = 0;

	for (; *text; text++)
		lines += *text == '\n';
	return lines;
}

/* Line (from 1) where @a and @b first differ, 0 if they are the same. */
static int first_difference(const char *a, const char *b,
			    const char **line_a, const char **line_b)
{
	int line = 1;

	*line_a = a;
	*line_b = b;
	for (; *a == *b; a++, b++) {
		if (!*a)
			return 0;
		if (*a == '\n') {
			line++;
			*line_a = a + 1;
			*line_b = b + 1;
		}
	}
	return line;
}

/* Expects the rules of the worker to be those of its first @count calls. */
static void expect_rules(struct __test_metadata *const _metadata,
			 struct env *env, int count)
{
	char *const expected = malloc(RULES_TEXT_SIZE);
	char *const rules = malloc(RULES_TEXT_SIZE);
	const char *line_e, *line_r;

	ASSERT_NE(NULL, expected);
	ASSERT_NE(NULL, rules);
	expected_rules(env->dir, count, expected, RULES_TEXT_SIZE);
	ASSERT_EQ(0, read_attr_fd(open_attr(env->worker, "rules"), rules,
				  RULES_TEXT_SIZE));
	EXPECT_EQ(3 + count, count_lines(rules));
	EXPECT_EQ(0, first_difference(expected, rules, &line_e, &line_r))
		TH_LOG("expected \"%.*s\", read \"%.*s\"",
		       (int)strcspn(line_e, "\n"), line_e,
		       (int)strcspn(line_r, "\n"), line_r);
	free(expected);
	free(rules);
}

/*
 * Past the cgroup's limit, unveil() fails with ENOMEM and changes nothing:
 * the veil is exactly what the calls before made, and once the memory is
 * back, the same call succeeds and the process gets exactly 1024 rules of
 * that kind, as any other.  The memory cgroup's OOM killer, invoked, killed
 * nothing: the process goes on.
 */
TEST_F_TIMEOUT(memcg,
	       unveil_past_the_memory_limit_is_enomem_and_changes_nothing, 300)
{
	struct env *const env = &self->env;
	const struct report *const report = env->report;
	char limit[32], events[1024];

	snprintf(limit, sizeof(limit), "%d", SMALL_LIMIT);
	ASSERT_EQ(0, write_text(at(env->cgroup, "memory.max"), limit));
	ASSERT_LT(0, fork_worker(env, limited_worker));
	ASSERT_EQ(0, wait_stopped(_metadata, env));
	/* The limit holds the first rules, not all of them. */
	ASSERT_LE(1, report->failed_at)
		TH_LOG("all %d rules fit in %d KiB", RULES, SMALL_LIMIT / 1024);
	TH_LOG("call %d (%s rule %d) failed with ENOMEM at %d KiB",
	       report->failed_at,
	       report->failed_at < RULE_LIMIT ? "directory" : "name",
	       report->failed_at % RULE_LIMIT, SMALL_LIMIT / 1024);

	expect_rules(_metadata, env, report->failed_at);
	EXPECT_EQ(0, report->first_rule_err);
	EXPECT_EQ(ENOENT, report->hidden_err);
	ASSERT_EQ(0, read_from(at(env->cgroup, "memory.events"), events,
			       sizeof(events)));
	TH_LOG("memory.events: max %ld, oom %ld, oom_kill %ld",
	       key_value(events, "max"), key_value(events, "oom"),
	       key_value(events, "oom_kill"));
	EXPECT_LE(1, key_value(events, "oom"));
	EXPECT_EQ(0, key_value(events, "oom_kill"));

	ASSERT_EQ(0, write_text(at(env->cgroup, "memory.max"), "max"));
	ASSERT_EQ(0, kill(env->worker, SIGCONT));
	ASSERT_EQ(0, wait_stopped(_metadata, env));
	EXPECT_EQ(0, report->retry_err);
	EXPECT_EQ(E2BIG, report->extra_err);
	expect_rules(_metadata, env, report->made);
	EXPECT_EQ(0, finish(env));
}

/*
 * In a process that shares the veil of its parent: changes rule @i, which
 * makes its own copy of the 1024 directory rules and 1024 name rules.
 * Returns the errno of the change, or 0.
 */
static int copy_veil(const char *dir, int i)
{
	char path[PATH_MAX];

	return unveil_errno(rule_path(dir, i, path, sizeof(path)), "rw");
}

/*
 * A process of round @round: copies the veil, forks a child that copies it
 * again and exits, then stops.  Exits with an errno, or 1 if its child
 * failed.
 */
static void copier(const char *dir, int round, int c)
{
	int err, status;
	pid_t child;

	err = copy_veil(dir, round * COPIERS + c);
	if (err)
		_exit(err);
	child = fork();
	if (child == 0)
		_exit(copy_veil(dir, RULE_LIMIT + round * COPIERS + c));
	if (child < 0)
		_exit(errno);
	if (waitpid(child, &status, 0) != child || exit_code(status))
		_exit(1);
	raise(SIGSTOP);
	_exit(0);
}

/*
 * Makes all the rules, then runs ROUNDS rounds of COPIERS copiers, and
 * stops while they are all stopped: the test measures then.
 */
static void round_worker(struct env *env, struct report *report)
{
	pid_t copiers[COPIERS];
	int c, err, round, status;
	char what[64];

	err = enter_cgroup(env->cgroup);
	if (err)
		worker_fail(report, "entering the cgroup", err);
	add_rules(env->dir, 0, RULES, report);
	for (round = 0; round < ROUNDS; round++) {
		for (c = 0; c < COPIERS; c++) {
			copiers[c] = fork();
			if (copiers[c] == 0)
				copier(env->dir, round, c);
			if (copiers[c] < 0)
				worker_fail(report, "fork()", errno);
		}
		for (c = 0; c < COPIERS; c++) {
			snprintf(what, sizeof(what), "copier %d of round %d",
				 c, round);
			if (waitpid(copiers[c], &status, WUNTRACED) !=
			    copiers[c])
				worker_fail(report, what, errno);
			if (!WIFSTOPPED(status))
				worker_fail(report, what, exit_code(status));
		}
		raise(SIGSTOP);
		for (c = 0; c < COPIERS; c++) {
			snprintf(what, sizeof(what), "copier %d of round %d",
				 c, round);
			kill(copiers[c], SIGCONT);
			if (waitpid(copiers[c], &status, 0) != copiers[c])
				worker_fail(report, what, errno);
			if (exit_code(status))
				worker_fail(report, what, exit_code(status));
		}
	}
	_exit(0);
}

/*
 * A process makes 1024 directory rules and 1024 name rules, then eight
 * rounds of four processes copy them (their own copy: they change a rule)
 * and fork a child that copies them again, and exit.  Once all of them
 * exited, the cgroup's kernel memory is back where it was before them, but
 * for the charge caches (slack()).  The copies take the place of processes
 * that each make all their rules: 2048 calls take 20 s on a kernel with
 * KASAN under emulation, a copy 50 ms.
 */
TEST_F_TIMEOUT(memcg, veil_memory_goes_back_to_the_cgroup_when_processes_exit,
	       600)
{
	struct env *const env = &self->env;
	struct memcg_figures baseline, now, peak = {}, after;
	char limit[32];
	long ms;
	int round;

	snprintf(limit, sizeof(limit), "%d", ROUND_LIMIT);
	ASSERT_EQ(0, write_text(at(env->cgroup, "memory.max"), limit));
	ASSERT_EQ(0, read_figures(env->cgroup, &baseline));
	ASSERT_LT(0, fork_worker(env, round_worker));
	for (round = 0; round < ROUNDS; round++) {
		ASSERT_EQ(0, wait_stopped(_metadata, env))
			TH_LOG("round %d", round);
		ASSERT_EQ(0, read_figures(env->cgroup, &now));
		if (now.kernel > peak.kernel)
			peak = now;
		if (round + 1 < ROUNDS)
			ASSERT_EQ(0, kill(env->worker, SIGCONT));
	}
	ASSERT_EQ(0, finish(env));
	ASSERT_EQ(0, settle(env->cgroup, &after, &ms));

	TH_LOG("kernel memory: baseline %ld, peak %ld, after %ld bytes",
	       baseline.kernel, peak.kernel, after.kernel);
	TH_LOG("slab: baseline %ld, peak %ld, after %ld bytes",
	       baseline.slab, peak.slab, after.slab);
	TH_LOG("vmalloc: baseline %ld, peak %ld, after %ld bytes",
	       baseline.vmalloc, peak.vmalloc, after.vmalloc);
	TH_LOG("after: %ld ms after the last exit; slack %ld bytes", ms,
	       slack());
	/* At the peak, a veil and one copy for each copier. */
	EXPECT_LE((1 + COPIERS) * RULES * MIN_BYTES_PER_RULE,
		  peak.kernel - baseline.kernel);
	EXPECT_GE(slack(), labs(after.kernel - baseline.kernel));
	EXPECT_GE(slack(), labs(after.slab - baseline.slab));
	EXPECT_EQ(baseline.vmalloc, after.vmalloc);
}

TEST_HARNESS_MAIN
