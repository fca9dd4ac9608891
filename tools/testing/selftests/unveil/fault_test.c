// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - injected faults: a call that touches a veil is all or
 * nothing.
 *
 * As syzkaller's fault mode does, each loop fails the 1st, 2nd, 3rd, ...
 * fault-injectable allocation (slab and page allocator) of one call through
 * /proc/thread-self/fail-nth, until the call runs with no fault injected.
 * For each n the call succeeds or fails with its documented error, and the
 * veil afterwards is exactly the one before the call, or the one the call
 * makes: the listing in /proc/PID/attr/unveil/rules says so, and so do a
 * revealed file that opens, a hidden one (ENOENT) and a read-only one that
 * refuses to open for writing (EACCES).
 *
 * fail-nth is per thread: it is set in the thread that makes the call, just
 * before the call, through a descriptor opened earlier, and read back right
 * after it: 0 if the nth allocation failed, else how many were still to come.
 * Nothing in between may allocate: a child made by fork() first breaks the
 * copy-on-write sharing of its stack and errno (see touch_stack()), and
 * fork_is_all_or_nothing runs on a stack that its children do not share
 * copy-on-write.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <ucontext.h>

#include "../kselftest_harness.h"
#include "audit.h"
#include "common.h"

#define FAIL_NTH "/proc/thread-self/fail-nth"
#define DEBUGFS "/sys/kernel/debug"
#define LOG_SWITCH "/sys/module/unveil/parameters/log_refusals"
#define RULES "/proc/self/attr/unveil/rules"
/* Room for the listing of the hundred rules and a few more. */
#define RULES_MAX 16384
/* No call here makes this many allocations: a loop that gets there hangs. */
#define MAX_FAULTS 20000
/* Directory rules and name rules of a full ruleset: a hundred in all. */
#define NUM_EACH 50
/* The kernel's DEFAULT_RATELIMIT_INTERVAL (with a margin) and _BURST. */
#define RATELIMIT_US 5100000
#define RATELIMIT_BURST 10
#define STACK_SIZE (256 * 1024)
/* argv[1] of this program when execve_keeps_the_veil_or_fails runs it. */
#define EXEC_CHILD "--unveil-fault-exec-child"
/* How the program run by execve() (or the child that ran it) ends. */
#define EXEC_RAN 10		/* under the veil, no fault injected */
#define EXEC_RAN_FAULTED 11	/* under the veil, a fault was injected */
#define EXEC_FAILED 12		/* execve() failed, the veil is as it was */

/* The thread's fail-nth, opened for a loop (and kept across execve()). */
static int fail_nth_open(void)
{
	return open(FAIL_NTH, O_RDWR);
}

/*
 * Makes the @n th fault-injectable allocation of the calling thread fail
 * from now on; returns 0 or -1.  The call under test must come next.
 */
static int fail_nth_arm(int fd, int n)
{
	char buf[16];
	const int len = snprintf(buf, sizeof(buf), "%d", n);

	return pwrite(fd, buf, len, 0) == len ? 0 : -1;
}

/*
 * Reads fail-nth back and disarms it.  Returns how many allocations were
 * still to come before the failing one (0: it was injected), or -1.
 */
static int fail_nth_disarm(int fd)
{
	char buf[16] = "";
	int remaining;

	if (pread(fd, buf, sizeof(buf) - 1, 0) <= 0)
		return -1;
	remaining = atoi(buf);
	if (remaining && pwrite(fd, "0", 1, 0) != 1)
		return -1;
	return remaining;
}

/*
 * Writes the stack below the caller and errno, so that a call armed next
 * does not break their copy-on-write sharing with a parent (an allocation)
 * on the way.
 */
static void __attribute_noinline__ touch_stack(void)
{
	char pad[65536];

	memset(pad, 0, sizeof(pad));
	__asm__ __volatile__("" : : "r"(pad) : "memory");
	errno = 0;
}

/* Reads all of @fd from its start into @buf; returns 0 or the errno. */
static int read_from_start(int fd, char *buf, size_t size)
{
	size_t done = 0;
	ssize_t len = 0;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return errno;
	while (done < size - 1 &&
	       (len = read(fd, buf + done, size - 1 - done)) > 0)
		done += len;
	if (len < 0)
		return errno;
	buf[done] = '\0';
	return 0;
}

/* Reads the listing of the calling process's veil; returns 0 or the errno. */
static int read_rules(char *buf, size_t size)
{
	return read_attr_fd(open(RULES, O_RDONLY | O_CLOEXEC), buf, size);
}

/*
 * Replaces the first @from in @text (@size bytes) with @to; returns whether
 * there was one.
 */
static bool replace_first(char *text, size_t size, const char *from,
			  const char *to)
{
	char *const pos = strstr(text, from);
	char tail[RULES_MAX];

	if (!pos || strlen(text) - strlen(from) + strlen(to) >= size)
		return false;
	snprintf(tail, sizeof(tail), "%s", pos + strlen(from));
	snprintf(pos, size - (pos - text), "%s%s", to, tail);
	return true;
}

/* Removes the rule line @line from a listing; returns whether it was there. */
static bool remove_line(char *text, size_t size, const char *line)
{
	char whole[PATH_MAX + 32];

	snprintf(whole, sizeof(whole), "\n%s\n", line);
	return replace_first(text, size, whole, "\n");
}

/* What a veil shows of three files: the errno of opening each, or 0. */
struct view {
	int readable;	/* directory-01/file, for reading */
	int writable;	/* directory-01/file, for writing */
	int hidden;	/* hidden/file, for reading */
};

/* No veil; and the veils here: directory-01 read-only, hidden/ hidden. */
static const struct view unveiled = { 0, 0, 0 };
static const struct view veiled = { 0, EACCES, ENOENT };

static void look(const char *base, struct view *view)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/directory-01/file", base);
	view->readable = open_errno(path, O_RDONLY);
	view->writable = open_errno(path, O_WRONLY);
	snprintf(path, sizeof(path), "%s/hidden/file", base);
	view->hidden = open_errno(path, O_RDONLY);
}

