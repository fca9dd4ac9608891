// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - the veil: which rule decides, what each call needs,
 * and the ways around it that must not work.
 *
 * Every test builds its own tree (make_test_tree()) under a fresh
 * directory in /tmp (or in $UNVEIL_TEST_DIR: scripts/guest-fs-matrix runs
 * the suite on each file system):
 *   a/f1  a/f2  a/sub/f3  a/empty/
 *   b/f4
 * and runs in its own process (the harness forks), so the veil it drops
 * goes away with it; the parent removes the tree.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <linux/bpf.h>
#include <linux/btrfs.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/mount.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "common.h"

#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x00004000U
#endif
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_statmount
#define __NR_statmount 457
#endif
#ifndef __NR_listmount
#define __NR_listmount 458
#endif

/*
 * Whether a step before the veil failed because the file system of the
 * matrix lacks what it makes (9p has no FIFOs, overlayfs no
 * RENAME_WHITEOUT): the test is then skipped.  On /tmp, where the suite
 * runs by default, every step must work.
 */
static bool fs_lacks(struct __test_metadata *const _metadata, long ret,
		     const char *what)
{
	if (ret >= 0)
		return false;
	TH_LOG("the file system has no %s: %s", what, strerror(errno));
	ASSERT_NE(NULL, getenv("UNVEIL_TEST_DIR"));
	return true;
}

/*
 * Whether the mount that holds @path is of the file system type @type, or
 * of a subtype of it (fuse.bindfs): the mount in /proc/self/mounts with the
 * longest mount point that @path starts with.
 */
static bool mounted_as(const char *path, const char *type)
{
	char dev[256], mnt[256], fstype[64], found[64] = "";
	size_t best = 0, len;
	FILE *mounts = fopen("/proc/self/mounts", "re");

	if (!mounts)
		return false;
	while (fscanf(mounts, "%255s %255s %63s %*[^\n]", dev, mnt, fstype) == 3) {
		len = strlen(mnt);
		if (len >= best && !strncmp(path, mnt, len) &&
		    (path[len] == '/' || !path[len] || len == 1)) {
			best = len;
			snprintf(found, sizeof(found), "%s", fstype);
		}
	}
	fclose(mounts);
	len = strlen(type);
	return !strncmp(found, type, len) && (!found[len] || found[len] == '.');
}

FIXTURE(tree) {
	char base[256];
};

FIXTURE_SETUP(tree)
{
	ASSERT_EQ(0, make_test_tree(self->base, sizeof(self->base)));
}

/* In the parent, which has no veil. */
FIXTURE_TEARDOWN_PARENT(tree)
{
	EXPECT_EQ(0, remove_tree(self->base));
}

/* §2: the nearest rule decides */

TEST_F(tree, first_unveil_hides_everything_else)
{
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b/f4"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno("/", O_RDONLY));
}

TEST_F(tree, ancestors_of_an_unveiled_path_stay_hidden)
{
	UNVEIL(at(self->base, "a/sub"), "r");
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(self->base, O_RDONLY));
}

TEST_F(tree, directory_rule_covers_its_tree)
{
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/sub/f3"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/sub"), O_RDONLY));
}

TEST_F(tree, missing_permission_is_eacces)
{
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f1"), O_WRONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f1"), O_RDWR));
}

TEST_F(tree, most_specific_rule_wins)
{
	UNVEIL(at(self->base, "a"), "rw");
	UNVEIL(at(self->base, "a/sub"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_RDWR));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/sub/f3"), O_RDWR));
	EXPECT_EQ(0, open_errno(at(self->base, "a/sub/f3"), O_RDONLY));
}

TEST_F(tree, rules_never_merge)
{
	UNVEIL(at(self->base, "a"), "w");
	UNVEIL(at(self->base, "a/sub"), "r");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/sub/f3"), O_WRONLY));
}

TEST_F(tree, empty_directory_rule_hides_its_tree)
{
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(at(self->base, "a/sub"), "");
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/sub/f3"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/sub"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_RDONLY));
}

TEST_F(tree, name_rule_reveals_one_file)
{
	UNVEIL(at(self->base, "a/f1"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/f2"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a"), O_RDONLY));
}

TEST_F(tree, directory_with_only_name_rules_is_transparent)
{
	UNVEIL(self->base, "r");
	UNVEIL(at(self->base, "a/f1"), "rw");
	EXPECT_EQ(0, open_errno(at(self->base, "a/f2"), O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f2"), O_WRONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_RDWR));
}

TEST_F(tree, empty_name_rule_is_eacces)
{
	UNVEIL(self->base, "r");
	UNVEIL(at(self->base, "a/f1"), "");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f1"), O_RDONLY));
}

TEST_F(tree, name_rule_beats_directory_rule)
{
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(at(self->base, "a/f1"), "rw");
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_RDWR));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f2"), O_RDWR));
}

/*
 * A rule on a name holds for what is made there later, a directory too,
 * and for all it holds: rsync or cp -a into a new directory.
 */
TEST_F(tree, name_rule_holds_for_a_directory_made_there_and_all_it_holds)
{
	UNVEIL(at(self->base, "a/new"), "rwc");
	ASSERT_EQ(0, mkdir(at(self->base, "a/new"), 0755));
	EXPECT_EQ(0, open_errno(at(self->base, "a/new"),
				O_RDONLY | O_DIRECTORY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/new/f"),
				O_CREAT | O_WRONLY));
	ASSERT_EQ(0, mkdir(at(self->base, "a/new/sub"), 0755));
	EXPECT_EQ(0, open_errno(at(self->base, "a/new/sub/g"),
				O_CREAT | O_RDWR));
	EXPECT_EQ(0, errno_of(unlink(at(self->base, "a/new/sub/g"))));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/f1"), O_RDONLY));
}

/* ... with its letters, nearer than the rule of the directory above. */
TEST_F(tree, name_rule_limits_a_directory_made_there)
{
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(at(self->base, "a/new"), "rc");
	UNVEIL(at(self->base, "a/shut"), "c");
	ASSERT_EQ(0, mkdir(at(self->base, "a/new"), 0755));
	EXPECT_EQ(0, open_errno(at(self->base, "a/new/f"),
				O_CREAT | O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/new/f"), O_WRONLY));
	ASSERT_EQ(0, mkdir(at(self->base, "a/shut"), 0755));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/shut/f"),
				     O_CREAT | O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/shut"),
				     O_RDONLY | O_DIRECTORY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_RDWR));
}

TEST_F(tree, name_rule_for_a_missing_file_allows_creating_it)
{
	UNVEIL(at(self->base, "a/new"), "rwc");
	EXPECT_EQ(0, open_errno(at(self->base, "a/new"), O_CREAT | O_WRONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/new"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/other"),
				     O_CREAT | O_WRONLY));
}

/*
 * A name rule on a file goes with the file: its other names, a hard link
 * made elsewhere before the veil, meet the rule, and get no further; also
 * on 9p and FUSE (in the file-system matrix), which may give each name an
 * inode of its own.
 */
TEST_F(tree, name_rule_holds_on_the_hard_links_of_its_file)
{
	ASSERT_EQ(0, link(at(self->base, "b/f4"), at(self->base, "a/link4")));
	UNVEIL(at(self->base, "a"), "rw");
	UNVEIL(at(self->base, "b/f4"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "a/link4"), O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/link4"), O_WRONLY));
	UNVEIL(at(self->base, "b/f4"), "");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/link4"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_RDWR));
}

/* ... also once the file is renamed: the rule of the name stays too. */
TEST_F(tree, name_rule_follows_its_file_when_renamed)
{
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(at(self->base, "a/f1"), "r");
	ASSERT_EQ(EACCES, errno_of(rename(at(self->base, "a/f1"),
					  at(self->base, "a/moved"))));
	UNVEIL(at(self->base, "a/f1"), "rc");
	ASSERT_EQ(0, errno_of(rename(at(self->base, "a/f1"),
				     at(self->base, "a/moved"))));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/moved"), O_WRONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_CREAT | O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f1"), O_WRONLY));
}

/*
 * In a case-folding directory (ext4 with casefold, in the file-system
 * matrix), a name rule holds for every spelling the file system takes for
 * its name, whether the file exists or is made later.
 */
TEST_F(tree, name_rule_holds_for_every_case_of_its_name)
{
	int dir, flags;

	ASSERT_EQ(0, mkdir(at(self->base, "a/ci"), 0755));
	dir = open(at(self->base, "a/ci"), O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dir);
	flags = 0;
	if (!ioctl(dir, FS_IOC_GETFLAGS, &flags)) {
		flags |= FS_CASEFOLD_FL;
		if (ioctl(dir, FS_IOC_SETFLAGS, &flags))
			flags = 0;
	}
	close(dir);
	if (!(flags & FS_CASEFOLD_FL))
		SKIP(return, "no case-folding directories here");
	write_file(at(self->base, "a/ci/Known"), "k");
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(at(self->base, "a/ci/secret"), "");
	UNVEIL(at(self->base, "a/ci/known"), "r");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/ci/SECRET"),
				     O_CREAT | O_WRONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/ci/Secret"),
				     O_CREAT | O_WRONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/ci/KNOWN"), O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/ci/KNOWN"), O_WRONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/ci/other"),
				O_CREAT | O_WRONLY));
}

