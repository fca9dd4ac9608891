// SPDX-License-Identifier: GPL-2.0
/*
 * unveil selftests - overlayfs as containers use it: a read-only lower
 * layer, an upper layer, and the merged view mounted before the veil.
 *
 * The files of an overlay are the overlay's own: they are judged where the
 * overlay is mounted, and rules on its layers do not reach through it; what
 * the overlay does with its layers (copy-up, whiteouts, redirects) for a
 * call the veil allowed is not judged again, and a call the veil refused
 * leaves the layers as they were (Documentation/userspace-api/unveil.rst).
 *
 * Every test runs in a mount namespace of its own, with a tmpfs of its own
 * mounted on a fresh directory in /tmp, which holds:
 *   lower/f  lower/g  lower/d/file  lower/d/sub/
 *   upper/  work/  merged/
 * and the overlay of lower and upper on merged.  An observer, forked before
 * the veil, looks at the layers for the test.  The namespace, and with it
 * the tmpfs and the overlay, goes away with the test's process; only the
 * empty directory is left, for the harness's process to remove.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/xattr.h>

#include "../kselftest_harness.h"
#include "common.h"

/* Dropping the caches takes seconds on a debug kernel. */
#define TIMEOUT 180

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif

FIXTURE(overlay) {
	char base[64];
	/* The observer, for the harness's process to wait for. */
	pid_t observer_pid;
};

/* The socket to the observer, in the test's process. */
static int observer = -1;

/* What the observer does with a path. */
enum observation {
	/* lstat(): 0 if something is there, else the errno. */
	OBSERVE_LSTAT = 'l',
	/* 0 if a whiteout (a 0:0 character device) is there, else EINVAL. */
	OBSERVE_WHITEOUT = 'w',
	/* Drops unused dentries and inodes from the caches: 0 or the errno. */
	OBSERVE_DROP_CACHES = 'd',
	/* Unmounts the overlay and mounts it again: 0 or the errno. */
	OBSERVE_REMOUNT = 'm',
};

struct observer_request {
	char op;
	char path[PATH_MAX];
};

/* Mounts the overlay of lower and upper on merged, with @extra options. */
static int mount_merged(const char *base, const char *extra)
{
	char options[512];

	snprintf(options, sizeof(options),
		 "lowerdir=%s,upperdir=%s,workdir=%s%s%s", at(base, "lower"),
		 at(base, "upper"), at(base, "work"), extra ? "," : "",
		 extra ? extra : "");
	return mount("overlay", at(base, "merged"), "overlay", 0, options);
}

static int observe_one(const struct observer_request *req)
{
	char merged[PATH_MAX + 8];
	int fd, err = EINVAL;
	struct stat st;

	switch (req->op) {
	case OBSERVE_LSTAT:
		return errno_of(lstat(req->path, &st));
	case OBSERVE_WHITEOUT:
		err = errno_of(lstat(req->path, &st));
		if (!err && (!S_ISCHR(st.st_mode) || st.st_rdev))
			err = EINVAL;
		return err;
	case OBSERVE_DROP_CACHES:
		fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
		if (fd < 0)
			return errno;
		err = write(fd, "2", 1) == 1 ? 0 : errno;
		close(fd);
		return err;
	case OBSERVE_REMOUNT:
		snprintf(merged, sizeof(merged), "%s/merged", req->path);
		if (umount2(merged, 0))
			return errno;
		return mount_merged(req->path, NULL) ? errno : 0;
	}
	return err;
}

/* Answers the requests on @sock until the test's process goes away. */
static void serve_observer(int sock)
{
	struct observer_request req;
	int answer;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (recv(sock, &req, sizeof(req), 0) == sizeof(req)) {
		req.path[sizeof(req.path) - 1] = '\0';
		answer = observe_one(&req);
		if (send(sock, &answer, sizeof(answer), 0) != sizeof(answer))
			break;
	}
	_exit(0);
}

