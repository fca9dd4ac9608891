// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - the system call: arguments, errors and their order,
 * the lock, no_new_privs, threads, fork and execve.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "common.h"

#define TMP_DIR "/tmp/unveil_syscall_test"

/* The tests that need files make them in TMP_DIR. */
FIXTURE(tmp_dir) {
};

FIXTURE_SETUP(tmp_dir)
{
	ASSERT_EQ(0, mkdir(TMP_DIR, 0700) && errno != EEXIST ? errno : 0);
}

/* In the parent, which has no veil. */
FIXTURE_TEARDOWN_PARENT(tmp_dir)
{
	EXPECT_EQ(0, remove_tree(TMP_DIR));
}

static int exec_try_unveil(const char *path, const char *permissions)
{
	return exec_probe("unveil", path, permissions);
}

TEST(lock_succeeds_without_veil)
{
	EXPECT_EQ(0, unveil_errno(NULL, NULL));
}

TEST(lock_twice_succeeds)
{
	ASSERT_EQ(0, unveil_errno(NULL, NULL));
	EXPECT_EQ(0, unveil_errno(NULL, NULL));
}

TEST(lock_forbids_later_unveil)
{
	ASSERT_EQ(0, unveil_errno("/", "r"));
	ASSERT_EQ(0, unveil_errno(NULL, NULL));
	EXPECT_EQ(EPERM, unveil_errno("/", "r"));
	EXPECT_EQ(EPERM, unveil_errno("/", ""));
}