/*
 * vfat (in the file-system matrix) answers, for a longer name, to a short
 * name it made up with the file: a name rule could not hold for a file made
 * there later, and is refused, unless the name is a short name itself.
 */
TEST_F(tree, name_rule_where_short_names_are_made_up_is_eopnotsupp)
{
	if (!mounted_as(self->base, "vfat"))
		SKIP(return, "no made-up short names here");
	ASSERT_EQ(0, write_file(at(self->base, "a/secret-long-name.txt"), "s"));
	ASSERT_EQ(0, write_file(at(self->base, "a/short.txt"), "s"));
	ASSERT_EQ(0, open_errno(at(self->base, "a/SECRET~1.TXT"), O_RDONLY));
	EXPECT_EQ(EOPNOTSUPP,
		  unveil_errno(at(self->base, "a/secret-long-name.txt"), ""));
	EXPECT_EQ(EOPNOTSUPP, unveil_errno(at(self->base, "a/SECRET~1.TXT"), ""));
	EXPECT_EQ(EOPNOTSUPP,
		  unveil_errno(at(self->base, "a/made-later.txt"), ""));
	UNVEIL(at(self->base, "a"), "rw");
	UNVEIL(at(self->base, "a/short.txt"), "");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/SHORT.TXT"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/SECRET~1.TXT"), O_RDONLY));
}

/* A directory's own rule holds, whatever name the directory is reached by. */
TEST_F(tree, directory_rule_holds_by_a_made_up_short_name)
{
	if (!mounted_as(self->base, "vfat"))
		SKIP(return, "no made-up short names here");
	ASSERT_EQ(0, mkdir(at(self->base, "a/secret-long-dir"), 0755));
	ASSERT_EQ(0, write_file(at(self->base, "a/secret-long-dir/f"), "s"));
	ASSERT_EQ(0, open_errno(at(self->base, "a/SECRET~1/f"), O_RDONLY));
	UNVEIL(at(self->base, "a"), "rw");
	UNVEIL(at(self->base, "a/secret-long-dir"), "");
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/SECRET~1/f"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/SECRET~1"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_RDONLY));
}

TEST_F(tree, name_rule_survives_delete_and_recreate)
{
	UNVEIL(at(self->base, "a/f1"), "rwc");
	ASSERT_EQ(0, unlink(at(self->base, "a/f1")));
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_CREAT | O_WRONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_RDONLY));
}

TEST_F(tree, reunveil_replaces_permissions)
{
	UNVEIL(at(self->base, "a"), "rw");
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f1"), O_WRONLY));
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_WRONLY));
}

TEST_F(tree, directory_rule_follows_renames)
{
	int go[2], status;
	pid_t renamer;
	char c;

	/* The rename is done by a process forked before the veil. */
	ASSERT_EQ(0, pipe(go));
	renamer = fork();
	ASSERT_LE(0, renamer);
	if (renamer == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(255);
		_exit(errno_of(rename(at(self->base, "a/sub"),
				      at(self->base, "b/moved"))));
	}
	UNVEIL(at(self->base, "a/sub"), "r");
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(renamer, waitpid(renamer, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, open_errno(at(self->base, "b/moved/f3"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b/f4"), O_RDONLY));
}

TEST_F(tree, recreated_directory_is_a_new_object)
{
	const char *dir = at(self->base, "a/empty");

	UNVEIL(dir, "rwc");
	ASSERT_EQ(0, rmdir(dir));
	ASSERT_EQ(ENOENT, errno_of(mkdir(dir, 0755)));
}

/* §3: what each call needs */

TEST_F(tree, create_needs_c)
{
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/new"),
				     O_CREAT | O_WRONLY));
	UNVEIL(at(self->base, "a"), "rwc");
	EXPECT_EQ(0, open_errno(at(self->base, "a/new"), O_CREAT | O_WRONLY));
}

TEST_F(tree, o_creat_on_an_existing_file_needs_c)
{
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f1"), O_CREAT | O_RDWR));
}

TEST_F(tree, o_trunc_needs_w)
{
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f1"),
				     O_RDONLY | O_TRUNC));
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_WRONLY | O_TRUNC));
}

/* O_CREAT creates nothing where a device exists: "> /dev/null" needs w. */
TEST_F(tree, o_creat_on_an_existing_device_needs_no_c)
{
	if (fs_lacks(_metadata, mknod(at(self->base, "a/null"),
				      S_IFCHR | 0666, makedev(1, 3)),
		     "device nodes") ||
	    fs_lacks(_metadata, -open_errno(at(self->base, "a/null"), O_WRONLY),
		     "devices it lets open (nodev)"))
		SKIP(return, "not on this file system");
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(0, open_errno(at(self->base, "a/null"),
				O_WRONLY | O_CREAT | O_TRUNC));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f1"),
				     O_WRONLY | O_CREAT | O_TRUNC));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/new"),
				     O_WRONLY | O_CREAT | O_TRUNC));
}

/* Access mode 3 opens for ioctl()s only, which change attributes: rw. */
TEST_F(tree, open_with_access_mode_3_needs_r_and_w)
{
	UNVEIL(at(self->base, "a"), "xc");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f1"), 3));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a/f1"), 3));
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), 3));
}

TEST_F(tree, o_tmpfile_needs_c_on_the_directory)
{
	if (fs_lacks(_metadata, -open_errno(at(self->base, "a"),
					    O_TMPFILE | O_RDWR), "O_TMPFILE"))
		SKIP(return, "not on this file system");
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(EACCES, open_errno(at(self->base, "a"), O_TMPFILE | O_RDWR));
	UNVEIL(at(self->base, "a"), "rwc");
	EXPECT_EQ(0, open_errno(at(self->base, "a"), O_TMPFILE | O_RDWR));
}

TEST_F(tree, truncate_needs_w)
{
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, errno_of(truncate(at(self->base, "a/f1"), 0)));
	EXPECT_EQ(ENOENT, errno_of(truncate(at(self->base, "b/f4"), 0)));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(0, errno_of(truncate(at(self->base, "a/f1"), 0)));
}

TEST_F(tree, mkdir_needs_c)
{
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(EACCES, errno_of(mkdir(at(self->base, "a/d"), 0755)));
	EXPECT_EQ(ENOENT, errno_of(mkdir(at(self->base, "b/d"), 0755)));
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(0, errno_of(mkdir(at(self->base, "a/d"), 0755)));
}

TEST_F(tree, mknod_fifo_needs_c)
{
	if (fs_lacks(_metadata, mkfifo(at(self->base, "b/fifo"), 0644), "FIFOs"))
		SKIP(return, "not on this file system");
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(EACCES, errno_of(mkfifo(at(self->base, "a/fifo"), 0644)));
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(0, errno_of(mkfifo(at(self->base, "a/fifo"), 0644)));
}

/* A device node would reach data that no rule covers: a whole disk. */
TEST_F(tree, mknod_of_a_device_is_eperm)
{
	if (fs_lacks(_metadata, mknod(at(self->base, "a/null"),
				      S_IFCHR | 0600, makedev(1, 3)),
		     "device nodes"))
		SKIP(return, "not on this file system");
	UNVEIL(at(self->base, "a"), "rwc");
	EXPECT_EQ(EPERM, errno_of(mknod(at(self->base, "a/chr"),
					S_IFCHR | 0600, makedev(1, 3))));
	EXPECT_EQ(EPERM, errno_of(mknod(at(self->base, "a/blk"),
					S_IFBLK | 0600, makedev(7, 0))));
	EXPECT_EQ(EPERM, errno_of(mknodat(AT_FDCWD, at(self->base, "b/blk"),
					  S_IFBLK | 0600, makedev(7, 0))));
	EXPECT_EQ(ENOENT, access(at(self->base, "a/chr"), F_OK) ? errno : 0);
	EXPECT_EQ(ENOENT, access(at(self->base, "a/blk"), F_OK) ? errno : 0);
}

TEST_F(tree, mknod_of_a_socket_or_a_file_needs_c)
{
	if (fs_lacks(_metadata, mknod(at(self->base, "b/sock"),
				      S_IFSOCK | 0600, 0), "socket nodes"))
		SKIP(return, "not on this file system");
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(EACCES, errno_of(mknod(at(self->base, "a/sock"),
					 S_IFSOCK | 0600, 0)));
	EXPECT_EQ(EACCES, errno_of(mknod(at(self->base, "a/reg"),
					 S_IFREG | 0600, 0)));
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(0, errno_of(mknod(at(self->base, "a/sock"), S_IFSOCK | 0600,
				    0)));
	EXPECT_EQ(0, errno_of(mknod(at(self->base, "a/reg"), S_IFREG | 0600,
				    0)));
}