/* Asks the observer to do @op on @path; returns its answer, or -1. */
static int observe(char op, const char *path)
{
	struct observer_request req = { .op = op };
	int answer;

	snprintf(req.path, sizeof(req.path), "%s", path);
	if (send(observer, &req, sizeof(req), 0) != sizeof(req) ||
	    recv(observer, &answer, sizeof(answer), 0) != sizeof(answer))
		return -1;
	return answer;
}

FIXTURE_SETUP(overlay)
{
	static const char *const dirs[] = {
		"lower", "lower/d", "lower/d/sub", "upper", "work", "merged",
	};
	int sock[2];
	pid_t pid;
	size_t i;

	snprintf(self->base, sizeof(self->base), "/tmp/unveil-overlay.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->base));
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_EQ(0, mount("none", self->base, "tmpfs", 0, "mode=0755"));
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		ASSERT_EQ(0, mkdir(at(self->base, dirs[i]), 0755));
	write_file(at(self->base, "lower/f"), "lower f");
	write_file(at(self->base, "lower/g"), "lower g");
	write_file(at(self->base, "lower/d/file"), "lower d/file");
	ASSERT_EQ(0, mount_merged(self->base, NULL));

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0,
				sock));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(sock[0]);
		serve_observer(sock[1]);
	}
	close(sock[1]);
	observer = sock[0];
	self->observer_pid = pid;
}

/*
 * In the harness's process, which has none of the test's mounts: they go
 * away with the test's mount namespace, once the observer, which dies with
 * the test's process, has left it too.  Removing the directory before
 * could leave the mounts on it stuck, detached, for good.
 */
FIXTURE_TEARDOWN_PARENT(overlay)
{
	struct pollfd pidfd = { .events = POLLIN };

	pidfd.fd = syscall(__NR_pidfd_open, self->observer_pid, 0);
	if (pidfd.fd >= 0) {
		poll(&pidfd, 1, 10000);
		close(pidfd.fd);
	}
	EXPECT_EQ(0, rmdir(self->base));
}

/* Writes base/@rel into @buf, which outlives the buffers of at(). */
static void keep_path(char buf[PATH_MAX], const char *base, const char *rel)
{
	snprintf(buf, PATH_MAX, "%s/%s", base, rel);
}

/* Appends @text to @path; returns 0 or the errno. */
static int append(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/* Copy-up: writing a lower file makes a new inode in the upper layer */

/*
 * A name rule is the name in the overlay's directory, whichever layer holds
 * the file: it keeps applying to the copy in the upper layer.
 */
TEST_F_TIMEOUT(overlay, rule_on_a_lower_file_holds_for_its_copy_up, TIMEOUT)
{
	char f[PATH_MAX];
	char buf[32];

	keep_path(f, self->base, "merged/f");
	/* A sibling already in the upper layer stays hidden too. */
	ASSERT_EQ(0, append(at(self->base, "merged/g"), "!"));
	ASSERT_EQ(0, observe(OBSERVE_LSTAT, at(self->base, "upper/g")));
	ASSERT_EQ(ENOENT, observe(OBSERVE_LSTAT, at(self->base, "upper/f")));
	UNVEIL(f, "rw");
	EXPECT_EQ(0, append(f, "!"));
	ASSERT_EQ(0, observe(OBSERVE_LSTAT, at(self->base, "upper/f")));
	EXPECT_EQ(0, read_at(AT_FDCWD, f, buf, sizeof(buf)));
	EXPECT_STREQ("lower f!", buf);
	EXPECT_EQ(0, open_errno(f, O_RDWR));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "merged/g"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "merged/d/file"),
				     O_RDONLY));
	/* And after the kernel forgot the overlay's dentries. */
	ASSERT_EQ(0, observe(OBSERVE_DROP_CACHES, ""));
	EXPECT_EQ(0, open_errno(f, O_RDWR));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "merged/g"), O_RDONLY));
}

