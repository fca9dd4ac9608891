// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests of libunveil: what unveil() does in each mode, and each difference
 * between the system call and its Landlock emulation that unveil(2) lists
 * (one case each: its result in both modes).  Prints TAP.
 *
 * Usage: test-libunveil kernel|landlock|none
 *   kernel     the running kernel has the unveil security module
 *   landlock   it has Landlock and not unveil
 *   none       either: a seccomp filter hides both from the tests
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/io_uring.h>
#include <linux/seccomp.h>

#include "unveil.h"

static enum unveil_mode expected;
static char base[64], self[PATH_MAX];
static int tests, failures;

/* In a case's child: ends it as failed, saying why. */
static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
	_exit(1);
}

static const char *in_base(const char *name)
{
	static char path[4][PATH_MAX];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, PATH_MAX, "%s/%s", base, name);
	return p;
}

#define MUST(call) do { if ((call) < 0) fail("%s: %m", #call); } while (0)

/* The call's result: 0, or the errno it failed with. */
static int result(int ret)
{
	return ret < 0 ? errno : 0;
}

static int opened(int fd)
{
	if (fd >= 0)
		close(fd);
	return result(fd);
}

static void expect(const char *what, int want, int got)
{
	if (want != got)
		fail("%s: expected %s, got %s", what,
		     want ? strerror(want) : "success",
		     got ? strerror(got) : "success");
}

/* @kernel with the system call, @landlock under the emulation. */
static int by_mode(int kernel, int landlock)
{
	return expected == UNVEIL_MODE_KERNEL ? kernel : landlock;
}

static void veil(const char *path, const char *letters)
{
	if (unveil(path, letters))
		fail("unveil(%s, \"%s\"): %m", path, letters);
}

static void lock(void)
{
	if (unveil(NULL, NULL))
		fail("unveil(NULL, NULL): %m");
}

/* A fresh tree: pub/f, priv/secret, out/. */
static void make_tree(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (system(cmd))
		exit(2);
	if (mkdir(base, 0755) || mkdir(in_base("pub"), 0755) ||
	    mkdir(in_base("priv"), 0755) || mkdir(in_base("out"), 0755) ||
	    mkdir(in_base("bin"), 0755) ||
	    opened(open(in_base("pub/f"), O_CREAT | O_WRONLY, 0644)) ||
	    opened(open(in_base("pub/g"), O_CREAT | O_WRONLY, 0644)) ||
	    opened(open(in_base("priv/secret"), O_CREAT | O_WRONLY, 0644)))
		exit(2);
}

/* Runs @test in a child, on a fresh tree; one TAP line. */
static void run(const char *name, void (*test)(void))
{
	int status;
	pid_t pid;

	make_tree();
	fflush(stdout);
	pid = fork();
	if (!pid) {
		test();
		fflush(stdout);
		_exit(0);
	}
	tests++;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		failures++;
		printf("not ok %d %s\n", tests, name);
	} else {
		printf("ok %d %s\n", tests, name);
	}
}