TEST_F(tree, symlink_needs_c_on_the_new_name)
{
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(EACCES, errno_of(symlink("f1", at(self->base, "a/link"))));
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(0, errno_of(symlink("f1", at(self->base, "a/link"))));
}

TEST_F(tree, unlink_needs_c)
{
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(EACCES, errno_of(unlink(at(self->base, "a/f1"))));
	EXPECT_EQ(ENOENT, errno_of(unlink(at(self->base, "b/f4"))));
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(0, errno_of(unlink(at(self->base, "a/f1"))));
}

TEST_F(tree, rmdir_is_decided_by_the_directory_own_rule)
{
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(at(self->base, "a/empty"), "r");
	EXPECT_EQ(EACCES, errno_of(rmdir(at(self->base, "a/empty"))));
	UNVEIL(at(self->base, "a/empty"), "c");
	EXPECT_EQ(0, errno_of(rmdir(at(self->base, "a/empty"))));
}

TEST_F(tree, rename_needs_r_and_c_on_the_source)
{
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(EACCES, errno_of(rename(at(self->base, "a/f1"),
					  at(self->base, "a/g"))));
	UNVEIL(at(self->base, "a"), "rc");
	EXPECT_EQ(0, errno_of(rename(at(self->base, "a/f1"),
				     at(self->base, "a/g"))));
}

TEST_F(tree, rename_needs_c_on_the_target)
{
	UNVEIL(at(self->base, "a"), "rc");
	UNVEIL(at(self->base, "a/sub"), "r");
	EXPECT_EQ(EACCES, errno_of(rename(at(self->base, "a/f1"),
					  at(self->base, "a/sub/g"))));
}

TEST_F(tree, rename_exchange_needs_r_and_c_on_both)
{
	if (fs_lacks(_metadata, renameat2(AT_FDCWD, at(self->base, "b/f4"),
					  AT_FDCWD, at(self->base, "a/sub/f3"),
					  RENAME_EXCHANGE), "RENAME_EXCHANGE"))
		SKIP(return, "not on this file system");
	UNVEIL(at(self->base, "a"), "rc");
	UNVEIL(at(self->base, "a/f2"), "c");
	EXPECT_EQ(EACCES, errno_of(renameat2(AT_FDCWD, at(self->base, "a/f1"),
					     AT_FDCWD, at(self->base, "a/f2"),
					     RENAME_EXCHANGE)));
	UNVEIL(at(self->base, "a/f2"), "rc");
	EXPECT_EQ(0, errno_of(renameat2(AT_FDCWD, at(self->base, "a/f1"),
					AT_FDCWD, at(self->base, "a/f2"),
					RENAME_EXCHANGE)));
}

TEST_F(tree, link_needs_r_on_the_source_and_c_on_the_new_name)
{
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_EQ(EACCES, errno_of(link(at(self->base, "a/f1"),
					at(self->base, "a/l"))));
	UNVEIL(at(self->base, "a"), "rc");
	EXPECT_EQ(0, errno_of(link(at(self->base, "a/f1"),
				   at(self->base, "a/l"))));
}

TEST_F(tree, link_cannot_make_a_read_only_file_writable)
{
	UNVEIL(at(self->base, "a"), "r");
	UNVEIL(at(self->base, "b"), "rwc");
	EXPECT_EQ(EXDEV, errno_of(link(at(self->base, "a/f1"),
				       at(self->base, "b/l"))));
}

TEST_F(tree, rename_cannot_make_a_read_only_file_writable)
{
	UNVEIL(at(self->base, "a"), "rc");
	UNVEIL(at(self->base, "b"), "rwc");
	EXPECT_EQ(EXDEV, errno_of(rename(at(self->base, "a/f1"),
					 at(self->base, "b/f1"))));
}

TEST_F(tree, rename_cannot_move_a_hidden_file_into_view)
{
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(at(self->base, "b"), "");
	EXPECT_EQ(ENOENT, errno_of(rename(at(self->base, "b/f4"),
					  at(self->base, "a/f4"))));
}

TEST_F(tree, rename_keeping_the_same_permissions_works)
{
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(at(self->base, "b"), "rwc");
	EXPECT_EQ(0, errno_of(rename(at(self->base, "a/f1"),
				     at(self->base, "b/f1"))));
}

TEST_F(tree, rename_of_a_directory_takes_its_rule_along)
{
	UNVEIL(at(self->base, "a"), "rc");
	UNVEIL(at(self->base, "a/sub"), "rc");
	UNVEIL(at(self->base, "b"), "rwc");
	EXPECT_EQ(0, errno_of(rename(at(self->base, "a/sub"),
				     at(self->base, "b/sub"))));
	EXPECT_EQ(EACCES, open_errno(at(self->base, "b/sub/f3"), O_WRONLY));
}

TEST_F(tree, rename_cannot_make_a_read_only_directory_writable)
{
	UNVEIL(at(self->base, "a"), "rc");
	UNVEIL(at(self->base, "b"), "rwc");
	EXPECT_EQ(EXDEV, errno_of(rename(at(self->base, "a/sub"),
					 at(self->base, "b/sub"))));
}

TEST_F(tree, rename_onto_a_directory_does_not_take_over_its_rule)
{
	ASSERT_EQ(0, mkdir(at(self->base, "b/h"), 0755));
	UNVEIL(at(self->base, "a"), "rc");
	UNVEIL(at(self->base, "b"), "rwc");
	UNVEIL(at(self->base, "b/h"), "rc");
	/* a/sub would get the rights of b, not those of the b/h it replaces. */
	EXPECT_EQ(EXDEV, errno_of(rename(at(self->base, "a/sub"),
					 at(self->base, "b/h"))));
}

/* A whiteout left at the source is a character device node. */
TEST_F(tree, rename_with_rename_whiteout_is_eperm)
{
	if (fs_lacks(_metadata, renameat2(AT_FDCWD, at(self->base, "a/f1"),
					  AT_FDCWD, at(self->base, "a/w1"),
					  RENAME_WHITEOUT), "RENAME_WHITEOUT"))
		SKIP(return, "not on this file system");
	UNVEIL(at(self->base, "a"), "rwc");
	EXPECT_EQ(EPERM, errno_of(renameat2(AT_FDCWD, at(self->base, "a/f2"),
					    AT_FDCWD, at(self->base, "a/w2"),
					    RENAME_WHITEOUT)));
	EXPECT_EQ(0, access(at(self->base, "a/f2"), F_OK) ? errno : 0);
	EXPECT_EQ(ENOENT, access(at(self->base, "a/w2"), F_OK) ? errno : 0);
}

/* An existing target is removed: it is judged as rmdir() would judge it. */
TEST_F(tree, rename_onto_a_hidden_directory_is_enoent)
{
	ASSERT_EQ(0, mkdir(at(self->base, "a/h"), 0755));
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(at(self->base, "a/h"), "");
	EXPECT_EQ(ENOENT, errno_of(rename(at(self->base, "a/empty"),
					  at(self->base, "a/h"))));
	UNVEIL(at(self->base, "a/h"), "rwc");
	EXPECT_EQ(0, errno_of(rename(at(self->base, "a/empty"),
				     at(self->base, "a/h"))));
}

TEST_F(tree, rename_onto_a_read_only_directory_is_eacces)
{
	ASSERT_EQ(0, mkdir(at(self->base, "a/ro"), 0755));
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(at(self->base, "a/ro"), "r");
	EXPECT_EQ(EACCES, errno_of(rename(at(self->base, "a/empty"),
					  at(self->base, "a/ro"))));
	EXPECT_EQ(0, access(at(self->base, "a/ro"), F_OK) ? errno : 0);
	EXPECT_EQ(0, access(at(self->base, "a/empty"), F_OK) ? errno : 0);
}

/*
 * ENOTEMPTY (EEXIST on xfs, as POSIX allows) would tell that the hidden
 * directory holds something.
 */
TEST_F(tree, rename_onto_a_hidden_directory_does_not_tell_whether_it_is_empty)
{
	int err;

	ASSERT_EQ(0, mkdir(at(self->base, "a/h"), 0755));
	ASSERT_EQ(0, mkdir(at(self->base, "a/h/x"), 0755));
	err = errno_of(rename(at(self->base, "a/empty"), at(self->base, "a/h")));
	ASSERT_TRUE(err == ENOTEMPTY || err == EEXIST);
	UNVEIL(at(self->base, "a"), "rwc");
	UNVEIL(at(self->base, "a/h"), "");
	EXPECT_EQ(ENOENT, errno_of(rename(at(self->base, "a/empty"),
					  at(self->base, "a/h"))));
	EXPECT_EQ(ENOENT, errno_of(renameat2(AT_FDCWD, at(self->base, "a/sub"),
					     AT_FDCWD, at(self->base, "a/h"),
					     RENAME_EXCHANGE)));
}