/* The veil refuses before overlayfs copies up: the layers stay as they were. */
TEST_F(overlay, read_only_rule_on_a_lower_file_refuses_writes_without_copy_up)
{
	char f[PATH_MAX];
	const struct timeval times[2] = {};
	char buf[32];

	keep_path(f, self->base, "merged/f");
	UNVEIL(f, "r");
	EXPECT_EQ(EACCES, open_errno(f, O_WRONLY));
	EXPECT_EQ(EACCES, open_errno(f, O_RDWR));
	EXPECT_EQ(EACCES, open_errno(f, O_RDONLY | O_TRUNC));
	EXPECT_EQ(EACCES, errno_of(truncate(f, 0)));
	EXPECT_EQ(EACCES, errno_of(chmod(f, 0600)));
	EXPECT_EQ(EACCES, errno_of(utimes(f, times)));
	EXPECT_EQ(ENOENT, observe(OBSERVE_LSTAT, at(self->base, "upper/f")));
	EXPECT_EQ(0, read_at(AT_FDCWD, f, buf, sizeof(buf)));
	EXPECT_STREQ("lower f", buf);
}

/*
 * A directory rule is tied to the overlay's inode of the directory, which
 * stays the same when overlayfs copies the directory up (here, to create a
 * file in it), and which overlayfs finds again by its lower directory.
 */
TEST_F_TIMEOUT(overlay, rule_on_a_lower_directory_holds_after_its_copy_up,
	       TIMEOUT)
{
	char file[PATH_MAX];

	keep_path(file, self->base, "merged/d/new");
	UNVEIL(at(self->base, "merged/d"), "rwc");
	ASSERT_EQ(ENOENT, observe(OBSERVE_LSTAT, at(self->base, "upper/d")));
	EXPECT_EQ(0, open_errno(file, O_WRONLY | O_CREAT));
	ASSERT_EQ(0, observe(OBSERVE_LSTAT, at(self->base, "upper/d/new")));
	EXPECT_EQ(0, open_errno(file, O_RDWR));
	EXPECT_EQ(0, open_errno(at(self->base, "merged/d/file"), O_RDWR));
	EXPECT_EQ(0, errno_of(mkdir(at(self->base, "merged/d/dir"), 0755)));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "merged/f"), O_RDONLY));
	ASSERT_EQ(0, observe(OBSERVE_DROP_CACHES, ""));
	EXPECT_EQ(0, open_errno(file, O_RDWR));
	EXPECT_EQ(0, open_errno(at(self->base, "merged/d/file"), O_RDWR));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "merged/f"), O_RDONLY));
}

/* Path of merged/d/@rel. */
static const char *in_d(const char *base, const char *rel)
{
	static char bufs[4][128];
	static int next;
	char *buf = bufs[next++ % 4];

	snprintf(buf, sizeof(bufs[0]), "%s/merged/d%s%s", base, *rel ? "/" : "",
		 rel);
	return buf;
}

/* errno of binding an AF_UNIX socket to @path, 0 on success. */
static int bind_errno(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	int err;

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	err = errno_of(bind(fd, (struct sockaddr *)&addr, sizeof(addr)));
	close(fd);
	return err;
}

/*
 * Every call that would make, remove or change something in a lower
 * directory copies it up first; refused, it leaves the layers as they were.
 */