/* Runs this program again as "test-libunveil probe PATH": its result. */
static int probe_after_exec(const char *path, const char *unveil_first)
{
	int status;
	pid_t pid;

	pid = fork();
	if (!pid) {
		execl(in_base("bin/test-libunveil"), "test-libunveil", "probe",
		      path, unveil_first, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		fail("probe: no exit status");
	if (WEXITSTATUS(status) == 127)
		fail("probe: exec failed");
	return WEXITSTATUS(status) == 255 ? -1 : WEXITSTATUS(status);
}

/*
 * "probe PATH [DIR]": unveils DIR ("r") and locks if given; exits with
 * the result of opening PATH, 255 if unveil() failed with EPERM.
 */
static int probe(const char *path, const char *unveil_first)
{
	if (unveil_first && unveil(unveil_first, "r"))
		return errno == EPERM ? 255 : 254;
	if (unveil_first && unveil(NULL, NULL))
		return 254;
	return opened(open(path, O_RDONLY | O_CLOEXEC));
}

/* What the probe needs to run: itself, shown @letters; a loader's files. */
static void veil_for_exec(const char *letters)
{
	static const char *const libs[] = { "/lib", "/lib64", "/usr/lib" };
	char copy[PATH_MAX + 64];
	size_t i;

	snprintf(copy, sizeof(copy), "cp '%s' '%s'", self,
		 in_base("bin/test-libunveil"));
	if (system(copy))
		fail("cannot copy %s", self);
	veil(in_base("bin/test-libunveil"), letters);
	for (i = 0; i < sizeof(libs) / sizeof(*libs); i++)
		if (!access(libs[i], F_OK))
			veil(libs[i], "rx");
	if (!access("/etc", F_OK))
		veil("/etc/ld.so.cache", "r");
}

static void mode_is_the_expected_one(void)
{
	if (unveil_mode() != expected)
		fail("unveil_mode() is %s, expected %s",
		     unveil_mode_name(unveil_mode()),
		     unveil_mode_name(expected));
	expect("unveil_active()", expected == UNVEIL_MODE_KERNEL,
	       unveil_active());
}

static void reading_an_unveiled_directory(void)
{
	veil(in_base("pub"), "r");
	lock();
	expect("open pub/f for reading", 0,
	       opened(open(in_base("pub/f"), O_RDONLY)));
}

static void writing_needs_w(void)
{
	veil(in_base("pub"), "r");
	lock();
	expect("open pub/f for writing", EACCES,
	       opened(open(in_base("pub/f"), O_WRONLY)));
}

static void creating_needs_c_and_a_refused_create_leaves_nothing(void)
{
	veil(in_base("out"), "rw");
	lock();
	expect("create out/new", EACCES,
	       opened(open(in_base("out/new"), O_CREAT | O_WRONLY, 0644)));
	expect("out/new is there", ENOENT,
	       opened(open(in_base("out/new"), O_RDONLY)));
}

static void c_creates_and_removes(void)
{
	veil(in_base("out"), "rwc");
	lock();
	expect("create out/new", 0,
	       opened(open(in_base("out/new"), O_CREAT | O_WRONLY, 0644)));
	expect("mkdir out/dir", 0, result(mkdir(in_base("out/dir"), 0755)));
	expect("unlink out/new", 0, result(unlink(in_base("out/new"))));
	expect("rmdir out/dir", 0, result(rmdir(in_base("out/dir"))));
}

static void a_call_again_replaces_the_letters(void)
{
	veil(in_base("pub"), "rw");
	veil(in_base("pub"), "r");
	lock();
	expect("open pub/f for writing", EACCES,
	       opened(open(in_base("pub/f"), O_WRONLY)));
}

static void the_lock_refuses_later_calls(void)
{
	veil(in_base("pub"), "r");
	expect("unveil_supported() before the lock", 1, unveil_supported());
	lock();
	expect("unveil after the lock", EPERM,
	       result(unveil(in_base("priv"), "r")));
	errno = 0;
	expect("unveil_supported() after the lock", 0, unveil_supported());
	expect("its errno", EPERM, errno);
}

static void bad_arguments_fail_as_the_system_call_does(void)
{
	expect("a letter that is not rwxc", EINVAL,
	       result(unveil(in_base("pub"), "rq")));
	expect("five letters", ENAMETOOLONG,
	       result(unveil(in_base("pub"), "rrrrr")));
	expect("a NULL path", EFAULT, result(unveil(NULL, "r")));
	expect("NULL letters", EFAULT, result(unveil(in_base("pub"), NULL)));
	expect("an empty path", EINVAL, result(unveil("", "r")));
	expect("a missing directory on the way", ENOENT,
	       result(unveil(in_base("none/f"), "r")));
	expect("a file on the way", ENOTDIR,
	       result(unveil(in_base("pub/f/x"), "r")));
	/* None of them dropped a veil. */
	expect("open priv/secret", 0,
	       opened(open(in_base("priv/secret"), O_RDONLY)));
}

static void a_rule_on_a_file_reveals_that_file(void)
{
	veil(in_base("pub/f"), "r");
	lock();
	expect("open pub/f", 0, opened(open(in_base("pub/f"), O_RDONLY)));
	expect("open pub/g", by_mode(ENOENT, EACCES),
	       opened(open(in_base("pub/g"), O_RDONLY)));
}

static void a_forked_child_keeps_the_veil(void)
{
	int status;
	pid_t pid;

	veil(in_base("pub"), "r");
	lock();
	pid = fork();
	if (!pid)
		_exit(opened(open(in_base("priv/secret"), O_RDONLY)));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		fail("child: no exit status");
	expect("the child's open of priv/secret", by_mode(ENOENT, EACCES),
	       WEXITSTATUS(status));
}

/* Differences: the result with the system call, then with Landlock. */

static void hidden_files_give_enoent_or_eacces(void)
{
	veil(in_base("pub"), "r");
	lock();
	expect("open priv/secret", by_mode(ENOENT, EACCES),
	       opened(open(in_base("priv/secret"), O_RDONLY)));
}

static void nothing_is_hidden_before_the_lock_under_landlock(void)
{
	veil(in_base("pub"), "r");
	expect("open priv/secret before the lock", by_mode(ENOENT, 0),
	       opened(open(in_base("priv/secret"), O_RDONLY)));
}

static void a_narrower_rule_inside_takes_no_letter_away_under_landlock(void)
{
	veil(base, "rw");
	veil(in_base("pub"), "r");
	lock();
	expect("open pub/f for writing", by_mode(EACCES, 0),
	       opened(open(in_base("pub/f"), O_WRONLY)));
}

static void an_empty_rule_inside_hides_nothing_under_landlock(void)
{
	veil(base, "r");
	veil(in_base("priv"), "");
	lock();
	expect("open priv/secret", by_mode(ENOENT, 0),
	       opened(open(in_base("priv/secret"), O_RDONLY)));
}

static void stat_is_not_judged_under_landlock(void)
{
	struct stat st;

	veil(in_base("pub"), "r");
	lock();
	expect("stat priv/secret", by_mode(ENOENT, 0),
	       result(stat(in_base("priv/secret"), &st)));
	expect("access priv/secret", by_mode(ENOENT, 0),
	       result(access(in_base("priv/secret"), F_OK)));
	expect("readlink priv/secret", by_mode(ENOENT, EINVAL),
	       result(readlink(in_base("priv/secret"), (char[8]){ 0 }, 8)));
	expect("chdir priv", by_mode(ENOENT, 0), result(chdir(in_base("priv"))));
}

static void connect_o_path_and_o_creat_are_not_judged_under_landlock(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int server, client;

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", in_base("priv/sock"));
	server = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	MUST(server);
	MUST(bind(server, (struct sockaddr *)&addr, sizeof(addr)));
	MUST(listen(server, 1));
	veil(in_base("pub"), "rw");
	lock();
	client = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	MUST(client);
	expect("connect to priv/sock", by_mode(ENOENT, 0),
	       result(connect(client, (struct sockaddr *)&addr, sizeof(addr))));
	expect("open priv/secret O_PATH", by_mode(ENOENT, 0),
	       opened(open(in_base("priv/secret"), O_PATH)));
	expect("open pub/f O_CREAT", by_mode(EACCES, 0),
	       opened(open(in_base("pub/f"), O_CREAT | O_WRONLY, 0644)));
}

static void changing_attributes_is_not_judged_under_landlock(void)
{
	veil(in_base("pub"), "r");
	lock();
	expect("chmod pub/f", by_mode(EACCES, 0),
	       result(chmod(in_base("pub/f"), 0600)));
}

static void c_on_a_file_fails_with_eopnotsupp_under_landlock(void)
{
	expect("unveil out/new rwc", by_mode(0, EOPNOTSUPP),
	       result(unveil(in_base("out/new"), "rwc")));
	expect("unveil pub/f c", by_mode(0, EOPNOTSUPP),
	       result(unveil(in_base("pub/f"), "c")));
	veil(in_base("out/new"), "rw");
	lock();
	expect("create out/other", by_mode(ENOENT, EACCES),
	       opened(open(in_base("out/other"), O_CREAT | O_WRONLY, 0644)));
}

static void a_symlink_put_at_a_name_before_the_lock_grants_nothing(void)
{
	int go[2], status;
	pid_t outsider;
	char c;

	/* Another process, outside the veil, puts it there. */
	MUST(pipe(go));
	outsider = fork();
	if (!outsider)
		_exit(read(go[0], &c, 1) != 1 ||
		      symlink(in_base("priv"), in_base("out/job")));
	veil(in_base("out/job"), "r");
	if (write(go[1], "s", 1) != 1 ||
	    waitpid(outsider, &status, 0) != outsider || status)
		fail("the outsider made no symlink");
	lock();
	expect("open out/job/secret", by_mode(ENOENT, EACCES),
	       opened(open(in_base("out/job/secret"), O_RDONLY)));
	expect("open priv/secret", by_mode(ENOENT, EACCES),
	       opened(open(in_base("priv/secret"), O_RDONLY)));
}

static void a_dangling_symlink_can_be_unveiled(void)
{
	MUST(symlink(in_base("out/nowhere"), in_base("out/dangling")));
	expect("unveil out/dangling", 0,
	       result(unveil(in_base("out/dangling"), "r")));
}

static void a_rule_descriptor_reused_by_the_program_fails_the_lock(void)
{
	veil(in_base("pub"), "r");
	MUST(syscall(SYS_close_range, 3, ~0U, 0));
	MUST(open("/", O_PATH | O_CLOEXEC));
	expect("unveil(NULL, NULL)", by_mode(0, EBADF),
	       result(unveil(NULL, NULL)));
}

static void a_name_made_after_the_lock_is_not_revealed_under_landlock(void)
{
	int to_parent[2], to_child[2], status;
	pid_t pid;
	char c;

	MUST(pipe(to_parent));
	MUST(pipe(to_child));
	pid = fork();
	if (!pid) {
		veil(in_base("out/later"), "r");
		lock();
		if (write(to_parent[1], "l", 1) != 1 ||
		    read(to_child[0], &c, 1) != 1)
			_exit(99);
		_exit(opened(open(in_base("out/later"), O_RDONLY)));
	}
	if (read(to_parent[0], &c, 1) != 1)
		fail("the child did not lock");
	MUST(opened(open(in_base("out/later"), O_CREAT | O_WRONLY, 0644)));
	if (write(to_child[1], "m", 1) != 1 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status))
		fail("child: no exit status");
	expect("open out/later, made after the lock", by_mode(0, EACCES),
	       WEXITSTATUS(status));
}

static void *sleeper(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

static void the_lock_fails_with_ebusy_beside_other_threads_under_landlock(void)
{
	pthread_t thread;

	if (pthread_create(&thread, NULL, sleeper, NULL))
		fail("pthread_create failed");
	veil(in_base("pub"), "r");
	expect("unveil(NULL, NULL) with two threads", by_mode(0, EBUSY),
	       result(unveil(NULL, NULL)));
}

static void an_io_uring_ring_fails_the_lock_with_ebusy_under_landlock(void)
{
	char params[120] = { 0 };	/* struct io_uring_params */
	int ring = syscall(SYS_io_uring_setup, 4, params);

	if (ring < 0)
		fail("io_uring_setup: %m");
	veil(in_base("pub"), "r");
	expect("unveil(NULL, NULL) with a ring", by_mode(0, EBUSY),
	       result(unveil(NULL, NULL)));
	close(ring);
	expect("unveil(NULL, NULL) once it is gone", 0,
	       result(unveil(NULL, NULL)));
}

static void a_ring_registered_and_closed_fails_the_lock_under_landlock(void)
{
	struct io_uring_rsrc_update slot = { .offset = -1U };
	char params[120] = { 0 };	/* struct io_uring_params */
	int ring = syscall(SYS_io_uring_setup, 4, params);

	if (ring < 0)
		fail("io_uring_setup: %m");
	slot.data = ring;
	if (syscall(SYS_io_uring_register, ring, IORING_REGISTER_RING_FDS,
		    &slot, 1) != 1)
		fail("IORING_REGISTER_RING_FDS: %m");
	close(ring);
	veil(in_base("pub"), "r");
	expect("unveil(NULL, NULL) with a ring in a slot", by_mode(0, EBUSY),
	       result(unveil(NULL, NULL)));
}

/* A message waiting may carry a ring or another process's memory. */
static void a_descriptor_in_flight_in_a_socket_fails_the_lock_under_landlock(void)
{
	char cmsg[CMSG_SPACE(sizeof(int))], byte = 'r';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cmsg, .msg_controllen = sizeof(cmsg),
	};
	int pair[2], fd = open("/dev/null", O_RDONLY);

	MUST(fd);
	MUST(socketpair(AF_UNIX, SOCK_DGRAM, 0, pair));
	CMSG_FIRSTHDR(&msg)->cmsg_level = SOL_SOCKET;
	CMSG_FIRSTHDR(&msg)->cmsg_type = SCM_RIGHTS;
	CMSG_FIRSTHDR(&msg)->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(CMSG_FIRSTHDR(&msg)), &fd, sizeof(int));
	MUST(sendmsg(pair[0], &msg, 0));
	close(fd);
	veil(in_base("pub"), "r");
	expect("unveil(NULL, NULL) with a message waiting", by_mode(0, EBUSY),
	       result(unveil(NULL, NULL)));
}