static bool same_view(const struct view *a, const struct view *b)
{
	return a->readable == b->readable && a->writable == b->writable &&
	       a->hidden == b->hidden;
}

static void assert_view(struct __test_metadata *_metadata, int n,
			const char *who, const struct view *want,
			const struct view *got)
{
	ASSERT_EQ(want->readable, got->readable)
		TH_LOG("n=%d, %s: opening directory-01/file for reading", n,
		       who);
	ASSERT_EQ(want->writable, got->writable)
		TH_LOG("n=%d, %s: opening directory-01/file for writing", n,
		       who);
	ASSERT_EQ(want->hidden, got->hidden)
		TH_LOG("n=%d, %s: opening hidden/file", n, who);
}

/*
 * A hundred rules, interleaved: directory-00 .. -49 read-only (directory
 * rules), names/file-name-00 .. -49 for reading and writing (name rules).
 * Returns 0 or the errno of the first that failed.
 */
static int unveil_hundred(const char *base)
{
	char path[PATH_MAX];
	int i, err;

	for (i = 0; i < NUM_EACH; i++) {
		snprintf(path, sizeof(path), "%s/directory-%02d", base, i);
		err = unveil_errno(path, "r");
		if (err)
			return err;
		snprintf(path, sizeof(path), "%s/names/file-name-%02d", base,
			 i);
		err = unveil_errno(path, "rw");
		if (err)
			return err;
	}
	return 0;
}

static int write_knob(const char *knob, const char *value)
{
	return write_text(at(DEBUGFS, knob), value);
}

/*
 * Why the tests cannot run here, or NULL.  Makes fail-nth fail any
 * allocation, that may sleep or not, of any order, for user pages too, and
 * quietly (no stack dump per injected fault in the kernel log).
 */