TEST_F(overlay, calls_refused_in_a_lower_directory_copy_nothing_up)
{
	const struct timeval times[2] = {};
	const char *base = self->base;

	UNVEIL(in_d(base, ""), "r");
	EXPECT_EQ(EACCES, open_errno(in_d(base, "new"), O_WRONLY | O_CREAT));
	EXPECT_EQ(EACCES, open_errno(in_d(base, "file"), O_RDONLY | O_CREAT));
	EXPECT_EQ(EACCES, errno_of(mkdir(in_d(base, "new"), 0755)));
	EXPECT_EQ(EACCES, errno_of(mkfifo(in_d(base, "new"), 0644)));
	EXPECT_EQ(EACCES, bind_errno(in_d(base, "new")));
	EXPECT_EQ(EACCES, errno_of(symlink("file", in_d(base, "new"))));
	EXPECT_EQ(EACCES, errno_of(link(in_d(base, "file"),
					in_d(base, "new"))));
	EXPECT_EQ(EACCES, errno_of(rename(in_d(base, "file"),
					  in_d(base, "new"))));
	EXPECT_EQ(EACCES, errno_of(unlink(in_d(base, "file"))));
	EXPECT_EQ(EACCES, errno_of(rmdir(in_d(base, "sub"))));
	EXPECT_EQ(EACCES, errno_of(truncate(in_d(base, "file"), 0)));
	EXPECT_EQ(EACCES, errno_of(chmod(in_d(base, "file"), 0600)));
	EXPECT_EQ(EACCES, errno_of(chmod(in_d(base, ""), 0700)));
	EXPECT_EQ(EACCES, errno_of(chown(in_d(base, "file"), 1, 1)));
	EXPECT_EQ(EACCES, errno_of(utimes(in_d(base, "sub"), times)));
	EXPECT_EQ(EACCES, errno_of(setxattr(in_d(base, "file"), "user.x", "1",
					    1, 0)));
	EXPECT_EQ(EACCES, errno_of(removexattr(in_d(base, "file"),
					       "user.x")));
	/* Overlayfs copies the directory up before it makes the file. */
	EXPECT_EQ(EACCES, open_errno(in_d(base, ""), O_TMPFILE | O_RDWR));
	EXPECT_EQ(ENOENT, observe(OBSERVE_LSTAT, at(base, "upper/d")));
}

TEST_F(overlay, o_tmpfile_in_a_hidden_lower_directory_copies_nothing_up)
{
	UNVEIL(at(self->base, "merged/f"), "rwc");
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "merged/d"),
				     O_TMPFILE | O_RDWR));
	EXPECT_EQ(ENOENT, observe(OBSERVE_LSTAT, at(self->base, "upper/d")));
}

TEST_F(overlay, o_tmpfile_in_a_lower_directory_with_c_copies_it_up)
{
	UNVEIL(at(self->base, "merged/d"), "rwc");
	EXPECT_EQ(0, open_errno(at(self->base, "merged/d"),
				O_TMPFILE | O_RDWR));
	EXPECT_EQ(0, observe(OBSERVE_LSTAT, at(self->base, "upper/d")));
}

/* Whiteouts: removing a lower file or directory leaves one in the upper */

/*
 * The whiteout is a 0:0 device node that overlayfs makes itself, for an
 * unlink the veil allowed: not a mknod() of the process, which would be
 * EPERM.
 */
TEST_F(overlay, unlink_of_a_lower_file_with_c_leaves_a_whiteout)
{
	char file[PATH_MAX];

	keep_path(file, self->base, "merged/d/file");
	UNVEIL(at(self->base, "merged/d"), "rwc");
	EXPECT_EQ(0, errno_of(unlink(file)));
	EXPECT_EQ(0, observe(OBSERVE_WHITEOUT, at(self->base, "upper/d/file")));
	EXPECT_EQ(0, observe(OBSERVE_LSTAT, at(self->base, "lower/d/file")));
	EXPECT_EQ(ENOENT, open_errno(file, O_RDONLY));
	EXPECT_EQ(ENOENT, errno_of(access(file, F_OK)));
}

TEST_F(overlay, unlink_of_a_lower_file_without_c_is_eacces_with_no_whiteout)
{
	char file[PATH_MAX];

	keep_path(file, self->base, "merged/d/file");
	UNVEIL(at(self->base, "merged/d"), "rw");
	EXPECT_EQ(EACCES, errno_of(unlink(file)));
	EXPECT_EQ(ENOENT, observe(OBSERVE_LSTAT, at(self->base, "upper/d")));
	EXPECT_EQ(0, open_errno(file, O_RDONLY));
}