static void a_veil_is_refused_with_ebusy_while_tracing_another_process(void)
{
	pid_t pid = fork();
	int err;

	if (!pid) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(1);
		raise(SIGSTOP);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, NULL, WUNTRACED) != pid)
		fail("no traced child");
	/* The system call refuses to make the veil, Landlock to lock it. */
	err = result(unveil(in_base("pub"), "r"));
	if (!err)
		err = result(unveil(NULL, NULL));
	expect("a veil while tracing", EBUSY, err);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	veil(in_base("pub"), "r");
	expect("unveil(NULL, NULL) once it is gone", 0,
	       result(unveil(NULL, NULL)));
}

static void the_17th_veil_fails_with_e2big_under_landlock(void)
{
	struct {
		uint64_t handled_access_fs;
	} attr = { .handled_access_fs = 1ULL << 11 };	/* MAKE_BLOCK */
	int i, ruleset;

	/* 16 Landlock domains that restrict nothing anyone here does. */
	MUST(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	for (i = 0; i < 16; i++) {
		ruleset = syscall(SYS_landlock_create_ruleset, &attr,
				  sizeof(attr), 0);
		MUST(ruleset);
		MUST(syscall(SYS_landlock_restrict_self, ruleset, 0));
		close(ruleset);
	}
	veil(in_base("pub"), "r");
	expect("unveil(NULL, NULL) over 16 domains", by_mode(0, E2BIG),
	       result(unveil(NULL, NULL)));
}

static void each_rule_holds_a_descriptor_under_landlock(void)
{
	struct rlimit few = { .rlim_cur = 8, .rlim_max = 8 };
	char name[16];
	int i, err = 0;

	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "out/d%d", i);
		MUST(mkdir(in_base(name), 0755));
	}
	MUST(setrlimit(RLIMIT_NOFILE, &few));
	for (i = 0; i < 8 && !err; i++) {
		snprintf(name, sizeof(name), "out/d%d", i);
		err = result(unveil(in_base(name), "r"));
	}
	expect("unveil of 8 directories with 8 descriptors",
	       by_mode(0, EMFILE), err);
}