static const char *set_up_fault_injection(void)
{
	if (access(FAIL_NTH, F_OK))
		return "no " FAIL_NTH ": kernel without CONFIG_FAULT_INJECTION";
	if (access(DEBUGFS "/failslab", F_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	if (access(DEBUGFS "/failslab", F_OK))
		return "no " DEBUGFS "/failslab (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)";
	if (write_knob("failslab/ignore-gfp-wait", "N") ||
	    write_knob("failslab/verbose", "0"))
		return "cannot configure failslab";
	if (access(DEBUGFS "/fail_page_alloc", F_OK))
		return NULL;
	if (write_knob("fail_page_alloc/ignore-gfp-wait", "N") ||
	    write_knob("fail_page_alloc/ignore-gfp-highmem", "N") ||
	    write_knob("fail_page_alloc/min-order", "0") ||
	    write_knob("fail_page_alloc/verbose", "0"))
		return "cannot configure fail_page_alloc";
	return NULL;
}

/*
 * The files: directory-00 .. -49 with a file each, names/file-name-00 ..
 * -49 and names/new, hidden/file and spare/file.
 */
static void make_tree(struct __test_metadata *_metadata, char *base)
{
	char path[PATH_MAX];
	int i;

	ASSERT_EQ(0, make_test_dir(base, 64));
	ASSERT_EQ(0, mkdir(at(base, "names"), 0755));
	for (i = 0; i < NUM_EACH; i++) {
		snprintf(path, sizeof(path), "%s/directory-%02d", base, i);
		ASSERT_EQ(0, mkdir(path, 0755));
		snprintf(path, sizeof(path), "%s/directory-%02d/file", base,
			 i);
		write_file(path, "x");
		snprintf(path, sizeof(path), "%s/names/file-name-%02d", base,
			 i);
		write_file(path, "x");
	}
	write_file(at(base, "names/new"), "x");
	ASSERT_EQ(0, mkdir(at(base, "hidden"), 0755));
	write_file(at(base, "hidden/file"), "x");
	ASSERT_EQ(0, mkdir(at(base, "spare"), 0755));
	write_file(at(base, "spare/file"), "x");
	ASSERT_EQ(0, access(at(base, "spare/file"), F_OK));
}

FIXTURE(fault) {
	char base[64];
	bool audit_on, log_off;
};

FIXTURE_SETUP(fault)
{
	const char *const skip = set_up_fault_injection();

	if (skip)
		SKIP(return, "%s", skip);
	make_tree(_metadata, self->base);
}

FIXTURE_TEARDOWN_PARENT(fault)
{
	int fd;

	if (self->audit_on) {
		fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
		if (fd < 0 || audit_set(fd, AUDIT_STATUS_ENABLED, 0, 0))
			fprintf(stderr, "# could not disable audit\n");
		close(fd);
	}
	if (self->log_off)
		write_file(LOG_SWITCH, "Y");
	if (self->base[0])
		EXPECT_EQ(0, remove_tree(self->base));
}

/*
 * unveil() in a fresh process, or in one with a hundred rules: each n runs
 * in a child of its own (forked from a process that holds the rules),
 * which reports what it saw.
 */

struct unveil_case {
	/* The call: path relative to the base directory, NULL to lock. */
	const char *path;
	const char *perms;
	/* Letters of the rule it changes; NULL if it makes a new rule. */
	const char *old_perms;
	/* A file whose access the call decides, relative to the base. */
	const char *target;
	int target_flags;
	/* The errno of opening it before the call, and after success. */
	int target_before, target_after;
};

struct report {
	/* Empty, or what went wrong in the child before the call. */
	char trouble[128];
	/* errno of the call, 0 if it succeeded. */
	int err;
	/* fail-nth after the call: 0 if the fault was injected. */
	int remaining;
	int no_new_privs;
	/* errno of opening the case's target, and of one more unveil(). */
	int target;
	int unveil_again;
	struct view view;
	char before[RULES_MAX];
	char after[RULES_MAX];
};

static int trouble(struct report *report, const char *what)
{
	snprintf(report->trouble, sizeof(report->trouble), "%s: %s", what,
		 strerror(errno));
	return 1;
}

static int unveil_case_child(const char *base, const struct unveil_case *c,
			     bool hundred, bool shared, int n,
			     struct report *r)
{
	char path[PATH_MAX], target[PATH_MAX], again[PATH_MAX];
	const char *arg = NULL;
	int nth, rules;
	long ret;

	nth = fail_nth_open();
	rules = open(RULES, O_RDONLY | O_CLOEXEC);
	if (nth < 0 || rules < 0)
		return trouble(r, "open fail-nth or rules");
	/*
	 * The hundred rules are shared with the parent: unveil() changes a
	 * copy.  Changing a rule to what it was makes that copy, the
	 * process's own: the next unveil() changes it in place.
	 */
	snprintf(path, sizeof(path), "%s/directory-49", base);
	if (hundred && !shared && unveil_errno(path, "r"))
		return trouble(r, "unveil directory-49 again");
	if (c->path) {
		snprintf(path, sizeof(path), "%s/%s", base, c->path);
		arg = path;
	}
	if (c->target)
		snprintf(target, sizeof(target), "%s/%s", base, c->target);
	snprintf(again, sizeof(again), "%s/directory-02", base);
	errno = read_from_start(rules, r->before, sizeof(r->before));
	if (errno)
		return trouble(r, "read the rules");

	touch_stack();
	if (fail_nth_arm(nth, n))
		return trouble(r, "arm fail-nth");
	ret = sys_unveil(arg, c->perms);
	r->err = ret ? errno : 0;
	r->remaining = fail_nth_disarm(nth);

	errno = read_from_start(rules, r->after, sizeof(r->after));
	if (errno)
		return trouble(r, "read the rules again");
	r->no_new_privs = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	look(base, &r->view);
	r->target = c->target ? open_errno(target, c->target_flags) : 0;
	r->unveil_again = unveil_errno(again, "r");
	return 0;
}

/* The rule line that @perms on @rel (relative to @base) shows. */
static void rule_line(char *buf, size_t size, const char *base,
		      const char *rel, const char *perms)
{
	snprintf(buf, size, "rule %s \"%s/%s\"", perms[0] ? perms : "-", base,
		 rel);
}

static void check_unveil_case(struct __test_metadata *_metadata,
			      const char *base, const struct unveil_case *c,
			      bool hundred, int n, struct report *r)
{
	const struct view *const view_before = hundred ? &veiled : &unveiled;
	char want[RULES_MAX], got[RULES_MAX], line[PATH_MAX + 16];

	ASSERT_LE(0, r->remaining) TH_LOG("n=%d: fail-nth unreadable", n);
	if (r->err) {
		/* A failed call changes nothing. */
		ASSERT_EQ(ENOMEM, r->err)
			TH_LOG("n=%d: unveil() failed with %s", n,
			       strerror(r->err));
		ASSERT_EQ(0, r->remaining)
			TH_LOG("n=%d: unveil() failed with no fault injected",
			       n);
		ASSERT_STREQ(r->before, r->after)
			TH_LOG("n=%d: the rules changed", n);
		ASSERT_EQ(hundred, r->no_new_privs)
			TH_LOG("n=%d: no_new_privs after a failed call", n);
		assert_view(_metadata, n, "after ENOMEM", view_before,
			    &r->view);
		ASSERT_EQ(c->target_before, r->target)
			TH_LOG("n=%d: opening %s after ENOMEM", n, c->target);
		ASSERT_EQ(0, r->unveil_again)
			TH_LOG("n=%d: the veil is locked after ENOMEM", n);
		return;
	}

	snprintf(want, sizeof(want), "%s", r->before);
	snprintf(got, sizeof(got), "%s", r->after);
	if (!c->path) {
		/* Locking: the same rules, locked; it hides nothing. */
		ASSERT_TRUE(replace_first(want, sizeof(want), "locked no\n",
					  "locked yes\n"));
		ASSERT_STREQ(want, got) TH_LOG("n=%d: the rules after the lock",
					       n);
		ASSERT_EQ(hundred, r->no_new_privs);
		assert_view(_metadata, n, "after the lock", view_before,
			    &r->view);
		ASSERT_EQ(EPERM, r->unveil_again)
			TH_LOG("n=%d: unveil() after the lock", n);
		return;
	}

	/* The rule is new or has its new letters; nothing else changed. */
	rule_line(line, sizeof(line), base, c->path, c->perms);
	ASSERT_TRUE(remove_line(got, sizeof(got), line))
		TH_LOG("n=%d: no \"%s\" in\n%s", n, line, r->after);
	if (c->old_perms) {
		rule_line(line, sizeof(line), base, c->path, c->old_perms);
		ASSERT_TRUE(remove_line(want, sizeof(want), line));
	}
	replace_first(want, sizeof(want), "veiled no\n", "veiled yes\n");
	ASSERT_STREQ(want, got) TH_LOG("n=%d: the other rules changed", n);
	ASSERT_EQ(1, r->no_new_privs);
	assert_view(_metadata, n, "after success", &veiled, &r->view);
	ASSERT_EQ(c->target_after, r->target)
		TH_LOG("n=%d: opening %s after success", n, c->target);
	ASSERT_EQ(0, r->unveil_again)
		TH_LOG("n=%d: one more unveil() after success", n);
}

/*
 * Runs @c with the 1st, 2nd, ... allocation failing until none does;
 * returns the number of allocations the call made, and how many of the
 * faults made it fail (@failed) and how many it survived.
 */
static int run_unveil_case(struct __test_metadata *_metadata,
			   const char *base, const struct unveil_case *c,
			   bool hundred, bool shared, const char *what)
{
	struct report *const r = mmap(NULL, sizeof(*r),
				      PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int n, status, failed = 0, survived = 0, allocations;
	pid_t child;

	ASSERT_NE(MAP_FAILED, r);
	/* /proc for the children to open their fail-nth. */
	if (hundred) {
		ASSERT_EQ(0, unveil_hundred(base));
		UNVEIL("/proc", "rw");
	}
	for (n = 1; n <= MAX_FAULTS; n++) {
		memset(r, 0, sizeof(*r));
		child = fork();
		ASSERT_LE(0, child);
		if (child == 0)
			_exit(unveil_case_child(base, c, hundred, shared, n,
						r));
		ASSERT_EQ(child, waitpid(child, &status, 0));
		ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
			TH_LOG("n=%d: child: %s", n, r->trouble);
		check_unveil_case(_metadata, base, c, hundred, n, r);
		if (r->remaining)
			break;
		if (r->err)
			failed++;
		else
			survived++;
	}
	ASSERT_GE(MAX_FAULTS, n);
	allocations = n - r->remaining;
	TH_LOG("%s: %d allocations; faults: %d ENOMEM, %d survived", what,
	       allocations, failed, survived);
	/* A loop that never failed the call tested nothing. */
	if (allocations)
		ASSERT_LT(0, failed);
	munmap(r, sizeof(*r));
	return allocations;
}

TEST_F_TIMEOUT(fault, first_unveil_is_all_or_nothing, 300)
{
	const struct unveil_case c = {
		.path = "directory-01", .perms = "r",
		.target = "directory-01/file", .target_flags = O_WRONLY,
		.target_before = 0, .target_after = EACCES,
	};

	ASSERT_LT(0, run_unveil_case(_metadata, self->base, &c, false, false,
				     "first unveil(path, \"r\")"));
}

/*
 * The first unveil(NULL, NULL) of a process makes its veil, and may fail
 * with ENOMEM (the documentation says locking can only fail with
 * EOPNOTSUPP or EPERM).
 */
TEST_F_TIMEOUT(fault, first_lock_is_all_or_nothing, 300)
{
	const struct unveil_case c = {};

	ASSERT_LT(0, run_unveil_case(_metadata, self->base, &c, false, false,
				     "first unveil(NULL, NULL)"));
}

/* A process with a hundred rules, its own or shared with its parent. */

FIXTURE(hundred) {
	char base[64];
};

FIXTURE_VARIANT(hundred) {
	bool shared;
};

/* The process's own ruleset: unveil() changes it in place. */
FIXTURE_VARIANT_ADD(hundred, own) {
	.shared = false,
};

/* The ruleset its parent holds too: unveil() makes a copy. */
FIXTURE_VARIANT_ADD(hundred, shared) {
	.shared = true,
};

FIXTURE_SETUP(hundred)
{
	const char *const skip = set_up_fault_injection();

	if (skip)
		SKIP(return, "%s", skip);
	make_tree(_metadata, self->base);
}

FIXTURE_TEARDOWN_PARENT(hundred)
{
	if (self->base[0])
		EXPECT_EQ(0, remove_tree(self->base));
}

TEST_F_TIMEOUT(hundred, new_dir_rule_is_all_or_nothing, 300)
{
	const struct unveil_case c = {
		.path = "spare", .perms = "rw",
		.target = "spare/file", .target_flags = O_WRONLY,
		.target_before = ENOENT, .target_after = 0,
	};

	ASSERT_LT(0, run_unveil_case(_metadata, self->base, &c, true,
				     variant->shared, "new directory rule"));
}

TEST_F_TIMEOUT(hundred, new_name_rule_is_all_or_nothing, 300)
{
	const struct unveil_case c = {
		.path = "names/new", .perms = "r",
		.target = "names/new", .target_flags = O_RDONLY,
		.target_before = ENOENT, .target_after = 0,
	};

	ASSERT_LT(0, run_unveil_case(_metadata, self->base, &c, true,
				     variant->shared, "new name rule"));
}

TEST_F_TIMEOUT(hundred, dir_rule_change_is_all_or_nothing, 300)
{
	const struct unveil_case c = {
		.path = "directory-00", .perms = "rw", .old_perms = "r",
		.target = "directory-00/file", .target_flags = O_WRONLY,
		.target_before = EACCES, .target_after = 0,
	};

	ASSERT_LT(0, run_unveil_case(_metadata, self->base, &c, true,
				     variant->shared,
				     "directory rule r -> rw"));
}

TEST_F_TIMEOUT(hundred, name_rule_change_is_all_or_nothing, 300)
{
	const struct unveil_case c = {
		.path = "names/file-name-00", .perms = "r", .old_perms = "rw",
		.target = "names/file-name-00", .target_flags = O_WRONLY,
		.target_before = 0, .target_after = EACCES,
	};

	ASSERT_LT(0, run_unveil_case(_metadata, self->base, &c, true,
				     variant->shared, "name rule rw -> r"));
}

/* Locking a veil that exists allocates nothing: it cannot fail then. */
TEST_F_TIMEOUT(hundred, lock_of_a_veil_needs_no_memory, 300)
{
	const struct unveil_case c = {};

	ASSERT_EQ(0, run_unveil_case(_metadata, self->base, &c, true,
				     variant->shared,
				     "unveil(NULL, NULL) of a veil"));
}

/*
 * Veils a process with the hundred rules and /proc (to read its rules and
 * those of its threads); returns the listing in @rules.
 */
static void veil_hundred(struct __test_metadata *_metadata, const char *base,
			 char *rules, size_t size)
{
	ASSERT_EQ(0, unveil_hundred(base));
	UNVEIL("/proc", "r");
	ASSERT_EQ(0, read_rules(rules, size));
}

/*
 * Reading the rules: the text is longer than a page, so the seq_file
 * buffer grows on the way.
 */
TEST_F_TIMEOUT(fault, reading_rules_gives_enomem_or_all_of_them, 300)
{
	char before[RULES_MAX], buf[RULES_MAX], after[RULES_MAX];
	int nth, fd, n, err, remaining, failed = 0, survived = 0;
	struct view view;
	ssize_t len;

	nth = fail_nth_open();
	ASSERT_LE(0, nth);
	veil_hundred(_metadata, self->base, before, sizeof(before));
	ASSERT_LT(getpagesize(), strlen(before));
	for (n = 1; n <= MAX_FAULTS; n++) {
		fd = open(RULES, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		memset(buf, 0, sizeof(buf));
		touch_stack();
		ASSERT_EQ(0, fail_nth_arm(nth, n));
		len = read(fd, buf, sizeof(buf) - 1);
		err = len < 0 ? errno : 0;
		remaining = fail_nth_disarm(nth);
		ASSERT_LE(0, remaining);
		if (len < 0) {
			ASSERT_EQ(ENOMEM, err)
				TH_LOG("n=%d: read() failed with %s", n,
				       strerror(err));
			ASSERT_EQ(0, remaining)
				TH_LOG("n=%d: read() failed with no fault injected",
				       n);
			failed++;
		} else {
			ASSERT_STREQ(before, buf)
				TH_LOG("n=%d: read() gave part of the rules",
				       n);
			ASSERT_EQ(0, read(fd, buf, sizeof(buf)))
				TH_LOG("n=%d: more after the rules", n);
			if (!remaining)
				survived++;
		}
		close(fd);
		ASSERT_EQ(0, read_rules(after, sizeof(after)));
		ASSERT_STREQ(before, after);
		look(self->base, &view);
		assert_view(_metadata, n, "after read()", &veiled, &view);
		if (remaining)
			break;
	}
	ASSERT_GE(MAX_FAULTS, n);
	TH_LOG("read() of %zu bytes of rules: %d allocations; faults: %d ENOMEM, %d survived",
	       strlen(before), n - remaining, failed, survived);
	ASSERT_LT(0, failed);
}

/*
 * fork(): after it, every private page of the parent is copy-on-write, and
 * the first write to one allocates.  So the loop runs on a stack in shared
 * memory (swapcontext()), which fork() does not make copy-on-write, and the
 * child on a stack of its own (clone() with SIGCHLD is fork()): between the
 * call and reading fail-nth back, the parent writes no page that fork()
 * shares with the child.
 */

struct forking {
	struct __test_metadata *metadata;
	ucontext_t back;
	char *child_stack;
	int nth;
	char base[64];
	char expected[RULES_MAX];
	/* What the child saw. */
	int err;
	char rules[RULES_MAX];
	struct view view;
};

static struct forking *forking;

static int forked_child(void *data)
{
	struct forking *const f = data;

	f->err = read_rules(f->rules, sizeof(f->rules));
	look(f->base, &f->view);
	return 0;
}

static void fork_loop(void)
{
	struct __test_metadata *const _metadata = forking->metadata;
	struct forking *const f = forking;
	int n, err, remaining, status, failed = 0, survived = 0;
	char after[RULES_MAX];
	struct view view;
	pid_t child;

	for (n = 1; n <= MAX_FAULTS; n++) {
		f->err = -1;
		f->rules[0] = '\0';
		/* clone() writes fn and arg there, before the call. */
		f->child_stack[STACK_SIZE - 64] = 0;
		errno = 0;
		ASSERT_EQ(0, fail_nth_arm(f->nth, n));
		child = clone(forked_child, f->child_stack + STACK_SIZE,
			      SIGCHLD, f);
		err = child < 0 ? errno : 0;
		remaining = fail_nth_disarm(f->nth);
		ASSERT_LE(0, remaining);
		if (child < 0) {
			ASSERT_TRUE(err == ENOMEM || err == EAGAIN)
				TH_LOG("n=%d: fork() failed with %s", n,
				       strerror(err));
			ASSERT_EQ(0, remaining)
				TH_LOG("n=%d: fork() failed with no fault injected",
				       n);
			failed++;
		} else {
			ASSERT_EQ(child, waitpid(child, &status, 0));
			ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
				TH_LOG("n=%d: the child died: status %#x", n,
				       status);
			ASSERT_EQ(0, f->err) TH_LOG("n=%d: the child's rules: %s",
						    n, strerror(f->err));
			ASSERT_STREQ(f->expected, f->rules)
				TH_LOG("n=%d: the child's rules", n);
			assert_view(_metadata, n, "in the child", &veiled,
				    &f->view);
			if (!remaining)
				survived++;
		}
		ASSERT_EQ(0, read_rules(after, sizeof(after)));
		ASSERT_STREQ(f->expected, after)
			TH_LOG("n=%d: the parent's rules changed", n);
		look(f->base, &view);
		assert_view(_metadata, n, "in the parent", &veiled, &view);
		if (remaining)
			break;
	}
	ASSERT_GE(MAX_FAULTS, n);
	TH_LOG("fork() under a veil: %d allocations; faults: %d failed it, %d survived",
	       n - remaining, failed, survived);
	ASSERT_LT(0, failed);
}

TEST_F_TIMEOUT(fault, fork_is_all_or_nothing, 300)
{
	const int prot = PROT_READ | PROT_WRITE;
	ucontext_t loop;
	char *stack;

	forking = mmap(NULL, sizeof(*forking), prot,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, forking);
	forking->metadata = _metadata;
	snprintf(forking->base, sizeof(forking->base), "%s", self->base);
	forking->child_stack = mmap(NULL, STACK_SIZE, prot,
				    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
				    -1, 0);
	ASSERT_NE(MAP_FAILED, forking->child_stack);
	memset(forking->child_stack, 0, STACK_SIZE);
	stack = mmap(NULL, STACK_SIZE, prot, MAP_SHARED | MAP_ANONYMOUS, -1,
		     0);
	ASSERT_NE(MAP_FAILED, stack);
	/* Its pages exist before the loop runs on it. */
	memset(stack, 0, STACK_SIZE);
	forking->nth = fail_nth_open();
	ASSERT_LE(0, forking->nth);
	veil_hundred(_metadata, self->base, forking->expected,
		     sizeof(forking->expected));

	ASSERT_EQ(0, getcontext(&loop));
	loop.uc_stack.ss_sp = stack;
	loop.uc_stack.ss_size = STACK_SIZE;
	loop.uc_link = &forking->back;
	makecontext(&loop, fork_loop, 0);
	ASSERT_EQ(0, swapcontext(&forking->back, &loop));
}

struct thread_view {
	const char *base;
	int err;
	char rules[RULES_MAX];
	struct view view;
};

static void *thread_looks(void *data)
{
	struct thread_view *const t = data;

	t->err = read_attr_fd(open("/proc/thread-self/attr/unveil/rules",
				   O_RDONLY | O_CLOEXEC),
			      t->rules, sizeof(t->rules));
	look(t->base, &t->view);
	return NULL;
}

/*
 * pthread_create(): the C library's own allocations (mmap() of the stack,
 * mprotect() of its guard) count too.  It fails with EAGAIN or succeeds,
 * and the new thread sees the veil of its process.
 */
TEST_F_TIMEOUT(fault, thread_creation_is_all_or_nothing, 300)
{
	int nth, n, ret, remaining, failed = 0, survived = 0;
	char before[RULES_MAX], after[RULES_MAX];
	struct thread_view t = { .base = self->base };
	struct view view;
	pthread_t thread;

	nth = fail_nth_open();
	ASSERT_LE(0, nth);
	veil_hundred(_metadata, self->base, before, sizeof(before));
	for (n = 1; n <= MAX_FAULTS; n++) {
		t.err = -1;
		t.rules[0] = '\0';
		touch_stack();
		ASSERT_EQ(0, fail_nth_arm(nth, n));
		ret = pthread_create(&thread, NULL, thread_looks, &t);
		remaining = fail_nth_disarm(nth);
		ASSERT_LE(0, remaining);
		if (ret) {
			ASSERT_EQ(EAGAIN, ret)
				TH_LOG("n=%d: pthread_create() failed with %s",
				       n, strerror(ret));
			ASSERT_EQ(0, remaining)
				TH_LOG("n=%d: pthread_create() failed with no fault injected",
				       n);
			failed++;
		} else {
			ASSERT_EQ(0, pthread_join(thread, NULL));
			ASSERT_EQ(0, t.err);
			ASSERT_STREQ(before, t.rules)
				TH_LOG("n=%d: the thread's rules", n);
			assert_view(_metadata, n, "in the thread", &veiled,
				    &t.view);
			if (!remaining)
				survived++;
		}
		ASSERT_EQ(0, read_rules(after, sizeof(after)));
		ASSERT_STREQ(before, after)
			TH_LOG("n=%d: the process's rules changed", n);
		look(self->base, &view);
		assert_view(_metadata, n, "in the process", &veiled, &view);
		if (remaining)
			break;
	}
	ASSERT_GE(MAX_FAULTS, n);
	TH_LOG("pthread_create() under a veil: %d allocations; faults: %d EAGAIN, %d survived",
	       n - remaining, failed, survived);
	ASSERT_LT(0, failed);
}

/*
 * execve() under a veil, of this program (argv[1] EXEC_CHILD: see
 * exec_child()).  Up to its point of no return a fault makes execve() fail
 * with the veil as it was: with ENOMEM; or E2BIG, which copy_strings()
 * reports for a page of the arguments it could not get; or ENOEXEC, which
 * load_elf_binary() reports when it cannot allocate the program headers.
 * Past it, the kernel kills the process with SIGSEGV (fs/exec.c).  A fault
 * still armed when the new program starts hits its start-up, before main()
 * can read fail-nth back: the C library's start-up exits with 127 and
 * "Cannot allocate memory" (mprotect() of RELRO failed), a constructor of
 * the harness gets MAP_FAILED from mmap() (SIGSEGV), or a page fault is
 * retried.  Otherwise the new program runs under the same veil and reads
 * fail-nth back itself.
 */

/* Reports @what on @fd for the test to show; returns @code. */
static int exec_report(int fd, int code, const char *what)
{
	dprintf(fd, "%s", what);
	return code;
}

/* main() of this program when run by execve_keeps_the_veil_or_fails. */
static int exec_child(int argc, char **argv)
{
	char rules[RULES_MAX];
	int nth, fd, report, remaining = -1, i;
	struct view view;

	if (argc != 7)
		return 1;
	nth = atoi(argv[2]);
	fd = atoi(argv[3]);
	report = atoi(argv[4]);
	/*
	 * A fault may still be armed: read it back and disarm it first.  The
	 * first read may fail if a fault hits the page of its buffer.
	 */
	for (i = 0; i < 3 && remaining < 0; i++)
		remaining = fail_nth_disarm(nth);
	if (remaining < 0)
		return exec_report(report, 2, "fail-nth unreadable");
	if (read_from_start(fd, rules, sizeof(rules)))
		return exec_report(report, 3, "rules unreadable");
	if (strcmp(argv[6], rules)) {
		dprintf(report, "the rules after execve():\n%s", rules);
		return 4;
	}
	look(argv[5], &view);
	if (!same_view(&veiled, &view)) {
		dprintf(report, "after execve(): %d %d %d", view.readable,
			view.writable, view.hidden);
		return 5;
	}
	dprintf(report, "%d", remaining);
	return remaining ? EXEC_RAN : EXEC_RAN_FAULTED;
}

/* A child that veils itself, then calls execve() with the @n th fault. */
static int exec_case_child(const char *exe, const char *base, int n,
			   int report)
{
	char nth_arg[16], rules_arg[16], report_arg[16];
	char before[RULES_MAX], after[RULES_MAX];
	const struct rlimit no_core = {};
	char *argv[8], *envp[] = { NULL };
	int nth, rules, err, remaining;
	struct view view;

	/* Both are kept across execve(). */
	nth = fail_nth_open();
	rules = open(RULES, O_RDONLY);
	if (nth < 0 || rules < 0)
		return exec_report(report, 20, "cannot open fail-nth or rules");
	setrlimit(RLIMIT_CORE, &no_core);
	/* What the C library's start-up says goes to the test. */
	dup2(report, STDERR_FILENO);
	if (unveil_errno(at(base, "directory-01"), "r") ||
	    unveil_errno(exe, "x"))
		return exec_report(report, 21, "unveil() failed");
	if (read_from_start(rules, before, sizeof(before)))
		return exec_report(report, 22, "rules unreadable");
	snprintf(nth_arg, sizeof(nth_arg), "%d", nth);
	snprintf(rules_arg, sizeof(rules_arg), "%d", rules);
	snprintf(report_arg, sizeof(report_arg), "%d", report);
	argv[0] = (char *)exe;
	argv[1] = EXEC_CHILD;
	argv[2] = nth_arg;
	argv[3] = rules_arg;
	argv[4] = report_arg;
	argv[5] = (char *)base;
	argv[6] = before;
	argv[7] = NULL;

	touch_stack();
	if (fail_nth_arm(nth, n))
		return exec_report(report, 23, "cannot arm fail-nth");
	execve(exe, argv, envp);
	err = errno;
	remaining = fail_nth_disarm(nth);

	if (remaining) {
		dprintf(report, "execve() failed with %s and no fault injected",
			strerror(err));
		return 24;
	}
	if (err != ENOMEM && err != E2BIG && err != ENOEXEC) {
		dprintf(report, "execve() failed with %s", strerror(err));
		return 25;
	}
	if (read_from_start(rules, after, sizeof(after)) ||
	    strcmp(before, after)) {
		dprintf(report, "the rules after execve() failed:\n%s", after);
		return 26;
	}
	look(base, &view);
	if (!same_view(&veiled, &view)) {
		dprintf(report, "after execve() failed: %d %d %d",
			view.readable, view.writable, view.hidden);
		return 27;
	}
	dprintf(report, "%d", err);
	return EXEC_FAILED;
}

/* fail-nth of the thread @pid, which has exited but was not reaped. */
static int fail_nth_of(pid_t pid)
{
	char path[64], buf[16];

	snprintf(path, sizeof(path), "/proc/%d/fail-nth", pid);
	if (read_attr_fd(open(path, O_RDONLY | O_CLOEXEC), buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

TEST_F_TIMEOUT(fault, execve_keeps_the_veil_or_fails, 1200)
{
	int n, status, pipe_fds[2], left, code, remaining = 0;
	int failed = 0, killed = 0, faulted = 0, enomem = 0, e2big = 0;
	int start_up = 0;
	char exe[PATH_MAX], msg[RULES_MAX + 64];
	siginfo_t info;
	ssize_t len;
	pid_t child;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, len);
	exe[len] = '\0';
	for (n = 1; n <= MAX_FAULTS; n++) {
		ASSERT_EQ(0, pipe(pipe_fds));
		child = fork();
		ASSERT_LE(0, child);
		if (child == 0) {
			close(pipe_fds[0]);
			_exit(exec_case_child(exe, self->base, n, pipe_fds[1]));
		}
		close(pipe_fds[1]);
		ASSERT_EQ(0, waitid(P_PID, child, &info, WEXITED | WNOWAIT));
		left = fail_nth_of(child);
		ASSERT_EQ(child, waitpid(child, &status, 0));
		len = read(pipe_fds[0], msg, sizeof(msg) - 1);
		msg[len > 0 ? len : 0] = '\0';
		close(pipe_fds[0]);

		if (WIFSIGNALED(status)) {
			/* Past the point of no return, or in start-up. */
			ASSERT_EQ(SIGSEGV, WTERMSIG(status))
				TH_LOG("n=%d: killed by signal %d: %s", n,
				       WTERMSIG(status), msg);
			ASSERT_EQ(0, left)
				TH_LOG("n=%d: killed with no fault injected",
				       n);
			killed++;
			continue;
		}
		ASSERT_TRUE(WIFEXITED(status));
		code = WEXITSTATUS(status);
		if (code == 127) {
			/* The C library's start-up failed an allocation. */
			ASSERT_NE(NULL, strstr(msg, "Cannot allocate memory"))
				TH_LOG("n=%d: exit 127: %s", n, msg);
			ASSERT_EQ(0, left)
				TH_LOG("n=%d: exit 127 with no fault injected",
				       n);
			start_up++;
			continue;
		}
		if (code == EXEC_FAILED) {
			failed++;
			enomem += atoi(msg) == ENOMEM;
			e2big += atoi(msg) == E2BIG;
			continue;
		}
		if (code == EXEC_RAN_FAULTED) {
			faulted++;
			continue;
		}
		ASSERT_EQ(EXEC_RAN, code) TH_LOG("n=%d: %s", n, msg);
		remaining = atoi(msg);
		break;
	}
	ASSERT_GE(MAX_FAULTS, n);
	TH_LOG("execve() under a veil: %d allocations up to main()", n - remaining);
	TH_LOG("faults: %d failed it (ENOMEM %d, E2BIG %d, ENOEXEC %d)",
	       failed, enomem, e2big, failed - enomem - e2big);
	TH_LOG("faults: %d SIGSEGV, %d exit 127 in start-up, %d survived",
	       killed, start_up, faulted);
	ASSERT_LT(0, failed);
}

/*
 * A refused open() while the refusal is reported (kernel log line, audit
 * record).  The refusal is counted in /proc/PID/attr/unveil/refusals,
 * which only a process without a veil may read: this test process.  A
 * fault before the veil was consulted (the lookup, the file) gives ENOMEM
 * and no refusal; once the veil refused, the call fails with the
 * refusal's errno whatever the report could or could not allocate.
 */

struct refusal {
	int err;
	int remaining;
};

/* Refuses @path (@flags) with the 1st, 2nd, ... fault, as told. */
static int refusal_worker(const char *base, const char *path, int flags,
			  int to_test, int from_test)
{
	struct refusal refusal;
	struct view view;
	int nth, n, fd;
	char go;

	nth = fail_nth_open();
	if (nth < 0 || unveil_errno(at(base, "directory-01"), "r"))
		return 1;
	for (n = 1;; n++) {
		if (write(to_test, &n, sizeof(n)) != sizeof(n) ||
		    read(from_test, &go, 1) != 1)
			return 2;
		if (go != 'g')
			break;
		touch_stack();
		if (fail_nth_arm(nth, n))
			return 3;
		fd = open(path, flags);
		refusal.err = fd < 0 ? errno : 0;
		refusal.remaining = fail_nth_disarm(nth);
		if (fd >= 0)
			close(fd);
		if (write(to_test, &refusal, sizeof(refusal)) !=
		    sizeof(refusal))
			return 4;
	}
	look(base, &view);
	return write(to_test, &view, sizeof(view)) == sizeof(view) ? 0 : 5;
}

/* The number of refusals under the veil of @pid, or -1. */
static long long refusal_count(pid_t pid)
{
	char path[64], buf[64];
	long long count = -1;

	snprintf(path, sizeof(path), "/proc/%d/attr/unveil/refusals", pid);
	if (read_attr_fd(open(path, O_RDONLY | O_CLOEXEC), buf, sizeof(buf)) ||
	    sscanf(buf, "refusals %lld", &count) != 1)
		return -1;
	return count;
}

/*
 * Returns the number of allocations the refusal made once the veil was
 * consulted (its report and what follows it in the call).
 */
static int run_refusal(struct __test_metadata *_metadata, const char *base,
		       const char *rel, int flags, int refusal_err,
		       bool logging)
{
	int to_worker[2], from_worker[2], n, got_n, status;
	int before_check = 0, after_check = 0, since_reset = 0;
	long long count, count_after;
	char rules[RULES_MAX], rules_after[RULES_MAX], path[PATH_MAX];
	struct refusal refusal;
	struct view view;
	pid_t worker;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	ASSERT_EQ(0, pipe(to_worker));
	ASSERT_EQ(0, pipe(from_worker));
	worker = fork();
	ASSERT_LE(0, worker);
	if (worker == 0) {
		close(to_worker[1]);
		close(from_worker[0]);
		_exit(refusal_worker(base, path, flags, from_worker[1],
				     to_worker[0]));
	}
	close(to_worker[0]);
	close(from_worker[1]);
	/* Let the rate limit of earlier refusal lines run out. */
	if (logging)
		usleep(RATELIMIT_US);

	for (n = 1; n <= MAX_FAULTS; n++) {
		ASSERT_EQ(sizeof(got_n), read(from_worker[0], &got_n,
					      sizeof(got_n)));
		ASSERT_EQ(n, got_n);
		if (n == 1)
			ASSERT_EQ(0, read_attr_fd(open_attr(worker, "rules"),
						  rules, sizeof(rules)));
		/* Keep the log lines, and their allocations, coming. */
		if (logging && since_reset >= RATELIMIT_BURST - 2) {
			usleep(RATELIMIT_US);
			since_reset = 0;
		}
		count = refusal_count(worker);
		ASSERT_LE(0, count);
		ASSERT_EQ(1, write(to_worker[1], "g", 1));
		ASSERT_EQ(sizeof(refusal), read(from_worker[0], &refusal,
						sizeof(refusal)));
		count_after = refusal_count(worker);
		ASSERT_LE(0, refusal.remaining);
		if (count_after == count) {
			/* The fault came before the veil was consulted. */
			ASSERT_EQ(ENOMEM, refusal.err)
				TH_LOG("n=%d: open() failed with %s, not refused",
				       n, strerror(refusal.err));
			ASSERT_EQ(0, refusal.remaining);
			before_check++;
		} else {
			ASSERT_EQ(count + 1, count_after);
			ASSERT_EQ(refusal_err, refusal.err)
				TH_LOG("n=%d: the refused open() got %s", n,
				       strerror(refusal.err));
			since_reset++;
			if (!refusal.remaining)
				after_check++;
		}
		if (refusal.remaining)
			break;
	}
	ASSERT_GE(MAX_FAULTS, n);
	ASSERT_EQ(sizeof(got_n), read(from_worker[0], &got_n, sizeof(got_n)));
	ASSERT_EQ(1, write(to_worker[1], "s", 1));
	ASSERT_EQ(sizeof(view), read(from_worker[0], &view, sizeof(view)));
	ASSERT_EQ(0, read_attr_fd(open_attr(worker, "rules"), rules_after,
				  sizeof(rules_after)));
	ASSERT_EQ(worker, waitpid(worker, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	close(to_worker[1]);
	close(from_worker[0]);
	ASSERT_STREQ(rules, rules_after);
	assert_view(_metadata, n, "in the worker", &veiled, &view);
	TH_LOG("open(%s): %d allocations before the check (ENOMEM), %d after",
	       rel, before_check, after_check);
	return after_check;
}

/*
 * The refusal line: the path (__getname()), then the quoted path and
 * command name of the line (two kmalloc()s).
 */
TEST_F_TIMEOUT(fault, refused_open_keeps_its_errno_while_logging, 600)
{
	write_file(LOG_SWITCH, "Y");
	ASSERT_LE(3, run_refusal(_metadata, self->base, "hidden/file",
				 O_RDONLY, ENOENT, true));
	ASSERT_LE(3, run_refusal(_metadata, self->base, "directory-01/file",
				 O_WRONLY, EACCES, true));
}

/* The audit record (and the records of the call at its end), no log line. */
TEST_F_TIMEOUT(fault, refused_open_keeps_its_errno_while_auditing, 600)
{
	int fd, err;

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
	if (fd < 0 && errno == EPROTONOSUPPORT)
		SKIP(return, "no CONFIG_AUDIT");
	ASSERT_LE(0, fd);
	err = audit_set(fd, AUDIT_STATUS_ENABLED, 1, 0);
	close(fd);
	if (err == EPERM)
		SKIP(return, "audit is locked");
	ASSERT_EQ(0, err);
	self->audit_on = true;
	self->log_off = true;
	write_file(LOG_SWITCH, "N");
	ASSERT_LE(3, run_refusal(_metadata, self->base, "hidden/file",
				 O_RDONLY, ENOENT, false));
	ASSERT_LE(3, run_refusal(_metadata, self->base, "directory-01/file",
				 O_WRONLY, EACCES, false));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], EXEC_CHILD))
		return exec_child(argc, argv);
	return test_harness_run(argc, argv);
}