TEST_F(overlay, rmdir_of_a_lower_directory_with_c_leaves_a_whiteout)
{
	char sub[PATH_MAX];

	keep_path(sub, self->base, "merged/d/sub");
	UNVEIL(at(self->base, "merged/d"), "rwc");
	EXPECT_EQ(0, errno_of(rmdir(sub)));
	EXPECT_EQ(0, observe(OBSERVE_WHITEOUT, at(self->base, "upper/d/sub")));
	EXPECT_EQ(0, observe(OBSERVE_LSTAT, at(self->base, "lower/d/sub")));
	EXPECT_EQ(ENOENT, open_errno(sub, O_RDONLY | O_DIRECTORY));
}

TEST_F(overlay, rmdir_of_a_lower_directory_without_c_is_eacces_with_no_whiteout)
{
	char sub[PATH_MAX];

	keep_path(sub, self->base, "merged/d/sub");
	UNVEIL(at(self->base, "merged/d"), "rw");
	EXPECT_EQ(EACCES, errno_of(rmdir(sub)));
	EXPECT_EQ(ENOENT, observe(OBSERVE_LSTAT, at(self->base, "upper/d")));
	EXPECT_EQ(0, open_errno(sub, O_RDONLY | O_DIRECTORY));
}

/*
 * Renaming a lower file leaves a whiteout at the old name, which overlayfs
 * makes in the upper layer with its own rename(RENAME_WHITEOUT): that is
 * the overlay's work for an allowed rename, not the process's
 * RENAME_WHITEOUT, which the veil refuses with EPERM.
 */
TEST_F(overlay, rename_of_a_lower_file_is_not_refused_for_its_whiteout)
{
	char buf[32];

	UNVEIL(at(self->base, "merged"), "rwc");
	EXPECT_EQ(0, errno_of(rename(at(self->base, "merged/f"),
				     at(self->base, "merged/h"))));
	EXPECT_EQ(0, observe(OBSERVE_WHITEOUT, at(self->base, "upper/f")));
	EXPECT_EQ(0, read_at(AT_FDCWD, at(self->base, "merged/h"), buf,
			     sizeof(buf)));
	EXPECT_STREQ("lower f", buf);
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "merged/f"), O_RDONLY));
}

/* Directories renamed across layers */

/*
 * Without redirect_dir (the default here, CONFIG_OVERLAY_FS_REDIRECT_DIR
 * is off), overlayfs does not move a directory that has a lower layer:
 * EXDEV, so that mv(1) copies it.  The veil allows the rename (the
 * directory keeps rwc under merged), the error is overlayfs's own, and
 * nothing moved.
 */
TEST_F(overlay, rename_of_a_lower_directory_without_redirect_dir_is_exdev)
{
	UNVEIL(at(self->base, "merged"), "rwc");
	EXPECT_EQ(EXDEV, errno_of(rename(at(self->base, "merged/d"),
					 at(self->base, "merged/moved"))));
	EXPECT_EQ(ENOENT,
		  observe(OBSERVE_LSTAT, at(self->base, "upper/moved")));
	EXPECT_EQ(0, open_errno(at(self->base, "merged/d/file"), O_RDWR));
}

/*
 * With redirect_dir=on, overlayfs copies the directory up under its new
 * name, with a redirect to its lower directory.  The rule follows it, as on
 * any file system (fs_test: directory_rule_follows_renames): the rename
 * moves the overlay's dentry with its inode, which the rule is tied to, and
 * once the kernel forgot the dentry, a lookup of the new name follows the
 * redirect to the same lower directory, by which overlayfs finds that inode
 * again.  "rc" on d, under "rwc" on merged: a write in d, which merged
 * would allow, shows that d still has its own rule.
 */