TEST_F(tree, o_path_fd_with_empty_path_gives_no_more_access)
{
	int fd, link_fd;
	char buf[8];

	ASSERT_EQ(0, symlink("f1", at(self->base, "a/link")));
	UNVEIL(at(self->base, "a"), "x");
	fd = open(at(self->base, "a/f1"), O_PATH);
	ASSERT_LE(0, fd);
	link_fd = open(at(self->base, "a/link"), O_PATH | O_NOFOLLOW);
	ASSERT_LE(0, link_fd);
	EXPECT_EQ(EACCES, errno_of(fchownat(fd, "", 0, 0, AT_EMPTY_PATH)));
	EXPECT_EQ(EACCES, errno_of(syscall(__NR_fchmodat2, fd, "", 0600,
					   AT_EMPTY_PATH)));
	EXPECT_EQ(EACCES, errno_of(utimensat(fd, "", NULL, AT_EMPTY_PATH)));
	EXPECT_EQ(EACCES, errno_of(readlinkat(link_fd, "", buf, sizeof(buf))));
}

TEST_F(tree, empty_path_on_a_hidden_cwd_is_judged)
{
	ASSERT_EQ(0, chdir(at(self->base, "b")));
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(ENOENT, errno_of(fchownat(AT_FDCWD, "", 0, 0,
					    AT_EMPTY_PATH)));
}

TEST_F(tree, execve_needs_x)
{
	char probe[PATH_MAX];

	helper_path(probe, sizeof(probe), "probe");
	UNVEIL(probe, "r");
	EXPECT_EQ(EACCES, exec_probe("unveil", "NULL", "NULL"));
	UNVEIL(probe, "x");
	EXPECT_EQ(0, exec_probe("unveil", "NULL", "NULL"));
}

TEST_F(tree, veil_is_kept_across_execve)
{
	char probe[PATH_MAX];

	helper_path(probe, sizeof(probe), "probe");
	UNVEIL(probe, "x");
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, exec_probe("open", at(self->base, "a/f1"), NULL));
	EXPECT_EQ(ENOENT, exec_probe("open", at(self->base, "b/f4"), NULL));
}

/*
 * Runs "sh -c SCRIPT" with stdout and stderr into @out (NUL-terminated);
 * returns its exit status, or -1.
 */
static int run_shell(const char *script, char *out, size_t size)
{
	int pipefd[2], status;
	ssize_t len = 0, n;
	pid_t child;

	if (pipe(pipefd))
		return -1;
	child = fork();
	if (child == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		execl("/bin/sh", "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	while (len < (ssize_t)size - 1 &&
	       (n = read(pipefd[0], out + len, size - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(pipefd[0]);
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST_F(tree, veiled_shell_cannot_read_what_its_parent_could_not)
{
	char script[PATH_MAX + 16], out[256];

	UNVEIL("/bin", "x");
	UNVEIL(at(self->base, "a"), "r");
	snprintf(script, sizeof(script), "cat %s", at(self->base, "a/f1"));
	EXPECT_EQ(0, run_shell(script, out, sizeof(out)));
	EXPECT_STREQ("f1", out);
	snprintf(script, sizeof(script), "cat %s", at(self->base, "b/f4"));
	EXPECT_EQ(1, run_shell(script, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "No such file or directory"));
}

TEST_F(tree, veil_is_copied_to_children)
{
	int status;
	pid_t child;

	UNVEIL(at(self->base, "a"), "r");
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0)
		_exit(open_errno(at(self->base, "b/f4"), O_RDONLY));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(ENOENT, WEXITSTATUS(status));
}

TEST_F(tree, later_unveil_in_the_parent_does_not_reach_the_child)
{
	int pipefd[2], status;
	pid_t child;
	char c;

	UNVEIL(at(self->base, "a"), "r");
	ASSERT_EQ(0, pipe(pipefd));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (read(pipefd[0], &c, 1) != 1)
			_exit(255);
		_exit(open_errno(at(self->base, "b/f4"), O_RDONLY));
	}
	UNVEIL(at(self->base, "b"), "r");
	ASSERT_EQ(1, write(pipefd[1], "x", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(ENOENT, WEXITSTATUS(status));
	EXPECT_EQ(0, open_errno(at(self->base, "b/f4"), O_RDONLY));
}

static void *unveil_a(void *base)
{
	return (void *)(long)unveil_errno(at(base, "a"), "r");
}

TEST_F(tree, unveil_in_one_thread_veils_all_threads)
{
	pthread_t thread;
	void *result;

	ASSERT_EQ(0, pthread_create(&thread, NULL, unveil_a, self->base));
	ASSERT_EQ(0, pthread_join(thread, &result));
	ASSERT_EQ(0, (long)result);
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b/f4"), O_RDONLY));
}

/* §3: inspecting and changing attributes by path */

TEST_F(tree, stat_family_needs_r)
{
	const char *f1 = at(self->base, "a/f1");
	struct statx stx;
	struct stat st;

	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(EACCES, errno_of(stat(f1, &st)));
	EXPECT_EQ(EACCES, errno_of(lstat(f1, &st)));
	EXPECT_EQ(EACCES, errno_of(fstatat(AT_FDCWD, f1, &st, 0)));
	EXPECT_EQ(EACCES, errno_of(statx(AT_FDCWD, f1, 0, STATX_BASIC_STATS,
					 &stx)));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, errno_of(stat(f1, &st)));
	EXPECT_EQ(0, errno_of(statx(AT_FDCWD, f1, 0, STATX_BASIC_STATS, &stx)));
}

TEST_F(tree, stat_of_a_hidden_file_is_enoent)
{
	struct stat st;

	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(ENOENT, errno_of(stat(at(self->base, "b/f4"), &st)));
	EXPECT_EQ(ENOENT, errno_of(stat(at(self->base, "b"), &st)));
}

TEST_F(tree, lstat_judges_the_symlink_itself)
{
	struct stat st;

	ASSERT_EQ(0, symlink("../a/f1", at(self->base, "b/link")));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(ENOENT, errno_of(lstat(at(self->base, "b/link"), &st)));
	EXPECT_EQ(0, errno_of(stat(at(self->base, "b/link"), &st)));
}

TEST_F(tree, access_needs_r)
{
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(EACCES, errno_of(access(at(self->base, "a/f1"), F_OK)));
	EXPECT_EQ(EACCES, errno_of(access(at(self->base, "a/f1"), R_OK)));
	EXPECT_EQ(ENOENT, errno_of(access(at(self->base, "b/f4"), F_OK)));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, errno_of(access(at(self->base, "a/f1"), R_OK)));
	EXPECT_EQ(0, errno_of(access(at(self->base, "a/f1"), F_OK)));
}

TEST_F(tree, access_w_ok_needs_w_too)
{
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, errno_of(access(at(self->base, "a/f1"), W_OK)));
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(0, errno_of(access(at(self->base, "a/f1"), W_OK)));
}

TEST_F(tree, readlink_needs_r)
{
	char buf[64];

	ASSERT_EQ(0, symlink("f1", at(self->base, "a/link")));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(EACCES, errno_of(readlink(at(self->base, "a/link"), buf,
					    sizeof(buf))));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(2, readlink(at(self->base, "a/link"), buf, sizeof(buf)));
}

TEST_F(tree, chdir_needs_r)
{
	UNVEIL(at(self->base, "a"), "x");
	EXPECT_EQ(EACCES, errno_of(chdir(at(self->base, "a"))));
	EXPECT_EQ(ENOENT, errno_of(chdir(at(self->base, "b"))));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, errno_of(chdir(at(self->base, "a"))));
}

TEST_F(tree, getxattr_and_listxattr_need_r)
{
	const char *f1 = at(self->base, "a/f1");
	char buf[64];

	ASSERT_EQ(0, setxattr(f1, "user.test", "v", 1, 0));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(EACCES, errno_of(getxattr(f1, "user.test", buf, sizeof(buf))));
	EXPECT_EQ(EACCES, errno_of(listxattr(f1, buf, sizeof(buf))));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(1, getxattr(f1, "user.test", buf, sizeof(buf)));
	EXPECT_LT(0, listxattr(f1, buf, sizeof(buf)));
}

TEST_F(tree, chmod_and_chown_need_w)
{
	const char *f1 = at(self->base, "a/f1");

	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, errno_of(chmod(f1, 0600)));
	EXPECT_EQ(EACCES, errno_of(fchmodat(AT_FDCWD, f1, 0600, 0)));
	EXPECT_EQ(EACCES, errno_of(chown(f1, 0, 0)));
	EXPECT_EQ(EACCES, errno_of(lchown(f1, 0, 0)));
	EXPECT_EQ(EACCES, errno_of(fchownat(AT_FDCWD, f1, 0, 0, 0)));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(0, errno_of(chmod(f1, 0600)));
	EXPECT_EQ(0, errno_of(chown(f1, 0, 0)));
}

