// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - rules on file systems that make their files on lookup
 * (procfs, sysfs, cgroupfs, debugfs) keep applying after the kernel dropped
 * their directories from its caches.
 *
 * procfs makes a new inode each time it looks up a directory again: a rule
 * tied to the old inode must not lapse, or a narrower rule under a wider
 * one would stop hiding what it hides.  Each test veils a child, lets an
 * unveiled process drop the dentry and inode caches, and has the child try
 * the path again.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "common.h"

/* Dropping the caches takes seconds on a debug kernel. */
#define TIMEOUT 180

/* A directory for the tests that mount a file system of their own. */
FIXTURE(fs) {
	char dir[64];
};

FIXTURE_SETUP(fs)
{
	ASSERT_EQ(0, make_test_dir(self->dir, sizeof(self->dir)));
}

/*
 * In the parent, which has no veil.  The tests mount in a mount namespace
 * of their own: what they mounted went away with it.
 */
FIXTURE_TEARDOWN_PARENT(fs)
{
	EXPECT_EQ(0, remove_tree(self->dir));
}

/* Drops unused dentries and inodes from the kernel's caches. */
static void evict(struct __test_metadata *const _metadata)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	ASSERT_LE(0, fd);
	ASSERT_EQ(1, write(fd, "2", 1));
	close(fd);
}

/*
 * In a child: unveil @wide "r", then @narrow with @perms, and lock.  Once
 * the caches were dropped (after this process made the file @touch, if
 * not NULL, to change a directory), open @probe with @flags.  Returns the
 * errno of that open, 0 if it succeeded.
 */
