// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - unveil stacked with the other security modules: its
 * own answers and files beside theirs, and the lsm= order deciding which
 * module answers a call that two of them refuse.
 *
 * Cases for a module that the boot did not enable are skipped; the stack
 * test (scripts/stack-test, which runs this program) boots a kernel with every module twice, with
 * AppArmor and then SELinux as the major module.  With AppArmor, it loads
 * the profile "unveil_stack" (all files, except those named aa-denied)
 * before this program runs.
 */

#define _GNU_SOURCE
#include <linux/landlock.h>
#include <linux/lsm.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "audit.h"
#include "common.h"

#define TMP_DIR "/tmp/unveil_lsm_stack"
#define AA_PROFILE "unveil_stack"

#ifndef LSM_ID_UNVEIL
#define LSM_ID_UNVEIL 114
#endif

/* The modules this boot runs, in order ("capability,landlock,..."). */
static void active_lsms(char *list, size_t size)
{
	int fd = open("/sys/kernel/security/lsm", O_RDONLY);
	ssize_t len = fd < 0 ? -1 : read(fd, list, size - 1);

	list[len > 0 ? len : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

/* Position of @lsm in the boot's order, or -1 when it does not run. */
static int lsm_position(const char *lsm)
{
	char list[512], *name, *save;
	int pos = 0;

	active_lsms(list, sizeof(list));
	for (name = strtok_r(list, ",\n", &save); name;
	     name = strtok_r(NULL, ",\n", &save), pos++) {
		if (!strcmp(name, lsm))
			return pos;
	}
	return -1;
}

/* Reads @path into @buf; returns 0 or the errno. */
static int read_text(const char *path, char *buf, size_t size)
{
	return read_attr_fd(open(path, O_RDONLY | O_CLOEXEC), buf, size);
}

/*
 * Starts a process that runs @fn and exits with its result; waits for it
 * to exit but leaves it a zombie, so that its attr files can still be read.
 * Returns its pid and its exit status in @status.
 */
static pid_t run_in_zombie(int (*fn)(void), int *status)
{
	siginfo_t info = {};
	pid_t child = fork();

	if (child == 0)
		_exit(fn());
	if (child < 0 || waitid(P_PID, child, &info, WEXITED | WNOWAIT))
		return -1;
	*status = info.si_code == CLD_EXITED ? info.si_status : -1;
	return child;
}

/* The number on the first line of @child's refusals, or -1. */
static int refusal_count(pid_t child)
{
	char text[4096];
	int count;

	if (read_attr_fd(open_attr(child, "refusals"), text, sizeof(text)) ||
	    sscanf(text, "refusals %d", &count) != 1)
		return -1;
	return count;
}

/* Lets the calling process read files beneath @dirs only, with Landlock. */
static int landlock_read_beneath(const char *const dirs[])
{
	struct landlock_ruleset_attr ruleset = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_READ_FILE,
	};
	struct landlock_path_beneath_attr beneath = {
		.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE,
	};
	int fd, err = 0;

	fd = syscall(__NR_landlock_create_ruleset, &ruleset, sizeof(ruleset),
		     0);
	if (fd < 0)
		return errno;
	for (; *dirs && !err; dirs++) {
		beneath.parent_fd = open(*dirs, O_PATH | O_CLOEXEC);
		err = errno_of(syscall(__NR_landlock_add_rule, fd,
				       LANDLOCK_RULE_PATH_BENEATH, &beneath, 0));
		close(beneath.parent_fd);
	}
	if (!err && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		err = errno;
	if (!err)
		err = errno_of(syscall(__NR_landlock_restrict_self, fd, 0));
	close(fd);
	return err;
}

/*
 * Landlock lets "both" and "landlock_only" be read, unveil shows "both" and
 * "unveil_only"; "neither" is refused by both.
 */
static int veil_and_landlock(void)
{
	static const char *const landlock_dirs[] = {
		TMP_DIR "/both", TMP_DIR "/landlock_only", NULL
	};

	/* Landlock first: its rules open their directories. */
	if (landlock_read_beneath(landlock_dirs))
		return 100;
	if (sys_unveil(TMP_DIR "/both", "r") ||
	    sys_unveil(TMP_DIR "/unveil_only", "r") ||
	    sys_unveil(NULL, NULL))
		return 101;
	return 0;
}

static int open_neither_under_both(void)
{
	return veil_and_landlock() ?: open_errno(TMP_DIR "/neither/file",
						 O_RDONLY);
}

FIXTURE(stack) {
	char record[8192];
};

FIXTURE_SETUP(stack)
{
	static const char *const dirs[] = {
		"both", "landlock_only", "unveil_only", "neither", "shown"
	};
	char file[PATH_MAX];
	size_t i;

	ASSERT_EQ(0, system("rm -rf " TMP_DIR));
	ASSERT_EQ(0, mkdir(TMP_DIR, 0755));
	ASSERT_EQ(0, mount("none", TMP_DIR, "tmpfs", 0, NULL));
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		ASSERT_EQ(0, mkdir(at(TMP_DIR, dirs[i]), 0755));
		snprintf(file, sizeof(file), "%s/%s/file", TMP_DIR, dirs[i]);
		write_file(file, "x");
	}
	write_file(TMP_DIR "/shown/aa-denied", "x");
}

FIXTURE_TEARDOWN_PARENT(stack)
{
	umount2(TMP_DIR, MNT_DETACH);
	rmdir(TMP_DIR);
}

TEST_F(stack, lsm_list_modules_names_unveil_once)
{
	char list[512], *name, *save;
	__u64 ids[32];
	__u32 size = sizeof(ids);
	int count, i, names = 0, unveils = 0;

	count = syscall(__NR_lsm_list_modules, ids, &size, 0);
	ASSERT_LT(0, count);
	active_lsms(list, sizeof(list));
	TH_LOG("modules: %s", list);
	for (name = strtok_r(list, ",\n", &save); name;
	     name = strtok_r(NULL, ",\n", &save))
		names++;
	EXPECT_EQ(names, count);
	for (i = 0; i < count; i++)
		unveils += ids[i] == LSM_ID_UNVEIL;
	EXPECT_EQ(1, unveils);
}

static int open_files_under_both(void)
{
	int err = veil_and_landlock();

	if (err)
		return err;
	/* Bit n set: the n-th open did not give the answer below. */
	return (open_errno(TMP_DIR "/both/file", O_RDONLY) != 0) |
	       (open_errno(TMP_DIR "/landlock_only/file", O_RDONLY) != ENOENT) << 1 |
	       (open_errno(TMP_DIR "/unveil_only/file", O_RDONLY) != EACCES) << 2;
}

TEST_F(stack, landlock_and_unveil_both_enforce_in_one_process)
{
	int status;
	pid_t child;

	if (lsm_position("landlock") < 0)
		SKIP(return, "Landlock is not enabled");
	child = run_in_zombie(open_files_under_both, &status);
	ASSERT_LT(0, child);
	EXPECT_EQ(0, status);
	/* The one refusal of unveil's own: landlock_only/file. */
	EXPECT_EQ(1, refusal_count(child));
	waitpid(child, NULL, 0);
}

TEST_F(stack, refused_by_both_gives_the_first_modules_errno)
{
	int landlock = lsm_position("landlock"), unveil = lsm_position("unveil");
	int status;
	pid_t child;

	if (landlock < 0)
		SKIP(return, "Landlock is not enabled");
	TH_LOG("%s comes first", landlock < unveil ? "Landlock" : "unveil");
	child = run_in_zombie(open_neither_under_both, &status);
	ASSERT_LT(0, child);
	/*
	 * The hook stops at the first refusal: a module after it is not
	 * asked, and unveil counts no refusal then.
	 */
	EXPECT_EQ(landlock < unveil ? EACCES : ENOENT, status);
	EXPECT_EQ(landlock < unveil ? 0 : 1, refusal_count(child));
	waitpid(child, NULL, 0);
}

/* Under the profile unveil_stack and a veil that shows TMP_DIR/shown. */
static int enter_profile_and_veil(void)
{
	int fd = open("/proc/self/attr/apparmor/current", O_WRONLY);
	const char *change = "changeprofile " AA_PROFILE;

	if (fd < 0 || write(fd, change, strlen(change)) < 0)
		return 100;
	close(fd);
	if (sys_unveil(TMP_DIR "/shown", "rwc") || sys_unveil(NULL, NULL))
		return 101;
	return 0;
}

static int open_files_under_profile_and_veil(void)
{
	int err = enter_profile_and_veil();

	if (err)
		return err;
	return (open_errno(TMP_DIR "/shown/file", O_RDWR) != 0) |
	       (open_errno(TMP_DIR "/shown/aa-denied", O_RDONLY) != EACCES) << 1 |
	       (open_errno(TMP_DIR "/both/file", O_RDONLY) != ENOENT) << 2;
}

static void require_profile(struct __test_metadata *_metadata)
{
	char profiles[4096];

	ASSERT_EQ(0, read_text("/sys/kernel/security/apparmor/profiles",
			       profiles, sizeof(profiles)));
	ASSERT_NE(NULL, strstr(profiles, AA_PROFILE " (enforce)")) {
		TH_LOG("the stack test loads the profile %s", AA_PROFILE);
	}
}

TEST_F(stack, apparmor_profile_still_enforces_under_a_veil)
{
	int status;
	pid_t child;

	if (lsm_position("apparmor") < 0)
		SKIP(return, "AppArmor is not enabled");
	require_profile(_metadata);
	child = run_in_zombie(open_files_under_profile_and_veil, &status);
	ASSERT_LT(0, child);
	EXPECT_EQ(0, status);
	/* AppArmor refused aa-denied; unveil refused both/file. */
	EXPECT_EQ(1, refusal_count(child));
	waitpid(child, NULL, 0);
}

static int open_denied_by_apparmor_then_by_unveil(void)
{
	return enter_profile_and_veil() ?:
	       (open_errno(TMP_DIR "/shown/aa-denied", O_RDONLY) != EACCES) |
	       (open_errno(TMP_DIR "/both/file", O_RDONLY) != ENOENT) << 1;
}

TEST_F(stack, audit_has_apparmor_and_unveil_records_side_by_side)
{
	int fd, err, status;
	pid_t child;

	if (lsm_position("apparmor") < 0)
		SKIP(return, "AppArmor is not enabled");
	require_profile(_metadata);
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
	ASSERT_LE(0, fd);
	err = audit_set(fd, AUDIT_STATUS_PID, 0, getpid());
	if (err == EEXIST || err == EPERM)
		SKIP(close(fd); return, "cannot be the audit daemon: %s",
		     strerror(err));
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, audit_set(fd, AUDIT_STATUS_ENABLED, 1, 0));

	child = run_in_zombie(open_denied_by_apparmor_then_by_unveil, &status);
	EXPECT_EQ(0, status);
	EXPECT_TRUE(audit_find(fd, "apparmor=\"DENIED\"", self->record,
			       sizeof(self->record)));
	EXPECT_NE(NULL, strstr(self->record, "/shown/aa-denied\""));
	EXPECT_TRUE(audit_find(fd, "lsm=unveil", self->record,
			       sizeof(self->record)));
	EXPECT_NE(NULL, strstr(self->record, "/unveil_lsm_stack/both/file\""));
	audit_set(fd, AUDIT_STATUS_ENABLED | AUDIT_STATUS_PID, 0, 0);
	close(fd);
	if (child > 0)
		waitpid(child, NULL, 0);
}