TEST_F(tree, utimes_needs_w)
{
	const char *f1 = at(self->base, "a/f1");

	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, errno_of(utimes(f1, NULL)));
	EXPECT_EQ(EACCES, errno_of(utimensat(AT_FDCWD, f1, NULL, 0)));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(0, errno_of(utimensat(AT_FDCWD, f1, NULL, 0)));
}

TEST_F(tree, setxattr_and_removexattr_need_w)
{
	const char *f1 = at(self->base, "a/f1");

	ASSERT_EQ(0, setxattr(f1, "user.test", "v", 1, 0));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, errno_of(setxattr(f1, "user.other", "v", 1, 0)));
	EXPECT_EQ(EACCES, errno_of(removexattr(f1, "user.test")));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(0, errno_of(setxattr(f1, "user.other", "v", 1, 0)));
	EXPECT_EQ(0, errno_of(removexattr(f1, "user.test")));
}

TEST_F(tree, inotify_watch_needs_r)
{
	int fd = inotify_init1(0);

	ASSERT_LE(0, fd);
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(EACCES, errno_of(inotify_add_watch(fd, at(self->base, "a/f1"),
						     IN_MODIFY)));
	EXPECT_EQ(ENOENT, errno_of(inotify_add_watch(fd, at(self->base, "b/f4"),
						     IN_MODIFY)));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_LE(0, inotify_add_watch(fd, at(self->base, "a/f1"), IN_MODIFY));
}

TEST_F(tree, fanotify_inode_mark_needs_r)
{
	int fan = fanotify_init(FAN_CLASS_NOTIF, O_RDONLY);

	ASSERT_LE(0, fan);
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(EACCES, errno_of(fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN,
						 AT_FDCWD,
						 at(self->base, "a/f1"))));
	EXPECT_EQ(ENOENT, errno_of(fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN,
						 AT_FDCWD,
						 at(self->base, "b/f4"))));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, errno_of(fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN,
					    AT_FDCWD, at(self->base, "a/f1"))));
}

/* They report events, with names, from anywhere below: hidden places too. */
TEST_F(tree, fanotify_mount_and_file_system_marks_are_eperm)
{
	const unsigned int marks[] = { FAN_MARK_MOUNT, FAN_MARK_FILESYSTEM };
	int fan = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_DFID_NAME,
				O_RDONLY);
	unsigned int i;

	ASSERT_LE(0, fan);
	for (i = 0; i < 2; i++) {
		if (fs_lacks(_metadata,
			     fanotify_mark(fan, FAN_MARK_ADD | marks[i],
					   FAN_OPEN, AT_FDCWD,
					   at(self->base, "a")),
			     "fanotify marks with names"))
			SKIP(return, "not on this file system");
		ASSERT_EQ(0, errno_of(fanotify_mark(fan,
						    FAN_MARK_REMOVE | marks[i],
						    FAN_OPEN, AT_FDCWD,
						    at(self->base, "a"))));
	}
	UNVEIL(at(self->base, "a"), "rwc");
	for (i = 0; i < 2; i++)
		EXPECT_EQ(EPERM, errno_of(fanotify_mark(fan,
							FAN_MARK_ADD | marks[i],
							FAN_OPEN, AT_FDCWD,
							at(self->base, "a"))));
}

/*
 * A group whose events report the directory and name through which a file
 * was used would report hidden ones: another process's hard link in a
 * hidden directory, the parent of a bind-mounted directory.  Its marks are
 * refused; those of a group that reports only the file's own handle are
 * not.
 */
TEST_F(tree, fanotify_marks_reporting_directories_are_eperm)
{
	int names = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_DFID_NAME,
				  O_RDONLY);
	int fids = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID, O_RDONLY);

	ASSERT_LE(0, names);
	ASSERT_LE(0, fids);
	/* Without a veil: such a mark can be added. */
	if (fs_lacks(_metadata,
		     fanotify_mark(names, FAN_MARK_ADD, FAN_OPEN, AT_FDCWD,
				   at(self->base, "a/f2")),
		     "fanotify marks with names"))
		SKIP(return, "not on this file system");
	UNVEIL(at(self->base, "a"), "rwc");
	EXPECT_EQ(EPERM, errno_of(fanotify_mark(names, FAN_MARK_ADD, FAN_OPEN,
						AT_FDCWD,
						at(self->base, "a/f1"))));
	EXPECT_EQ(EPERM, errno_of(fanotify_mark(names, FAN_MARK_ADD,
						FAN_CREATE, AT_FDCWD,
						at(self->base, "a"))));
	EXPECT_EQ(0, errno_of(fanotify_mark(fids, FAN_MARK_ADD, FAN_OPEN,
					    AT_FDCWD, at(self->base, "a/f1"))));
	EXPECT_EQ(0, errno_of(fanotify_mark(fids, FAN_MARK_ADD, FAN_CREATE,
					    AT_FDCWD, at(self->base, "a"))));
}