TEST(lock_alone_drops_no_veil)
{
	struct stat st;

	ASSERT_EQ(0, unveil_errno(NULL, NULL));
	EXPECT_EQ(0, stat("/", &st));
	EXPECT_EQ(0, prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
}

TEST(lock_comes_before_every_other_error)
{
	ASSERT_EQ(0, unveil_errno(NULL, NULL));
	EXPECT_EQ(EPERM, unveil_errno(NULL, "r"));
	EXPECT_EQ(EPERM, unveil_errno("/", NULL));
	EXPECT_EQ(EPERM, unveil_errno("/", "rwxcr"));
	EXPECT_EQ(EPERM, unveil_errno("", "r"));
	EXPECT_EQ(EPERM, unveil_errno("/nonexistent/x", "r"));
	EXPECT_EQ(EPERM, unveil_errno("/", "q"));
}

TEST(null_path_is_efault)
{
	EXPECT_EQ(EFAULT, unveil_errno(NULL, "r"));
}

TEST(null_permissions_is_efault)
{
	EXPECT_EQ(EFAULT, unveil_errno("/", NULL));
}

TEST(unmapped_pointers_are_efault)
{
	EXPECT_EQ(EFAULT, unveil_errno((const char *)1, "r"));
	EXPECT_EQ(EFAULT, unveil_errno("/", (const char *)1));
}

TEST(five_letters_are_enametoolong)
{
	EXPECT_EQ(ENAMETOOLONG, unveil_errno("/", "rwxcr"));
	EXPECT_EQ(ENAMETOOLONG, unveil_errno("/", "rrrrr"));
}

TEST(four_letters_are_accepted)
{
	EXPECT_EQ(0, unveil_errno("/", "rwxc"));
}

TEST(empty_permissions_are_accepted)
{
	EXPECT_EQ(0, unveil_errno("/", ""));
}

TEST(other_letter_is_einval)
{
	EXPECT_EQ(EINVAL, unveil_errno("/", "q"));
	EXPECT_EQ(EINVAL, unveil_errno("/", "R"));
	EXPECT_EQ(EINVAL, unveil_errno("/", "r "));
}

TEST(empty_path_is_einval)
{
	EXPECT_EQ(EINVAL, unveil_errno("", "r"));
}

TEST(path_longer_than_path_max_is_enametoolong)
{
	char path[PATH_MAX + 1];

	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	EXPECT_EQ(ENAMETOOLONG, unveil_errno(path, "r"));
}

TEST(component_longer_than_name_max_is_enametoolong)
{
	char path[NAME_MAX + 7] = "/tmp/";

	memset(path + 5, 'a', NAME_MAX + 1);
	path[sizeof(path) - 1] = '\0';
	EXPECT_EQ(ENAMETOOLONG, unveil_errno(path, "r"));
}

TEST(missing_intermediate_directory_is_enoent)
{
	EXPECT_EQ(ENOENT, unveil_errno("/nonexistent/dir/x", "r"));
}

TEST_F(tmp_dir, missing_final_component_is_accepted)
{
	EXPECT_EQ(0, unveil_errno(TMP_DIR "/does-not-exist", "r"));
}

TEST_F(tmp_dir, missing_relative_name_is_accepted)
{
	ASSERT_EQ(0, chdir(TMP_DIR));
	EXPECT_EQ(0, unveil_errno("does-not-exist", "rw"));
}

TEST_F(tmp_dir, missing_name_with_trailing_slash_is_enoent)
{
	EXPECT_EQ(ENOENT, unveil_errno(TMP_DIR "/does-not-exist/", "r"));
}

TEST_F(tmp_dir, file_as_directory_is_enotdir)
{
	ASSERT_EQ(0, open_errno(TMP_DIR "/file", O_CREAT | O_WRONLY));
	EXPECT_EQ(ENOTDIR, unveil_errno(TMP_DIR "/file/x", "r"));
}

TEST_F(tmp_dir, symlink_loop_is_eloop)
{
	ASSERT_EQ(0, symlink("loop", TMP_DIR "/loop"));
	EXPECT_EQ(ELOOP, unveil_errno(TMP_DIR "/loop/x", "r"));
}

TEST(copy_errors_come_before_empty_path)
{
	EXPECT_EQ(ENAMETOOLONG, unveil_errno("", "rwxcr"));
	EXPECT_EQ(EFAULT, unveil_errno("", NULL));
}

TEST(lookup_errors_come_before_letters)
{
	EXPECT_EQ(EINVAL, unveil_errno("", "q"));
	EXPECT_EQ(ENOENT, unveil_errno("/nonexistent/dir/x", "q"));
}

TEST(failed_unveil_does_not_set_no_new_privs)
{
	ASSERT_EQ(ENOENT, unveil_errno("/nonexistent/dir/x", "r"));
	ASSERT_EQ(EINVAL, unveil_errno("/", "q"));
	EXPECT_EQ(0, prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
}

static void *get_no_new_privs(void *arg)
{
	return (void *)(long)prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
}

TEST(first_unveil_sets_no_new_privs)
{
	pthread_t thread;
	void *result;

	ASSERT_EQ(0, prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	ASSERT_EQ(0, unveil_errno("/", "r"));
	EXPECT_EQ(1, prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	ASSERT_EQ(0, pthread_create(&thread, NULL, get_no_new_privs, NULL));
	ASSERT_EQ(0, pthread_join(thread, &result));
	EXPECT_EQ(1, (long)result);
}

static pid_t blocked_tid;

static void *block_until_cancelled(void *arg)
{
	__atomic_store_n(&blocked_tid, syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	for (;;)
		pause();
	return NULL;
}

TEST(first_unveil_sets_no_new_privs_in_existing_threads)
{
	char status[64], line[256];
	pthread_t thread;
	bool found = false;
	FILE *file;

	ASSERT_EQ(0, pthread_create(&thread, NULL, block_until_cancelled, NULL));
	while (!__atomic_load_n(&blocked_tid, __ATOMIC_SEQ_CST))
		usleep(1000);
	ASSERT_EQ(0, unveil_errno("/", "r"));
	snprintf(status, sizeof(status), "/proc/self/task/%d/status",
		 blocked_tid);
	file = fopen(status, "r");
	ASSERT_NE(NULL, file);
	while (fgets(line, sizeof(line), file))
		if (!strcmp(line, "NoNewPrivs:\t1\n"))
			found = true;
	fclose(file);
	pthread_cancel(thread);
	pthread_join(thread, NULL);
	EXPECT_TRUE(found);
}

static void *lock_veil(void *arg)
{
	return (void *)(long)unveil_errno(NULL, NULL);
}

TEST(lock_in_one_thread_binds_all_threads)
{
	pthread_t thread;
	void *result;

	ASSERT_EQ(0, pthread_create(&thread, NULL, lock_veil, NULL));
	ASSERT_EQ(0, pthread_join(thread, &result));
	ASSERT_EQ(0, (long)result);
	EXPECT_EQ(EPERM, unveil_errno("/", "r"));
}

TEST(lock_is_inherited_by_fork)
{
	int status;
	pid_t child;

	ASSERT_EQ(0, unveil_errno(NULL, NULL));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0)
		_exit(unveil_errno("/", "r"));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(EPERM, WEXITSTATUS(status));
}

TEST(lock_after_fork_does_not_bind_child)
{
	int pipefd[2], status;
	pid_t child;
	char c;

	ASSERT_EQ(0, pipe(pipefd));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		close(pipefd[1]);
		if (read(pipefd[0], &c, 1) != 1)
			_exit(255);
		_exit(unveil_errno("/", "r"));
	}
	close(pipefd[0]);
	ASSERT_EQ(0, unveil_errno(NULL, NULL));
	ASSERT_EQ(1, write(pipefd[1], "x", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST(lock_is_kept_across_execve)
{
	ASSERT_EQ(0, exec_try_unveil("/", "r"));
	ASSERT_EQ(0, unveil_errno(NULL, NULL));
	EXPECT_EQ(EPERM, exec_try_unveil("/", "r"));
}

static void *exec_try_unveil_root(void *arg)
{
	char helper[PATH_MAX];

	helper_path(helper, sizeof(helper), "probe");
	execl(helper, helper, "unveil", "/", "r", (char *)NULL);
	_exit(254);
}

/* execve() in a thread that is not the leader makes it the leader. */
TEST(lock_is_kept_across_execve_from_a_thread)
{
	pthread_t thread;
	int status;
	pid_t child;

	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (unveil_errno(NULL, NULL))
			_exit(253);
		pthread_create(&thread, NULL, exec_try_unveil_root, NULL);
		for (;;)
			pause();
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(EPERM, WEXITSTATUS(status));
}

#define RULE_LIMIT 1024

static void make_dirs(struct __test_metadata *const _metadata,
		      const char *base, int count)
{
	char path[PATH_MAX];
	int i;

	ASSERT_EQ(0, mkdir(base, 0700));
	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/%d", base, i);
		ASSERT_EQ(0, mkdir(path, 0700));
	}
}

TEST_F(tmp_dir, directory_rules_past_the_limit_are_e2big)
{
	char path[PATH_MAX];
	int i;

	make_dirs(_metadata, TMP_DIR "/dirs", RULE_LIMIT + 1);
	for (i = 0; i < RULE_LIMIT; i++) {
		snprintf(path, sizeof(path), TMP_DIR "/dirs/%d", i);
		ASSERT_EQ(0, unveil_errno(path, "r"));
	}
	snprintf(path, sizeof(path), TMP_DIR "/dirs/%d", RULE_LIMIT);
	EXPECT_EQ(E2BIG, unveil_errno(path, "r"));
	/* Changing an existing rule adds none. */
	EXPECT_EQ(0, unveil_errno(TMP_DIR "/dirs/0", "rw"));
	/* Name rules have their own limit. */
	EXPECT_EQ(0, unveil_errno(TMP_DIR "/dirs/0/name", "r"));
}

/* Unveils RULE_LIMIT names in TMP_DIR, "name-0" to "name-1023". */
static void fill_name_rules(struct __test_metadata *const _metadata)
{
	char path[PATH_MAX];
	int i;

	for (i = 0; i < RULE_LIMIT; i++) {
		snprintf(path, sizeof(path), TMP_DIR "/name-%d", i);
		ASSERT_EQ(0, unveil_errno(path, "r"));
	}
}

TEST_F(tmp_dir, name_rules_past_the_limit_are_e2big)
{
	fill_name_rules(_metadata);
	EXPECT_EQ(E2BIG, unveil_errno(TMP_DIR "/one-more", "r"));
	EXPECT_EQ(0, unveil_errno(TMP_DIR "/name-0", "rw"));
	EXPECT_EQ(0, unveil_errno(TMP_DIR, "r"));
}

TEST_F(tmp_dir, limit_check_comes_after_letters)
{
	fill_name_rules(_metadata);
	EXPECT_EQ(EINVAL, unveil_errno(TMP_DIR "/one-more", "q"));
	EXPECT_EQ(E2BIG, unveil_errno(TMP_DIR "/one-more", "r"));
}

/*
 * Built in but left out of lsm= at boot: EOPNOTSUPP.  The test command boots
 * the kernel once more with "lsm=landlock" to see both sides.
 */
TEST(eopnotsupp_when_not_enabled_at_boot)
{
	char list[256] = "";
	bool enabled;
	ssize_t len;
	int fd;

	fd = open("/sys/kernel/security/lsm", O_RDONLY);
	ASSERT_LE(0, fd);
	len = read(fd, list, sizeof(list) - 1);
	close(fd);
	ASSERT_LT(0, len);
	list[len] = '\0';
	enabled = strstr(list, "unveil");
	TH_LOG("enabled LSMs: %s", list);
	EXPECT_EQ(enabled ? 0 : EOPNOTSUPP, unveil_errno("/", "r"));
	EXPECT_EQ(enabled ? 0 : EOPNOTSUPP, unveil_errno(NULL, NULL));
}

TEST_HARNESS_MAIN