TEST_F_TIMEOUT(overlay, rule_follows_a_directory_renamed_with_redirect_dir,
	       TIMEOUT)
{
	char file[PATH_MAX];

	keep_path(file, self->base, "merged/moved/file");
	ASSERT_EQ(0, umount2(at(self->base, "merged"), 0));
	ASSERT_EQ(0, mount_merged(self->base, "redirect_dir=on"));
	UNVEIL(at(self->base, "merged"), "rwc");
	UNVEIL(at(self->base, "merged/d"), "rc");
	ASSERT_EQ(0, errno_of(rename(at(self->base, "merged/d"),
				     at(self->base, "merged/moved"))));
	ASSERT_EQ(0, observe(OBSERVE_LSTAT, at(self->base, "upper/moved")));
	EXPECT_EQ(0, open_errno(file, O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(file, O_WRONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "merged/f"), O_RDWR));
	ASSERT_EQ(0, observe(OBSERVE_DROP_CACHES, ""));
	EXPECT_EQ(0, open_errno(file, O_RDONLY));
	EXPECT_EQ(EACCES, open_errno(file, O_WRONLY));
}

/* Unmounting an overlay */

/*
 * Rules on the overlay's directories never keep it busy, and vanish with
 * it: mounted again on the same layers, it is a new file system with new
 * inodes, which the old rules do not cover.
 */
TEST_F(overlay, overlay_mounted_again_is_not_covered_by_its_old_rules)
{
	char file[PATH_MAX];

	keep_path(file, self->base, "merged/d/file");
	UNVEIL(at(self->base, "merged/d"), "r");
	ASSERT_EQ(0, open_errno(file, O_RDONLY));
	EXPECT_EQ(0, observe(OBSERVE_REMOUNT, self->base));
	EXPECT_EQ(ENOENT, open_errno(file, O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "merged/d"),
				     O_RDONLY | O_DIRECTORY));
}

/* The layers and the merged view are different objects */

TEST_F(overlay, rule_on_a_lower_directory_reveals_nothing_in_the_merged_view)
{
	UNVEIL(at(self->base, "lower/d"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "lower/d/file"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "merged/d/file"),
				     O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "merged/d"),
				     O_RDONLY | O_DIRECTORY));
}

TEST_F(overlay, rule_on_a_merged_directory_reveals_nothing_in_the_layers)
{
	/* d is then in both layers. */
	ASSERT_EQ(0, open_errno(at(self->base, "merged/d/new"),
				O_WRONLY | O_CREAT));
	ASSERT_EQ(0, observe(OBSERVE_LSTAT, at(self->base, "upper/d/new")));
	UNVEIL(at(self->base, "merged/d"), "r");
	EXPECT_EQ(0, open_errno(at(self->base, "merged/d/file"), O_RDONLY));
	EXPECT_EQ(0, open_errno(at(self->base, "merged/d/new"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "lower/d/file"),
				     O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "upper/d/new"),
				     O_RDONLY));
}

/*
 * Hidden layers do not restrict the merged view: copy-up, whiteouts and
 * new files in the upper layer are the overlay's work for calls the veil
 * allowed on the merged view, and are not judged again.
 */
TEST_F(overlay, rules_on_the_layers_do_not_restrict_the_merged_view)
{
	UNVEIL(at(self->base, "merged"), "rwc");
	UNVEIL(at(self->base, "lower"), "");
	UNVEIL(at(self->base, "upper"), "");
	UNVEIL(at(self->base, "work"), "");
	EXPECT_EQ(0, append(at(self->base, "merged/f"), "!"));
	EXPECT_EQ(0, open_errno(at(self->base, "merged/d/new"),
				O_WRONLY | O_CREAT));
	EXPECT_EQ(0, errno_of(unlink(at(self->base, "merged/g"))));
	EXPECT_EQ(0, errno_of(rmdir(at(self->base, "merged/d/sub"))));
	EXPECT_EQ(0, observe(OBSERVE_LSTAT, at(self->base, "upper/f")));
	EXPECT_EQ(0, observe(OBSERVE_WHITEOUT, at(self->base, "upper/g")));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "upper/f"), O_RDONLY));
	EXPECT_EQ(ENOENT, open_errno(at(self->base, "lower/f"), O_RDONLY));
}

TEST_HARNESS_MAIN