/* A map pinned at @dir/map of a bpf file system mounted on @dir. */
static void pin_a_map(struct __test_metadata *const _metadata, const char *dir)
{
	union bpf_attr attr = {
		.map_type = BPF_MAP_TYPE_ARRAY,
		.key_size = 4,
		.value_size = 4,
		.max_entries = 1,
	};
	char path[PATH_MAX];
	int map;

	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_EQ(0, mount("none", dir, "bpf", 0, NULL));
	map = syscall(__NR_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	ASSERT_LE(0, map);
	memset(&attr, 0, sizeof(attr));
	attr.bpf_fd = map;
	snprintf(path, sizeof(path), "%s/map", dir);
	attr.pathname = (unsigned long)path;
	ASSERT_EQ(0, syscall(__NR_bpf, BPF_OBJ_PIN, &attr, sizeof(attr)));
	close(map);
}

/* errno of bpf(BPF_OBJ_GET) of @path with @flags, 0 on success. */
static int bpf_obj_get_errno(const char *path, unsigned int flags)
{
	union bpf_attr attr = {
		.pathname = (unsigned long)path,
		.file_flags = flags,
	};
	int fd = syscall(__NR_bpf, BPF_OBJ_GET, &attr, sizeof(attr));

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* The veiled part of bpf_obj_get_needs_r_to_read_and_w_to_write. */
static void bpf_obj_get_in_a_veil(struct __test_metadata *const _metadata,
				  const char *base, const char *map)
{
	UNVEIL(at(base, "a"), "r");
	EXPECT_EQ(ENOENT, bpf_obj_get_errno(map, BPF_F_RDONLY));
	UNVEIL(at(base, "b"), "r");
	EXPECT_EQ(0, bpf_obj_get_errno(map, BPF_F_RDONLY));
	EXPECT_EQ(EACCES, bpf_obj_get_errno(map, BPF_F_WRONLY));
	EXPECT_EQ(EACCES, bpf_obj_get_errno(map, 0));
	UNVEIL(at(base, "b"), "w");
	EXPECT_EQ(0, bpf_obj_get_errno(map, BPF_F_WRONLY));
	EXPECT_EQ(EACCES, bpf_obj_get_errno(map, BPF_F_RDONLY));
}

/* XFS's handle request (fs/xfs/libxfs/xfs_fs.h), not in the UAPI headers. */
struct xfs_fsop_handlereq {
	__u32 fd;
	void *path;
	__u32 oflags;
	void *ihandle;
	__u32 ihandlen;
	void *ohandle;
	__u32 *ohandlen;
};

#define XFS_IOC_PATH_TO_HANDLE _IOWR('X', 105, struct xfs_fsop_handlereq)

/* errno of XFS_IOC_PATH_TO_HANDLE of @path through @dirfd, 0 on success. */
static int xfs_path_to_handle_errno(int dirfd, const char *path)
{
	char handle[64];
	__u32 handle_len = sizeof(handle);
	struct xfs_fsop_handlereq req = {
		.path = (void *)path,
		.ohandle = handle,
		.ohandlen = &handle_len,
	};

	return ioctl(dirfd, XFS_IOC_PATH_TO_HANDLE, &req) < 0 ? errno : 0;
}

/* errno of BTRFS_IOC_SUBVOL_CREATE of @name in @dirfd, 0 on success. */
static int btrfs_subvol_create_errno(int dirfd, const char *name)
{
	struct btrfs_ioctl_vol_args args = {};

	snprintf(args.name, sizeof(args.name), "%s", name);
	return ioctl(dirfd, BTRFS_IOC_SUBVOL_CREATE, &args) < 0 ? errno : 0;
}

/*
 * A file system's own ioctls reach other files by name, handle or id, where
 * no rule judges them: refused on every file system, in a directory that
 * the veil shows with every letter.  Where the file system has them, the
 * ones that did reach hidden files: XFS hands out a hidden file's handle,
 * btrfs makes a subvolume.
 */
TEST_F(tree, file_system_ioctls_are_eperm)
{
	int dir = open(at(self->base, "a"), O_RDONLY | O_DIRECTORY);
	char label[FSLABEL_MAX];
	struct statfs sfs;

	ASSERT_LE(0, dir);
	ASSERT_EQ(0, fstatfs(dir, &sfs));
	if (sfs.f_type == XFS_SUPER_MAGIC)
		ASSERT_EQ(0, xfs_path_to_handle_errno(dir,
						      at(self->base, "b/f4")));
	if (sfs.f_type == BTRFS_SUPER_MAGIC) {
		ASSERT_EQ(0, btrfs_subvol_create_errno(dir, "before"));
		ASSERT_EQ(0, access(at(self->base, "a/before"), F_OK));
	}
	UNVEIL(at(self->base, "a"), "rwxc");
	EXPECT_EQ(EPERM, errno_of(ioctl(dir, FS_IOC_GETFSLABEL, label)));
	EXPECT_EQ(EPERM, xfs_path_to_handle_errno(dir, at(self->base, "b/f4")));
	EXPECT_EQ(EPERM, btrfs_subvol_create_errno(dir, "subvol"));
	EXPECT_EQ(ENOENT, errno_of(access(at(self->base, "a/subvol"), F_OK)));
	close(dir);
}

#define UNPRIVILEGED_BPF "/proc/sys/kernel/unprivileged_bpf_disabled"

/*
 * A pinned BPF map is data like a file's: getting it is judged like open.
 * A veiled process has no CAP_BPF, so bpf() works for it only where the
 * administrator allows bpf() without privileges.  The parent sets that, and
 * sets it back once the veiled child is done.
 */
TEST_F(tree, bpf_obj_get_needs_r_to_read_and_w_to_write)
{
	char map[PATH_MAX], before[8];
	pid_t child;
	int status;

	ASSERT_EQ(0, read_at(AT_FDCWD, UNPRIVILEGED_BPF, before,
			     sizeof(before)));
	if (before[0] == '1')
		SKIP(return, "bpf() without privileges is off for good");
	pin_a_map(_metadata, at(self->base, "b"));
	snprintf(map, sizeof(map), "%s", at(self->base, "b/map"));
	ASSERT_EQ(0, bpf_obj_get_errno(map, 0));
	ASSERT_EQ(0, write_text(UNPRIVILEGED_BPF, "0"));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		bpf_obj_get_in_a_veil(_metadata, self->base, map);
		_exit(_metadata->exit_code);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, write_text(UNPRIVILEGED_BPF, before));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST_F(tree, fd_based_calls_are_never_judged)
{
	int fd = open(at(self->base, "b/f4"), O_RDWR);
	int dirfd = open(at(self->base, "b"), O_RDONLY | O_DIRECTORY);
	struct timespec times[2] = {};
	struct statx stx;
	struct stat st;
	char buf[8];

	ASSERT_LE(0, fd);
	ASSERT_LE(0, dirfd);
	ASSERT_EQ(0, fsetxattr(fd, "user.test", "v", 1, 0));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, errno_of(fstat(fd, &st)));
	EXPECT_EQ(0, errno_of(fstatat(fd, "", &st, AT_EMPTY_PATH)));
	EXPECT_EQ(0, errno_of(statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS,
				    &stx)));
	EXPECT_EQ(0, errno_of(syscall(__NR_faccessat2, fd, "", R_OK,
				      AT_EMPTY_PATH)));
	EXPECT_EQ(0, errno_of(fchmod(fd, 0600)));
	EXPECT_EQ(0, errno_of(syscall(__NR_fchmodat2, fd, "", 0600,
				      AT_EMPTY_PATH)));
	EXPECT_EQ(0, errno_of(fchown(fd, 0, 0)));
	EXPECT_EQ(0, errno_of(fchownat(fd, "", 0, 0, AT_EMPTY_PATH)));
	EXPECT_EQ(0, errno_of(futimens(fd, times)));
	EXPECT_EQ(1, fgetxattr(fd, "user.test", buf, sizeof(buf)));
	EXPECT_EQ(0, errno_of(fremovexattr(fd, "user.test")));
	EXPECT_EQ(0, errno_of(fchdir(dirfd)));
	EXPECT_EQ(0, errno_of(fstat(1, &st)));
}

TEST_F(tree, statfs_and_getcwd_are_never_judged)
{
	char cwd[PATH_MAX];
	struct statfs sfs;

	ASSERT_EQ(0, chdir(at(self->base, "b")));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, errno_of(statfs(at(self->base, "b"), &sfs)));
	ASSERT_NE(NULL, getcwd(cwd, sizeof(cwd)));
	EXPECT_STREQ(at(self->base, "b"), cwd);
}

TEST_F(tree, o_path_needs_the_file_to_be_visible)
{
	UNVEIL(at(self->base, "a"), "x");
	UNVEIL(at(self->base, "a/f2"), "");
	EXPECT_EQ(0, open_errno(at(self->base, "a/f1"), O_PATH));
	EXPECT_EQ(0, open_errno(at(self->base, "a/f2"), O_PATH));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b/f4"), O_PATH));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "b"), O_PATH));
}

static int unix_socket_at(const char *path, int type, bool do_bind)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, type, 0);

	if (fd < 0)
		return -1;
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	if (do_bind && bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int connect_errno(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0), err;

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	err = errno_of(connect(fd, (struct sockaddr *)&addr, sizeof(addr)));
	close(fd);
	return err;
}

TEST_F(tree, af_unix_bind_needs_c)
{
	if (fs_lacks(_metadata, unix_socket_at(at(self->base, "b/sock"),
					       SOCK_STREAM, true),
		     "AF_UNIX sockets"))
		SKIP(return, "not on this file system");
	UNVEIL(at(self->base, "a"), "rw");
	EXPECT_EQ(-1, unix_socket_at(at(self->base, "a/sock"), SOCK_STREAM,
				     true));
	EXPECT_EQ(EACCES, errno);
	UNVEIL(at(self->base, "a"), "c");
	EXPECT_LE(0, unix_socket_at(at(self->base, "a/sock"), SOCK_STREAM,
				    true));
}

TEST_F(tree, af_unix_connect_needs_w)
{
	int server = unix_socket_at(at(self->base, "a/sock"), SOCK_STREAM,
				    true);

	if (fs_lacks(_metadata, server, "AF_UNIX sockets"))
		SKIP(return, "not on this file system");
	ASSERT_EQ(0, listen(server, 4));
	ASSERT_EQ(0, symlink("../a/sock", at(self->base, "b/sock")));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, connect_errno(at(self->base, "a/sock")));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(0, connect_errno(at(self->base, "a/sock")));
	/* A symlink in a hidden directory to a visible socket reaches it. */
	EXPECT_EQ(0, connect_errno(at(self->base, "b/sock")));
}

TEST_F(tree, af_unix_connect_to_a_hidden_socket_is_enoent)
{
	int server = unix_socket_at(at(self->base, "b/sock"), SOCK_STREAM,
				    true);

	if (fs_lacks(_metadata, server, "AF_UNIX sockets"))
		SKIP(return, "not on this file system");
	ASSERT_EQ(0, listen(server, 4));
	UNVEIL(at(self->base, "a"), "rwc");
	EXPECT_EQ(ENOENT, connect_errno(at(self->base, "b/sock")));
}

TEST_F(tree, af_unix_sendto_a_path_needs_w)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int server = unix_socket_at(at(self->base, "a/dgram"), SOCK_DGRAM,
				    true);
	int client = socket(AF_UNIX, SOCK_DGRAM, 0);

	if (fs_lacks(_metadata, server, "AF_UNIX sockets"))
		SKIP(return, "not on this file system");
	ASSERT_LE(0, client);
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s",
		 at(self->base, "a/dgram"));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(EACCES, errno_of(sendto(client, "x", 1, 0,
					  (struct sockaddr *)&addr,
					  sizeof(addr))));
	UNVEIL(at(self->base, "a"), "w");
	EXPECT_EQ(1, sendto(client, "x", 1, 0, (struct sockaddr *)&addr,
			    sizeof(addr)));
}

TEST_F(tree, abstract_af_unix_sockets_are_never_judged)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int server = socket(AF_UNIX, SOCK_STREAM, 0);
	int client = socket(AF_UNIX, SOCK_STREAM, 0);
	socklen_t len;

	ASSERT_LE(0, server);
	len = offsetof(struct sockaddr_un, sun_path) + 1 +
	      snprintf(addr.sun_path + 1, sizeof(addr.sun_path) - 1,
		       "unveil-%d", getpid());
	ASSERT_EQ(0, bind(server, (struct sockaddr *)&addr, len));
	ASSERT_EQ(0, listen(server, 4));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, errno_of(connect(client, (struct sockaddr *)&addr, len)));
}

