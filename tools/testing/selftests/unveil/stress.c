// SPDX-License-Identifier: GPL-2.0
/*
 * unveil stress - many processes and threads doing random unveil(), open,
 * stat, rename, link, unlink, mkdir, fork and exec on a shared tree while an
 * unveiled process mounts and unmounts a file system inside it, for a given
 * time.  Meant for a debug kernel (KASAN, lockdep, kmemleak): the kernel log
 * is what tells, this program only checks that every call returns success
 * or an errno the contract allows, and that no process dies of a signal.
 *
 * Some veiled processes learn instead (see learn_test.c): the same calls,
 * none refused, all recorded.
 *
 * Usage: stress [-t SECONDS] [-p PROCESSES] [-j THREADS] [-s SEED]
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define TOP "/tmp/unveil-stress"
#define NR_DIRS 6
#define NR_NAMES 4

enum op {
	OP_UNVEIL, OP_LOCK, OP_OPEN, OP_CREATE, OP_STAT, OP_ACCESS,
	OP_RENAME, OP_LINK, OP_UNLINK, OP_MKDIR, OP_RMDIR, OP_SYMLINK,
	OP_FORK, OP_EXEC, OP_MOUNT, OP_LEARN, NR_OPS
};

static const char *const op_names[NR_OPS] = {
	"unveil", "lock", "open", "create", "stat", "access", "rename",
	"link", "unlink", "mkdir", "rmdir", "symlink", "fork", "exec", "mount",
	"learn",
};

/* Shared by every process of the run. */
struct counters {
	atomic_ulong ops[NR_OPS];
	atomic_ulong unexpected;
};

static struct counters *counters;
static char self_exe[PATH_MAX], self_dir[PATH_MAX];
/* Per process: when its threads stop, whether it has a veil, and learns. */
static time_t deadline;
static bool veiled, learning;