/* The major module (AppArmor or SELinux) whose files sit beside unveil's. */
FIXTURE(major) {
	char before[2][4096], after[2][4096];
	int after_err[2];
};

FIXTURE_VARIANT(major) {
	const char *lsm;
	__u64 id;
	/* A file of its own (SELinux has no directory in attr/). */
	const char *attr;
};

FIXTURE_VARIANT_ADD(major, apparmor) {
	.lsm = "apparmor",
	.id = LSM_ID_APPARMOR,
	.attr = "/proc/self/attr/apparmor/current",
};

FIXTURE_VARIANT_ADD(major, selinux) {
	.lsm = "selinux",
	.id = LSM_ID_SELINUX,
	.attr = "/proc/self/attr/prev",
};

FIXTURE_SETUP(major)
{
	if (lsm_position(variant->lsm) < 0)
		SKIP(return, "%s is not enabled", variant->lsm);
}

FIXTURE_TEARDOWN(major)
{
}

/* Module IDs in what lsm_get_self_attr(LSM_ATTR_CURRENT) returns. */
static int current_attr_ids(__u64 *ids, int max)
{
	__u64 buf[512];	/* struct lsm_ctx entries, 8-byte aligned */
	__u32 size = sizeof(buf);
	int count, i, offset = 0;

	count = syscall(__NR_lsm_get_self_attr, LSM_ATTR_CURRENT, buf, &size,
			0);
	for (i = 0; i < count && i < max; i++) {
		const struct lsm_ctx *ctx = (const void *)((char *)buf + offset);

		ids[i] = ctx->id;
		offset += ctx->len;
	}
	return count;
}