TEST_F(tree, unveil_of_a_bind_mounted_file_names_its_mountpoint)
{
	ASSERT_EQ(0, mount(at(self->base, "a/f1"), at(self->base, "b/f4"), NULL,
			   MS_BIND, NULL));
	UNVEIL(at(self->base, "b/f4"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "b/f4"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/f1"), O_RDONLY));
}

/* Ways around the veil that must not work */

TEST_F(tree, dirfd_opened_before_the_veil_gives_nothing)
{
	int dirfd = open(at(self->base, "b"), O_RDONLY | O_DIRECTORY);

	ASSERT_LE(0, dirfd);
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(ENOENT, errno_of(openat(dirfd, "f4", O_RDONLY)));
	EXPECT_EQ(ENOENT, errno_of(openat(dirfd, "../a/../b/f4", O_RDONLY)));
	EXPECT_EQ(0, errno_of(openat(dirfd, "../a/f1", O_RDONLY)));
}

TEST_F(tree, dotdot_out_of_an_unveiled_directory_gives_nothing)
{
	UNVEIL(at(self->base, "a"), "r");
	ASSERT_EQ(0, chdir(at(self->base, "a")));
	EXPECT_EQ(ENOENT, open_errno("../b/f4", O_RDONLY));
	EXPECT_EQ(0, open_errno("../a/f1", O_RDONLY));
}

TEST_F(tree, symlink_into_a_hidden_place_is_hidden)
{
	ASSERT_EQ(0, symlink("../b/f4", at(self->base, "a/link")));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "a/link"), O_RDONLY));
}

TEST_F(tree, symlink_from_a_hidden_place_reaches_a_visible_file)
{
	ASSERT_EQ(0, symlink("../a/f1", at(self->base, "b/link")));
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "b/link"), O_RDONLY));
}

TEST_F(tree, fd_opened_before_the_veil_stays_usable)
{
	struct stat st;
	char buf[4];
	int fd = open(at(self->base, "b/f4"), O_RDWR);

	ASSERT_LE(0, fd);
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(2, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(1, write(fd, "x", 1));
	EXPECT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(0, ftruncate(fd, 0));
	EXPECT_EQ(0, fstat(1, &st));
}

TEST_F(tree, fstat_of_an_o_path_fd_is_judged_like_stat)
{
	const int hidden = open(at(self->base, "b/f4"), O_PATH);
	const int visible = open(at(self->base, "a/f1"), O_PATH);
	struct stat st;
	int writable;

	ASSERT_LE(0, hidden);
	ASSERT_LE(0, visible);
	ASSERT_EQ(0, syscall(__NR_fstat, hidden, &st));
	UNVEIL(at(self->base, "a"), "w");
	writable = open(at(self->base, "a/f1"), O_WRONLY);
	ASSERT_LE(0, writable);
	/* the raw system call: glibc's fstat() is fstatat(AT_EMPTY_PATH) */
	EXPECT_EQ(ENOENT, errno_of(syscall(__NR_fstat, hidden, &st)));
	EXPECT_EQ(EACCES, errno_of(syscall(__NR_fstat, visible, &st)));
	EXPECT_EQ(0, errno_of(syscall(__NR_fstat, writable, &st)));
}

TEST_F(tree, proc_self_fd_reopen_is_judged_where_the_file_is)
{
	char magic[64];
	int fd = open(at(self->base, "b/f4"), O_RDONLY);

	ASSERT_LE(0, fd);
	snprintf(magic, sizeof(magic), "/proc/self/fd/%d", fd);
	UNVEIL("/proc", "r");
	EXPECT_EQ(ENOENT, open_errno(magic, O_RDONLY));
}

TEST_F(tree, pipes_are_never_judged)
{
	char magic[64];
	int pipefd[2];

	ASSERT_EQ(0, pipe(pipefd));
	snprintf(magic, sizeof(magic), "/proc/self/fd/%d", pipefd[1]);
	UNVEIL("/proc", "r");
	EXPECT_EQ(0, open_errno(magic, O_WRONLY));
}

/*
 * The mount family: each call works unveiled (so that the test fails if the
 * hook is missing) and is EPERM once veiled.  Every case works in a mount
 * namespace of its own, which goes away with it, where a/empty is the mount
 * point of two tmpfs, one on the other.
 */

FIXTURE(mount_call) {
	char base[256];
};

FIXTURE_VARIANT(mount_call) {
	/* Makes the call on the tree at @base; returns its errno. */
	int (*call)(const char *base);
};

FIXTURE_SETUP(mount_call)
{
	const char *mnt;

	ASSERT_EQ(0, make_test_tree(self->base, sizeof(self->base)));
	mnt = at(self->base, "a/empty");
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_EQ(0, mount("none", mnt, "tmpfs", 0, NULL));
	ASSERT_EQ(0, mount("none", mnt, "tmpfs", 0, NULL));
}

/* In the parent, which has no veil and none of the test's mounts. */
FIXTURE_TEARDOWN_PARENT(mount_call)
{
	EXPECT_EQ(0, remove_tree(self->base));
}

/* Returns the errno of a call that returns a descriptor, which it closes. */
static int fd_errno(int fd)
{
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int mount_tmpfs(const char *base)
{
	return errno_of(mount("none", at(base, "a/empty"), "tmpfs", 0, NULL));
}

static int bind_mount(const char *base)
{
	return errno_of(mount(at(base, "b"), at(base, "a/empty"), NULL,
			      MS_BIND, NULL));
}

static int unmount(const char *base)
{
	return errno_of(umount2(at(base, "a/empty"), 0));
}

static int unmount_detached(const char *base)
{
	return errno_of(umount2(at(base, "a/empty"), MNT_DETACH));
}

static int move_mount_away(const char *base)
{
	return errno_of(move_mount(AT_FDCWD, at(base, "a/empty"), AT_FDCWD,
				   at(base, "a/sub"), 0));
}

static int set_nosuid(const char *base)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_NOSUID };

	return errno_of(mount_setattr(AT_FDCWD, at(base, "a/empty"), 0, &attr,
				      sizeof(attr)));
}

static int fsopen_tmpfs(const char *base)
{
	return fd_errno(fsopen("tmpfs", FSOPEN_CLOEXEC));
}

static int fspick_mount(const char *base)
{
	return fd_errno(fspick(AT_FDCWD, at(base, "a/empty"), FSPICK_CLOEXEC));
}

static int open_tree_clone(const char *base)
{
	return fd_errno(open_tree(AT_FDCWD, at(base, "a"), OPEN_TREE_CLONE));
}

static int open_tree_clone_recursive(const char *base)
{
	return fd_errno(open_tree(AT_FDCWD, at(base, "a"),
				  OPEN_TREE_CLONE | AT_RECURSIVE));
}

/* They name the mount points in hidden places; mountinfo is a file. */
static int listmount_root(const char *base)
{
	struct mnt_id_req req = {
		.size = MNT_ID_REQ_SIZE_VER0,
		.mnt_id = LSMT_ROOT,
	};
	__u64 ids[16];

	return errno_of(syscall(__NR_listmount, &req, ids, 16, 0));
}

static int statmount_of_the_mount(const char *base)
{
	struct mnt_id_req req = {
		.size = MNT_ID_REQ_SIZE_VER0,
		.param = STATMOUNT_MNT_POINT,
	};
	struct statx stx;
	char buf[4096];

	if (statx(AT_FDCWD, at(base, "a/empty"), 0, STATX_MNT_ID_UNIQUE, &stx))
		return errno;
	req.mnt_id = stx.stx_mnt_id;
	return errno_of(syscall(__NR_statmount, &req, buf, sizeof(buf), 0));
}

FIXTURE_VARIANT_ADD(mount_call, mount) {
	.call = mount_tmpfs,
};

FIXTURE_VARIANT_ADD(mount_call, bind_mount) {
	.call = bind_mount,
};

FIXTURE_VARIANT_ADD(mount_call, umount) {
	.call = unmount,
};

FIXTURE_VARIANT_ADD(mount_call, umount_detached) {
	.call = unmount_detached,
};

FIXTURE_VARIANT_ADD(mount_call, move_mount) {
	.call = move_mount_away,
};

FIXTURE_VARIANT_ADD(mount_call, mount_setattr) {
	.call = set_nosuid,
};

FIXTURE_VARIANT_ADD(mount_call, fsopen) {
	.call = fsopen_tmpfs,
};

FIXTURE_VARIANT_ADD(mount_call, fspick) {
	.call = fspick_mount,
};

FIXTURE_VARIANT_ADD(mount_call, open_tree_clone) {
	.call = open_tree_clone,
};

FIXTURE_VARIANT_ADD(mount_call, open_tree_clone_recursive) {
	.call = open_tree_clone_recursive,
};

FIXTURE_VARIANT_ADD(mount_call, listmount) {
	.call = listmount_root,
};

FIXTURE_VARIANT_ADD(mount_call, statmount) {
	.call = statmount_of_the_mount,
};