static int open_after_eviction(struct __test_metadata *const _metadata,
			       const char *wide, const char *narrow,
			       const char *perms, const char *probe, int flags,
			       const char *touch)
{
	int veiled[2], dropped[2], status, i;
	pid_t child;
	char c;

	ASSERT_EQ(0, pipe(veiled));
	ASSERT_EQ(0, pipe(dropped));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		/* Its rules may pin a file system: never outlive the test. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (unveil_errno(wide, "r") || unveil_errno(narrow, perms) ||
		    unveil_errno(NULL, NULL) || write(veiled[1], "v", 1) != 1 ||
		    read(dropped[0], &c, 1) != 1)
			_exit(255);
		_exit(open_errno(probe, flags));
	}
	ASSERT_EQ(1, read(veiled[0], &c, 1));
	if (touch)
		write_file(touch, "t");
	/* The first pass only ages recently used dentries. */
	for (i = 0; i < 4; i++)
		evict(_metadata);
	ASSERT_EQ(1, write(dropped[1], "d", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	return WEXITSTATUS(status);
}

TEST_F_TIMEOUT(fs, procfs_rule_hiding_a_process_directory_holds, TIMEOUT)
{
	EXPECT_EQ(ENOENT, open_after_eviction(_metadata, "/proc", "/proc/1", "",
					      "/proc/1/status", O_RDONLY, NULL));
}

TEST_F_TIMEOUT(fs, procfs_name_rule_in_a_process_directory_holds, TIMEOUT)
{
	EXPECT_EQ(EACCES, open_after_eviction(_metadata, "/proc",
					      "/proc/1/status", "",
					      "/proc/1/status", O_RDONLY, NULL));
}

TEST_F_TIMEOUT(fs, procfs_rule_hiding_a_sysctl_directory_holds, TIMEOUT)
{
	EXPECT_EQ(ENOENT, open_after_eviction(_metadata, "/proc",
					      "/proc/sys/kernel", "",
					      "/proc/sys/kernel/ostype",
					      O_RDONLY, NULL));
}

/* A rule on /proc/self (the process's own directory) keeps revealing it. */
TEST_F_TIMEOUT(fs, procfs_rule_revealing_the_own_process_directory_holds, TIMEOUT)
{
	EXPECT_EQ(0, open_after_eviction(_metadata, "/proc/self",
					 "/proc/self/fd", "r",
					 "/proc/self/status", O_RDONLY, NULL));
}

/*
 * Every lookup of /proc/PID/net makes new directories below it: no rule
 * could be kept there, so unveil() refuses one rather than let it lapse.
 */
TEST_F_TIMEOUT(fs, procfs_rule_that_cannot_be_kept_is_eopnotsupp, TIMEOUT)
{
	EXPECT_EQ(EOPNOTSUPP, unveil_errno("/proc/self/net/stat", ""));
	EXPECT_EQ(EOPNOTSUPP, unveil_errno("/proc/self/net/stat/arp_cache",
					   ""));
	EXPECT_EQ(0, unveil_errno("/proc/self/net", ""));
	EXPECT_EQ(ENOENT, open_errno("/proc/self/net/stat", O_RDONLY));
}

TEST_F_TIMEOUT(fs, sysfs_rule_hiding_a_directory_holds, TIMEOUT)
{
	EXPECT_EQ(ENOENT, open_after_eviction(_metadata, "/sys", "/sys/devices",
					      "", "/sys/devices/system",
					      O_RDONLY | O_DIRECTORY, NULL));
}

/* Makes the mounts of the test its own, in a mount namespace. */
static void own_mounts(struct __test_metadata *const _metadata)
{
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
}

/* A file system of type @type mounted on @dir. */
static void mount_fresh(struct __test_metadata *const _metadata,
			const char *dir, const char *type)
{
	own_mounts(_metadata);
	ASSERT_EQ(0, mount("none", dir, type, 0, NULL));
}

TEST_F_TIMEOUT(fs, cgroupfs_rule_hiding_a_cgroup_holds, TIMEOUT)
{
	const char *dir = self->dir;

	mount_fresh(_metadata, dir, "cgroup2");
	ASSERT_EQ(0, mkdir(at(dir, "x"), 0755));
	EXPECT_EQ(ENOENT, open_after_eviction(_metadata, dir, at(dir, "x"), "",
					      at(dir, "x/cgroup.procs"),
					      O_RDONLY, NULL));
	/* cgroup2 is one hierarchy, wherever it is mounted. */
	rmdir(at(dir, "x"));
}

TEST_F_TIMEOUT(fs, debugfs_rule_hiding_a_directory_holds, TIMEOUT)
{
	const char *dir = self->dir;
	char sub[PATH_MAX] = "";
	struct dirent *entry;
	DIR *list;

	mount_fresh(_metadata, dir, "debugfs");
	list = opendir(dir);
	ASSERT_NE(NULL, list);
	while ((entry = readdir(list)))
		if (entry->d_type == DT_DIR && entry->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s", at(dir, entry->d_name));
			break;
		}
	closedir(list);
	ASSERT_NE(0, sub[0]);
	EXPECT_EQ(ENOENT, open_after_eviction(_metadata, dir, sub, "", sub,
					      O_RDONLY | O_DIRECTORY, NULL));
}

/*
 * 9p makes a new inode for each lookup (cache=none), or when a directory
 * changed (cache=loose).  scripts/vm --share exports a host directory as
 * the 9p tag unveil-share.
 */
static void rule_on_9p_holds(struct __test_metadata *const _metadata,
			     const char *dir, const char *cache)
{
	char options[64], name[96], touched[128];
	int i;

	own_mounts(_metadata);
	snprintf(options, sizeof(options), "trans=virtio,cache=%s", cache);
	/*
	 * A 9p channel serves one mount at a time: the previous test's mount
	 * goes once the rules that pin it are freed, after a grace period.
	 */
	for (i = 0; mount("unveil-share", dir, "9p", 0, options); i++) {
		if (errno == ENOENT || i == 200)
			SKIP(return, "no 9p share (scripts/vm --share)");
		usleep(100000);
	}
	snprintf(name, sizeof(name), "%s/%d", dir, getpid());
	ASSERT_EQ(0, mkdir(name, 0755));
	ASSERT_EQ(0, mkdir(at(name, "x"), 0755));
	write_file(at(name, "x/f"), "f");
	snprintf(touched, sizeof(touched), "%s", at(name, "x/new"));
	EXPECT_EQ(ENOENT, open_after_eviction(_metadata, name, at(name, "x"),
					      "", at(name, "x/f"), O_RDONLY,
					      touched));
	unlink(touched);
	unlink(at(name, "x/f"));
	rmdir(at(name, "x"));
	rmdir(name);
}

TEST_F_TIMEOUT(fs, ninep_rule_hiding_a_directory_holds_without_cache, TIMEOUT)
{
	rule_on_9p_holds(_metadata, self->dir, "none");
}

TEST_F_TIMEOUT(fs, ninep_rule_hiding_a_directory_holds_with_a_loose_cache, TIMEOUT)
{
	rule_on_9p_holds(_metadata, self->dir, "loose");
}

TEST_F_TIMEOUT(fs, tmpfs_rule_hiding_a_directory_holds, TIMEOUT)
{
	const char *dir = self->dir;

	mount_fresh(_metadata, dir, "tmpfs");
	ASSERT_EQ(0, mkdir(at(dir, "x"), 0755));
	write_file(at(dir, "x/f"), "f");
	EXPECT_EQ(ENOENT, open_after_eviction(_metadata, dir, at(dir, "x"), "",
					      at(dir, "x/f"), O_RDONLY, NULL));
}

TEST_HARNESS_MAIN