static unsigned long next_random(unsigned long *state)
{
	/* xorshift64: the same seed gives the same sequence of calls */
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* A path in the tree: a directory, a name in it, or a name in the mount. */
static void random_path(unsigned long *rnd, char *buf, size_t size)
{
	const unsigned long r = next_random(rnd);
	const unsigned int dir = r % NR_DIRS, name = (r >> 8) % NR_NAMES;

	switch ((r >> 16) % 4) {
	case 0:
		snprintf(buf, size, TOP "/d%u", dir);
		break;
	case 1:
		snprintf(buf, size, TOP "/mnt/n%u", name);
		break;
	default:
		snprintf(buf, size, TOP "/d%u/n%u", dir, name);
		break;
	}
}

static bool errno_is_expected(int err)
{
	switch (err) {
	case ENOENT:	/* hidden, or removed by another worker */
	case EACCES:	/* visible without the letter */
	case EXDEV:	/* link or rename would widen access */
	case EPERM:	/* locked, mount family, exec of a hidden file */
	case E2BIG:	/* rule limit */
	case EEXIST: case ENOTEMPTY: case ENOTDIR: case EISDIR:
	case EINVAL:	/* rename of a directory into itself */
	case EBUSY:	/* rename or rmdir of a mount point */
	case ELOOP:	/* a symlink to itself */
		return true;
	}
	return false;
}

static void report_unexpected(const char *op, const char *what)
{
	atomic_fetch_add(&counters->unexpected, 1);
	fprintf(stderr, "stress: %s: %s not expected\n", op, what);
}

static void account(enum op op, long ret)
{
	atomic_fetch_add(&counters->ops[op], 1);
	if (ret < 0 && !errno_is_expected(errno))
		report_unexpected(op_names[op], strerror(errno));
}

static void do_random_ops(unsigned long *rnd, int count, bool may_fork);

static void fork_child(unsigned long *rnd, bool exec)
{
	const pid_t pid = fork();
	char seed[32];
	int status = 0;

	if (pid < 0) {
		account(OP_FORK, -1);
		return;
	}
	if (pid == 0) {
		if (exec) {
			snprintf(seed, sizeof(seed), "%lu", next_random(rnd));
			execl(self_exe, self_exe,
			      learning ? "-L" : veiled ? "-X" : "-x", seed,
			      NULL);
			account(OP_EXEC, -1);
			_exit(0);
		}
		do_random_ops(rnd, 20, false);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		report_unexpected(op_names[exec ? OP_EXEC : OP_FORK], "child status");
	account(exec ? OP_EXEC : OP_FORK, 0);
}

static void do_random_op(unsigned long *rnd, bool may_fork)
{
	static const char *const letters[] = { "", "r", "rw", "rwc", "rwxc", "c" };
	char a[PATH_MAX], b[PATH_MAX];
	struct stat st;
	const unsigned long r = next_random(rnd);
	const enum op op = r % NR_OPS;
	long ret;
	int fd;

	random_path(rnd, a, sizeof(a));
	random_path(rnd, b, sizeof(b));
	switch (op) {
	case OP_UNVEIL:
		if (veiled)
			account(op, sys_unveil(a, letters[(r >> 8) % 6]));
		break;
	case OP_LOCK:
		/* rarely: most processes keep adding rules for a while */
		if (veiled && (r >> 8) % 64 == 0)
			account(op, sys_unveil(NULL, NULL));
		break;
	case OP_OPEN:
	case OP_CREATE:
		fd = open(a, op == OP_OPEN ? O_RDONLY : O_WRONLY | O_CREAT,
			  0644);
		account(op, fd);
		if (fd >= 0)
			close(fd);
		break;
	case OP_STAT:
		account(op, stat(a, &st));
		break;
	case OP_ACCESS:
		account(op, access(a, R_OK | W_OK));
		break;
	case OP_RENAME:
		ret = renameat2(AT_FDCWD, a, AT_FDCWD, b,
				(r >> 8) % 4 ? 0 : RENAME_EXCHANGE);
		account(op, ret);
		break;
	case OP_LINK:
		account(op, link(a, b));
		break;
	case OP_UNLINK:
		account(op, unlink(a));
		break;
	case OP_MKDIR:
		account(op, mkdir(a, 0755));
		break;
	case OP_RMDIR:
		account(op, rmdir(a));
		break;
	case OP_SYMLINK:
		account(op, symlink(b, a));
		break;
	case OP_FORK:
	case OP_EXEC:
		if (may_fork)
			fork_child(rnd, op == OP_EXEC);
		break;
	case OP_MOUNT:
		/* the mounter's job: a veiled worker must be refused */
		if (veiled && !learning) {
			ret = mount("none", a, "tmpfs", 0, NULL);
			if (!ret)
				report_unexpected(op_names[op], "success");
			account(op, ret);
		}
		break;
	case OP_LEARN:
	case NR_OPS:
		break;
	}
}

static void do_random_ops(unsigned long *rnd, int count, bool may_fork)
{
	while (count-- > 0)
		do_random_op(rnd, may_fork);
}

struct worker {
	pthread_t thread;
	unsigned long rnd;
};

static void *worker_main(void *arg)
{
	struct worker *const w = arg;

	while (time(NULL) < deadline)
		do_random_ops(&w->rnd, 50, true);
	return NULL;
}

/* Says why a process of the run fails; returns its exit status. */
static int fail(const char *what)
{
	fprintf(stderr, "stress: process %d: %s: %s\n", getpid(), what,
		strerror(errno));
	return 1;
}

/*
 * One process: lives for 1 to 4 seconds, then another takes its place.  Four
 * in five have a veil, half of those may exec this program again; one in
 * four of those learns.
 */
static int process_main(unsigned long seed, int threads, time_t end)
{
	struct worker *const workers = calloc(threads, sizeof(*workers));
	int i;

	if (!workers)
		return fail("calloc");
	deadline = time(NULL) + 1 + seed % 4;
	if (deadline > end)
		deadline = end;
	veiled = seed % 5 != 0;
	learning = veiled && seed / 5 % 4 == 0;
	if (learning) {
		errno = write_learn(0, "1");
		if (errno)
			return fail("learn");
		atomic_fetch_add(&counters->ops[OP_LEARN], 1);
	}
	/* Other processes may have made d0 a file or a loop of symlinks. */
	if (veiled && sys_unveil(TOP "/d0", "r")) {
		if (!errno_is_expected(errno))
			return fail("unveil " TOP "/d0");
		veiled = false;
	}
	if (veiled && seed % 2 && sys_unveil(self_dir, "rx"))
		return fail("unveil of its own directory");
	for (i = 0; i < threads; i++) {
		workers[i].rnd = seed * 2654435761UL + i + 1;
		errno = pthread_create(&workers[i].thread, NULL, worker_main,
				       &workers[i]);
		if (errno)
			return fail("pthread_create");
	}
	for (i = 0; i < threads; i++)
		pthread_join(workers[i].thread, NULL);
	return 0;
}

/* Unveiled: mounts a tmpfs where workers have rules, and unmounts it. */
static int mounter_main(time_t end)
{
	char name[PATH_MAX];
	int i = 0;

	while (time(NULL) < end) {
		if (mount("none", TOP "/mnt", "tmpfs", 0, NULL))
			return fail("mount");
		snprintf(name, sizeof(name), TOP "/mnt/n%d", i++ % NR_NAMES);
		close(open(name, O_WRONLY | O_CREAT, 0644));
		usleep(20000);
		if (umount2(TOP "/mnt", MNT_DETACH))
			return fail("umount");
		atomic_fetch_add(&counters->ops[OP_MOUNT], 1);
	}
	return 0;
}

static pid_t spawn_process(unsigned long seed, int threads, time_t end)
{
	const pid_t pid = fork();

	if (pid == 0)
		_exit(process_main(seed, threads, end));
	return pid;
}

static int make_tree(void)
{
	char path[PATH_MAX];
	int d;

	mkdir(TOP, 0755);
	mkdir(TOP "/mnt", 0755);
	for (d = 0; d < NR_DIRS; d++) {
		snprintf(path, sizeof(path), TOP "/d%d", d);
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long seed = 1, spawned = 0;
	int seconds = 10, processes = 6, threads = 4, opt, i, failed = 0;
	pid_t mounter, pid;
	time_t end;
	int status;

	counters = mmap(NULL, sizeof(*counters), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counters == MAP_FAILED) {
		perror("stress: mmap");
		return 1;
	}
	while ((opt = getopt(argc, argv, "t:p:j:s:x:X:L:")) != -1) {
		switch (opt) {
		case 't':
			seconds = atoi(optarg);
			break;
		case 'p':
			processes = atoi(optarg);
			break;
		case 'j':
			threads = atoi(optarg);
			break;
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		case 'x':
		case 'X':
		case 'L':
			/* exec'ed by a worker: some calls, then exit */
			veiled = opt != 'x';
			learning = opt == 'L';
			seed = strtoul(optarg, NULL, 0) | 1;
			do_random_ops(&seed, 20, false);
			return atomic_load(&counters->unexpected) ? 3 : 0;
		default:
			fprintf(stderr,
				"usage: %s [-t SECONDS] [-p PROCESSES] [-j THREADS] [-s SEED]\n",
				argv[0]);
			return 2;
		}
	}
	if (!realpath(argv[0], self_exe)) {
		perror(argv[0]);
		return 1;
	}
	snprintf(self_dir, sizeof(self_dir), "%.*s",
		 (int)(strrchr(self_exe, '/') - self_exe), self_exe);
	if (make_tree()) {
		perror("stress: " TOP);
		return 1;
	}
	end = time(NULL) + seconds;

	mounter = fork();
	if (mounter == 0)
		_exit(mounter_main(end));

	/* Every process slot is refilled until the end. */
	for (i = 0; i < processes; i++)
		if (spawn_process(seed + spawned, threads, end) > 0)
			spawned++;
	while ((pid = wait(&status)) > 0) {
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "stress: process %d ended with status 0x%x\n",
				pid, status);
			failed++;
		}
		if (pid != mounter && time(NULL) < end &&
		    spawn_process(seed + spawned, threads, end) > 0)
			spawned++;
	}

	printf("stress: %lu processes x %d threads for %d s, seed %lu:",
	       spawned, threads, seconds, seed);
	for (i = 0; i < NR_OPS; i++)
		printf(" %s %lu", op_names[i], atomic_load(&counters->ops[i]));
	printf("; unexpected errors %lu, failed processes %d\n",
	       atomic_load(&counters->unexpected), failed);
	return counters->unexpected || failed ? 1 : 0;
}