TEST_F(mount_call, works_unveiled_and_is_eperm_veiled)
{
	ASSERT_EQ(0, variant->call(self->base));
	UNVEIL(at(self->base, "a"), "rwxc");
	EXPECT_EQ(EPERM, variant->call(self->base));
}

/*
 * What the cases above cannot call twice: contexts and mounts made before
 * the veil, and calls that would change the view the test needs.
 */

TEST_F(tree, fsconfig_create_on_a_context_opened_before_the_veil_is_eperm)
{
	int fsfd = fsopen("tmpfs", FSOPEN_CLOEXEC);

	ASSERT_LE(0, fsfd);
	UNVEIL(at(self->base, "a"), "rwxc");
	EXPECT_EQ(EPERM, errno_of(fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL,
					   NULL, 0)));
}

TEST_F(tree, fsmount_of_a_file_system_created_before_the_veil_is_eperm)
{
	int fsfd = fsopen("tmpfs", FSOPEN_CLOEXEC);

	ASSERT_LE(0, fsfd);
	ASSERT_EQ(0, fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	UNVEIL(at(self->base, "a"), "rwxc");
	EXPECT_EQ(EPERM, errno_of(fsmount(fsfd, FSMOUNT_CLOEXEC, 0)));
}

TEST_F(tree, fsconfig_reconfigure_after_fspick_before_the_veil_is_eperm)
{
	const char *mnt = at(self->base, "a/empty");
	int fsfd;

	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount("none", mnt, "tmpfs", 0, NULL));
	fsfd = fspick(AT_FDCWD, mnt, FSPICK_CLOEXEC);
	ASSERT_LE(0, fsfd);
	ASSERT_EQ(0, fsconfig(fsfd, FSCONFIG_SET_FLAG, "ro", NULL, 0));
	UNVEIL(at(self->base, "a"), "rwxc");
	EXPECT_EQ(EPERM, errno_of(fsconfig(fsfd, FSCONFIG_CMD_RECONFIGURE,
					   NULL, NULL, 0)));
	EXPECT_EQ(0, open_errno(at(self->base, "a/empty/new"),
				O_WRONLY | O_CREAT));
}

TEST_F(tree, open_tree_without_clone_is_judged_like_o_path)
{
	int fd;

	UNVEIL(at(self->base, "a"), "r");
	fd = open_tree(AT_FDCWD, at(self->base, "a"), 0);
	EXPECT_LE(0, fd);
	EXPECT_EQ(ENOENT, errno_of(open_tree(AT_FDCWD, at(self->base, "b"), 0)));
}

TEST_F(tree, mount_setattr_is_eperm)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY };
	const char *mnt = at(self->base, "a/empty");

	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount("none", mnt, "tmpfs", 0, NULL));
	ASSERT_EQ(0, mount_setattr(AT_FDCWD, mnt, 0, &(struct mount_attr){
					   .attr_set = MOUNT_ATTR_NOSUID },
				   sizeof(attr)));
	UNVEIL(at(self->base, "a"), "rwxc");
	EXPECT_EQ(EPERM, errno_of(mount_setattr(AT_FDCWD, mnt, 0, &attr,
						sizeof(attr))));
	EXPECT_EQ(0, open_errno(at(self->base, "a/empty/new"),
				O_WRONLY | O_CREAT));
}

/* File handles name a file without a lookup: EPERM once veiled. */

static struct file_handle *new_file_handle(void)
{
	struct file_handle *handle = calloc(1, sizeof(*handle) + MAX_HANDLE_SZ);

	if (handle)
		handle->handle_bytes = MAX_HANDLE_SZ;
	return handle;
}

TEST_F(tree, name_to_handle_at_is_eperm)
{
	struct file_handle *handle = new_file_handle();
	const char *visible = at(self->base, "a/f1");
	int mount_id;

	ASSERT_NE(NULL, handle);
	if (fs_lacks(_metadata, name_to_handle_at(AT_FDCWD, visible, handle,
						  &mount_id, 0),
		     "file handles"))
		SKIP(return, "not on this file system");
	UNVEIL(at(self->base, "a"), "rwxc");
	handle->handle_bytes = MAX_HANDLE_SZ;
	EXPECT_EQ(EPERM, errno_of(name_to_handle_at(AT_FDCWD, visible, handle,
						    &mount_id, 0)));
	free(handle);
}

TEST_F(tree, open_by_handle_at_of_a_handle_made_before_the_veil_is_eperm)
{
	struct file_handle *handle = new_file_handle();
	int mount_fd = open(self->base, O_RDONLY | O_DIRECTORY);
	int mount_id, fd;

	ASSERT_NE(NULL, handle);
	ASSERT_LE(0, mount_fd);
	if (fs_lacks(_metadata, name_to_handle_at(AT_FDCWD,
						  at(self->base, "b/f4"),
						  handle, &mount_id, 0),
		     "file handles"))
		SKIP(return, "not on this file system");
	fd = open_by_handle_at(mount_fd, handle, O_RDONLY);
	ASSERT_LE(0, fd);
	close(fd);
	UNVEIL(at(self->base, "a"), "rwxc");
	EXPECT_EQ(EPERM, errno_of(open_by_handle_at(mount_fd, handle,
						    O_RDONLY)));
	free(handle);
}

TEST_F(tree, pivot_root_is_eperm)
{
	const char *root = at(self->base, "a/empty");

	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_EQ(0, mount("none", root, "tmpfs", 0, NULL));
	ASSERT_EQ(0, mkdir(at(self->base, "a/empty/old"), 0755));
	UNVEIL(at(self->base, "a"), "rwxc");
	/* Without the veil this would succeed: a/empty is a mount point. */
	EXPECT_EQ(EPERM, errno_of(syscall(__NR_pivot_root, root,
					  at(self->base, "a/empty/old"))));
}

/*
 * A user namespace of its own gives the veiled process no mount rights: no
 * mount namespace of its own, and no mount in the one it has.
 */
static void mount_in_own_user_namespace(struct __test_metadata *const _metadata,
					const char *mnt, int expected)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_NOSUID };

	ASSERT_EQ(0, unshare(CLONE_NEWUSER));
	EXPECT_EQ(expected, errno_of(unshare(CLONE_NEWNS)));
	EXPECT_EQ(expected, errno_of(mount("none", mnt, "tmpfs", 0, NULL)));
	EXPECT_EQ(expected, errno_of(fsopen("tmpfs", FSOPEN_CLOEXEC)));
	EXPECT_EQ(expected, errno_of(open_tree(AT_FDCWD, mnt, OPEN_TREE_CLONE)));
	EXPECT_EQ(expected, errno_of(mount_setattr(AT_FDCWD, mnt, 0, &attr,
						   sizeof(attr))));
}

TEST_F(tree, mount_family_after_unshare_of_user_and_mount_ns_is_eperm)
{
	const char *mnt = at(self->base, "a/empty");
	pid_t child;
	int status;

	/* Unmapped in the new user namespace, root is "others" here. */
	ASSERT_EQ(0, chmod(self->base, 0755));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		/* The same calls without a veil: they work. */
		mount_in_own_user_namespace(_metadata, mnt, 0);
		_exit(_metadata->exit_code);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	UNVEIL(at(self->base, "a"), "rwxc");
	mount_in_own_user_namespace(_metadata, mnt, EPERM);
}

TEST_F(tree, chroot_into_a_hidden_directory_is_enoent)
{
	UNVEIL(at(self->base, "a"), "r");
	EXPECT_EQ(ENOENT, errno_of(chroot(at(self->base, "b"))));
	EXPECT_EQ(0, errno_of(chroot(at(self->base, "a"))));
}

TEST_F(tree, chroot_then_dotdot_gives_nothing)
{
	UNVEIL(at(self->base, "a"), "r");
	ASSERT_EQ(0, chdir(at(self->base, "a")));
	ASSERT_EQ(0, chroot("."));
	/* Outside the new root, as cwd still is: judged where it is. */
	EXPECT_EQ(ENOENT, open_errno("../b/f4", O_RDONLY));
}

/* unveil-unmount: rules never keep a file system busy */
TEST_F(tree, unmount_succeeds_and_its_rules_vanish)
{
	const char *mnt = at(self->base, "a/empty");
	int go[2], done[2], status;
	pid_t child;
	char c;

	ASSERT_EQ(0, mount("none", mnt, "tmpfs", 0, NULL));
	ASSERT_EQ(0, mkdir(at(self->base, "a/empty/dir"), 0755));
	write_file(at(self->base, "a/empty/dir/file"), "x");
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (unveil_errno(at(self->base, "a/empty/dir"), "r") ||
		    open_errno(at(self->base, "a/empty/dir/file"), O_RDONLY))
			_exit(1);
		if (write(done[1], "u", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(open_errno(at(self->base, "a/empty/dir/file"), O_RDONLY));
	}
	ASSERT_EQ(1, read(done[0], &c, 1));
	EXPECT_EQ(0, umount2(mnt, 0));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(ENOENT, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