static void without_proc_the_lock_fails_under_landlock(void)
{
	MUST(unshare(CLONE_NEWNS));
	MUST(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	MUST(umount2("/proc", MNT_DETACH));
	veil(in_base("pub"), "r");
	expect("unveil(NULL, NULL) without /proc", by_mode(0, ENOENT),
	       result(unveil(NULL, NULL)));
}

static void device_nodes_fail_with_eperm_or_eacces(void)
{
	veil(in_base("out"), "rwc");
	lock();
	expect("mknod out/null", by_mode(EPERM, EACCES),
	       result(mknod(in_base("out/null"), S_IFCHR | 0600,
			    makedev(1, 3))));
}

/*
 * Runs the copy that veil_for_exec() shows, which opens pub/f: 0 when both
 * worked, the errno of execve() or of the open otherwise.
 */
static int run_copy(void)
{
	int status;
	pid_t pid;

	pid = fork();
	if (!pid) {
		execl(in_base("bin/test-libunveil"), "test-libunveil", "probe",
		      in_base("pub/f"), (char *)NULL);
		_exit(errno);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		fail("run: no exit status");
	return WEXITSTATUS(status);
}

static void a_program_shown_x_alone_runs_only_with_the_kernel(void)
{
	veil_for_exec("x");
	veil(in_base("pub"), "r");
	lock();
	/* Landlock needs READ_FILE too: execve() opens the file to read. */
	expect("run a program shown \"x\"", by_mode(0, EACCES), run_copy());
}

static void rules_not_locked_are_lost_at_exec_under_landlock(void)
{
	veil_for_exec("rx");
	veil(in_base("pub"), "r");
	expect("open priv/secret after exec", by_mode(ENOENT, 0),
	       probe_after_exec(in_base("priv/secret"), NULL));
}

static void after_exec_a_new_veil_only_narrows_under_landlock(void)
{
	veil_for_exec("rx");
	veil(in_base("pub"), "r");
	/* Where it cannot read /proc/self, the lock cannot tell (EACCES). */
	veil("/proc", "r");
	lock();
	/* The system call refuses (-1: EPERM); Landlock adds a layer. */
	expect("unveil priv after exec, then open priv/secret",
	       by_mode(-1, EACCES),
	       probe_after_exec(in_base("priv/secret"), in_base("priv")));
}

/* Makes both system calls that find a mode fail with ENOSYS. */
static void hide_unveil_and_landlock(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 444, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 461, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(*filter),
		.filter = filter,
	};

	MUST(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	MUST(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog));
}

static void without_either_unveil_fails_closed_with_enosys(void)
{
	hide_unveil_and_landlock();
	expect("unveil_mode() is none", UNVEIL_MODE_NONE, unveil_mode());
	expect("unveil", ENOSYS, result(unveil(in_base("pub"), "r")));
	errno = 0;
	expect("unveil_supported()", 0, unveil_supported());
	expect("its errno", ENOSYS, errno);
}

/* Runs unveil() unprotected, its stderr in @err (size @size). */
static void run_unprotected(char *err, size_t size)
{
	int fds[2];
	ssize_t n;

	MUST(pipe(fds));
	MUST(dup2(fds[1], 2));
	close(fds[1]);
	expect("unveil_mode() is unprotected", UNVEIL_MODE_UNPROTECTED,
	       unveil_mode());
	veil(in_base("pub"), "r");
	veil(in_base("out"), "rwc");
	lock();
	expect("unveil after the lock", EPERM,
	       result(unveil(in_base("pub"), "r")));
	expect("open priv/secret", 0,
	       opened(open(in_base("priv/secret"), O_RDONLY)));
	close(2);
	n = read(fds[0], err, size - 1);
	err[n < 0 ? 0 : n] = '\0';
}

static void unveil_unprotected_1_runs_unprotected_and_warns_once(void)
{
	char err[512];

	hide_unveil_and_landlock();
	MUST(setenv("UNVEIL_UNPROTECTED", "1", 1));
	run_unprotected(err, sizeof(err));
	if (strcmp(err, "unveil: this kernel has neither unveil nor Landlock: running unprotected, as asked\n"))
		fail("stderr was \"%s\"", err);
}

static void unveil_permit_unprotected_runs_unprotected(void)
{
	char err[512];

	hide_unveil_and_landlock();
	unveil_permit_unprotected();
	run_unprotected(err, sizeof(err));
	if (!strstr(err, "running unprotected"))
		fail("stderr was \"%s\"", err);
}

static const struct {
	const char *name;
	void (*test)(void);
	bool needs_root;
} cases[] = {
#define CASE(f) { #f, f, false }
#define ROOT_CASE(f) { #f, f, true }
	CASE(mode_is_the_expected_one),
	CASE(reading_an_unveiled_directory),
	CASE(writing_needs_w),
	CASE(creating_needs_c_and_a_refused_create_leaves_nothing),
	CASE(c_creates_and_removes),
	CASE(a_call_again_replaces_the_letters),
	CASE(the_lock_refuses_later_calls),
	CASE(bad_arguments_fail_as_the_system_call_does),
	CASE(a_rule_on_a_file_reveals_that_file),
	CASE(a_forked_child_keeps_the_veil),
	CASE(hidden_files_give_enoent_or_eacces),
	CASE(nothing_is_hidden_before_the_lock_under_landlock),
	CASE(a_narrower_rule_inside_takes_no_letter_away_under_landlock),
	CASE(an_empty_rule_inside_hides_nothing_under_landlock),
	CASE(stat_is_not_judged_under_landlock),
	CASE(connect_o_path_and_o_creat_are_not_judged_under_landlock),
	CASE(changing_attributes_is_not_judged_under_landlock),
	CASE(c_on_a_file_fails_with_eopnotsupp_under_landlock),
	CASE(a_symlink_put_at_a_name_before_the_lock_grants_nothing),
	CASE(a_dangling_symlink_can_be_unveiled),
	CASE(a_rule_descriptor_reused_by_the_program_fails_the_lock),
	CASE(a_name_made_after_the_lock_is_not_revealed_under_landlock),
	CASE(the_lock_fails_with_ebusy_beside_other_threads_under_landlock),
	CASE(an_io_uring_ring_fails_the_lock_with_ebusy_under_landlock),
	CASE(a_ring_registered_and_closed_fails_the_lock_under_landlock),
	CASE(a_descriptor_in_flight_in_a_socket_fails_the_lock_under_landlock),
	CASE(a_veil_is_refused_with_ebusy_while_tracing_another_process),
	CASE(the_17th_veil_fails_with_e2big_under_landlock),
	CASE(each_rule_holds_a_descriptor_under_landlock),
	ROOT_CASE(without_proc_the_lock_fails_under_landlock),
	ROOT_CASE(device_nodes_fail_with_eperm_or_eacces),
	CASE(a_program_shown_x_alone_runs_only_with_the_kernel),
	CASE(rules_not_locked_are_lost_at_exec_under_landlock),
	CASE(after_exec_a_new_veil_only_narrows_under_landlock),
}, none_cases[] = {
	CASE(without_either_unveil_fails_closed_with_enosys),
	CASE(unveil_unprotected_1_runs_unprotected_and_warns_once),
	CASE(unveil_permit_unprotected_runs_unprotected),
#undef CASE
#undef ROOT_CASE
};

int main(int argc, char *argv[])
{
	size_t i;

	if (argc >= 3 && !strcmp(argv[1], "probe"))
		return probe(argv[2], argv[3]);
	if (argc != 2)
		goto usage;
	if (!strcmp(argv[1], "kernel"))
		expected = UNVEIL_MODE_KERNEL;
	else if (!strcmp(argv[1], "landlock"))
		expected = UNVEIL_MODE_LANDLOCK;
	else if (!strcmp(argv[1], "none"))
		expected = UNVEIL_MODE_NONE;
	else
		goto usage;
	if (!realpath("/proc/self/exe", self))
		return 2;
	snprintf(base, sizeof(base), "/tmp/test-libunveil.%d", getpid());
	if (expected == UNVEIL_MODE_NONE) {
		for (i = 0; i < sizeof(none_cases) / sizeof(*none_cases); i++)
			run(none_cases[i].name, none_cases[i].test);
	} else {
		for (i = 0; i < sizeof(cases) / sizeof(*cases); i++)
			if (!cases[i].needs_root || !geteuid())
				run(cases[i].name, cases[i].test);
			else
				printf("ok %d %s # SKIP needs root\n", ++tests,
				       cases[i].name);
	}
	snprintf(self, sizeof(self), "rm -rf '%s'", base);
	if (system(self))
		return 2;
	printf("1..%d\n", tests);
	return failures != 0;
usage:
	fputs("usage: test-libunveil kernel|landlock|none\n", stderr);
	return 2;
}