TEST_F(major, attr_files_read_the_same_under_a_veil)
{
	const char *paths[2] = { variant->attr, "/proc/self/attr/current" };
	char rules[4096];
	int i, pipefd[2], status;
	pid_t child;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, read_text(paths[i], self->before[i],
				       sizeof(self->before[i])));
		TH_LOG("%s: %s", paths[i], self->before[i]);
	}
	ASSERT_EQ(0, pipe(pipefd));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		close(pipefd[0]);
		if (sys_unveil("/proc", "r") || sys_unveil(NULL, NULL))
			_exit(100);
		if (read_attr_fd(open_attr(0, "rules"), rules, sizeof(rules)) ||
		    strcmp(rules, "veiled yes\nlocked yes\nlearning no\nrule r \"/proc\"\n"))
			_exit(101);
		for (i = 0; i < 2; i++) {
			self->after_err[i] = read_text(paths[i],
						       self->after[i],
						       sizeof(self->after[i]));
		}
		if (write(pipefd[1], self->after_err, sizeof(self->after_err)) < 0 ||
		    write(pipefd[1], self->after, sizeof(self->after)) < 0)
			_exit(102);
		_exit(0);
	}
	close(pipefd[1]);
	ASSERT_EQ(sizeof(self->after_err),
		  read(pipefd[0], self->after_err, sizeof(self->after_err)));
	ASSERT_EQ(sizeof(self->after),
		  read(pipefd[0], self->after, sizeof(self->after)));
	close(pipefd[0]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, self->after_err[i]);
		EXPECT_STREQ(self->before[i], self->after[i]);
	}
}

TEST_F(major, lsm_get_self_attr_answers_for_the_major_module_only)
{
	__u64 ids[8];
	int count;

	ASSERT_EQ(0, sys_unveil("/proc", "r"));
	count = current_attr_ids(ids, ARRAY_SIZE(ids));
	ASSERT_EQ(1, count);
	EXPECT_EQ(variant->id, ids[0]);
}

TEST_HARNESS_MAIN
