// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - System call
 */

#include <linux/cleanup.h>
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <uapi/linux/unveil.h>

#include "access.h"
#include "common.h"
#include "inspect.h"
#include "object.h"
#include "procfs.h"
#include "ruleset.h"
#include "setup.h"
#include "veil.h"

/**
 * struct unveil_target - What one unveil() call names
 *
 * An existing directory gets a directory rule; anything else (a file, or a
 * name that does not exist yet) gets a name rule in its parent directory.
 */
struct unveil_target {
	/** @path: The directory itself, or the parent directory of @name. */
	struct path path;
	/** @file: The file that @name names, if it exists; else empty. */
	struct path file;
	/** @name: Final component for a name rule, NULL for a directory rule. */
	const char *name;
	/** @name_buf: Storage behind @name when it was copied from a dentry. */
	struct name_snapshot name_buf;
	/** @has_snapshot: @name_buf holds a reference to release. */
	bool has_snapshot;
};

static void release_target(struct unveil_target *const target)
{
	if (target->has_snapshot)
		release_dentry_name_snapshot(&target->name_buf);
	path_put(&target->path);
	path_put(&target->file);
}

/*
 * Name rule for a path that does not exist (yet): the parent must exist.  A
 * trailing slash asks for a directory, which a missing name cannot be.
 */
static int resolve_missing(const char *const pathname,
			   struct unveil_target *const target)
{
	const char *const slash = strrchr(pathname, '/');
	char *parent;
	int err;

	target->name = slash ? slash + 1 : pathname;
	if (!target->name[0])
		return -ENOENT;
	/* Not every file system's lookup says so: procfs finds no entry. */
	if (strlen(target->name) > NAME_MAX)
		return -ENAMETOOLONG;
	if (!slash)
		return kern_path(".", LOOKUP_FOLLOW, &target->path);
	if (slash == pathname)
		return kern_path("/", LOOKUP_FOLLOW, &target->path);

	parent = kmemdup_nul(pathname, slash - pathname, GFP_KERNEL);
	if (!parent)
		return -ENOMEM;
	err = kern_path(parent, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &target->path);
	kfree(parent);
	return err;
}

/*
 * unveil()'s own lookups are never judged by the veil: the file system hooks
 * only see the calls that use what a lookup found.
 */
static int resolve_target(const char *const pathname,
			  struct unveil_target *const target)
{
	struct path found;
	int err;

	err = kern_path(pathname, LOOKUP_FOLLOW, &found);
	if (err == -ENOENT)
		return resolve_missing(pathname, target);
	if (err)
		return err;

	if (d_is_dir(found.dentry)) {
		target->path = found;
		return 0;
	}
	/*
	 * The rule names the file where the symlinks led, in its directory; a
	 * file mounted over another one is named by its mountpoint, as the
	 * checks see it.
	 */
	while (found.dentry == found.mnt->mnt_root && follow_up(&found))
		;
	take_dentry_name_snapshot(&target->name_buf, found.dentry);
	target->has_snapshot = true;
	target->name = target->name_buf.name.name;
	target->path.mnt = mntget(found.mnt);
	target->path.dentry = dget_parent(found.dentry);
	target->file = found;
	return 0;
}

/*
 * Whether @name is a short name as vfat and SMB servers make them: up to
 * eight characters, then a dot and up to three, each of those that a short
 * name may hold; and no '~', which the short names they make up hold.
 */
static bool is_plain_short_name(const char *const name)
{
	const char *const dot = strchr(name, '.');
	const size_t base = dot ? dot - name : strlen(name);
	const size_t ext = dot ? strlen(dot + 1) : 0;
	const char *c;

	if (!base || base > 8 || ext > 3)
		return false;
	if (dot && (!ext || strchr(dot + 1, '.')))
		return false;
	for (c = name; *c; c++) {
		if (c != dot && !(*c >= 'A' && *c <= 'Z') &&
		    !(*c >= 'a' && *c <= 'z') && !(*c >= '0' && *c <= '9') &&
		    !strchr("!#$%&'()-@^_`{}", *c))
			return false;
	}
	return true;
}

/*
 * Whether a name rule for @name in a directory of @sb would hold for every
 * name of a file made there: vfat and SMB servers answer, for a longer
 * name, to a short one they make up when the file is made (SECRET~1.TXT
 * for secret-long-name.txt), which no rule could name in advance.
 */
static bool name_keeps_its_rule(const struct super_block *const sb,
				const char *const name)
{
	const bool makes_up_names =
		(sb->s_magic == MSDOS_SUPER_MAGIC &&
		 !strcmp(sb->s_type->name, "vfat")) ||
		sb->s_magic == CIFS_SUPER_MAGIC || sb->s_magic == SMB2_SUPER_MAGIC;

	return !makes_up_names || is_plain_short_name(name);
}

/*
 * Whether the next lookup will find the directory of @target again, now
 * that its object holds (and where needed pins) it.  A file system that
 * makes a new directory on every lookup (procfs below /proc/PID/net) says
 * so when asked to revalidate it: the rule would lapse at once, and is
 * refused; so is a name rule that a made-up short name would get around.
 */
static int check_rule_is_kept(const struct unveil_target *const target)
{
	struct dentry *const dir = target->path.dentry;
	int valid;

	if (target->name && !name_keeps_its_rule(dir->d_sb, target->name))
		return -EOPNOTSUPP;
	if (!(dir->d_flags & DCACHE_OP_REVALIDATE))
		return 0;
	valid = dir->d_op->d_revalidate(dir, 0);
	if (valid < 0)
		return valid;
	return valid ? 0 : -EOPNOTSUPP;
}

/* unveil_ruleset_has_room() on the current rules, read without the lock. */
static bool current_rules_have_room(const struct unveil_object *const object,
				    const char *const name)
{
	guard(rcu)();
	return unveil_ruleset_has_room(unveil_current_rules(), object, name);
}

static int copy_permissions(const char __user *const permissions,
			    char (*const letters)[UNVEIL_PERMISSIONS_MAX + 1])
{
	const long len = strncpy_from_user(*letters, permissions,
					   sizeof(*letters));

	if (len < 0)
		return len;
	if (len == sizeof(*letters))
		return -ENAMETOOLONG;
	return 0;
}

/*
 * The directory of @target as the process names it now, kept to show the
 * rule (see attr.c).  Returns NULL if memory is short.
 */
static struct unveil_shown_path *
shown_path(const struct unveil_target *const target)
{
	struct unveil_shown_path *shown;
	char *const buf = __getname();
	const char *path;

	if (!buf)
		return NULL;
	path = d_path(&target->path, buf, PATH_MAX);
	/* Longer than PATH_MAX from the root: shown without a slash. */
	shown = unveil_shown_path_create(IS_ERR(path) ? "(too long)" : path);
	__putname(buf);
	return shown;
}

/**
 * struct unveil_covered - Directories that a mount root covers
 */
struct unveil_covered {
	/** @objects: Their objects, each with a reference. */
	struct unveil_object **objects;
	/** @count: Number of entries in @objects. */
	u32 count;
};

static void release_covered(struct unveil_covered *const covered)
{
	while (covered->count)
		unveil_object_put(covered->objects[--covered->count]);
	kfree(covered->objects);
}

/*
 * If @dir is the root of a mount: the directory that the mount covers, and
 * those that the mounts beneath it cover, down to the first that is no
 * mount's root.  A rule on @dir holds on them too, so that an
 * administrator who replaces the mount does not lift it.
 */
static int collect_covered(const struct path *const dir,
			   struct unveil_covered *const covered)
{
	struct path pos = *dir;
	int err = 0;

	path_get(&pos);
	while (pos.dentry == pos.mnt->mnt_root && follow_up(&pos)) {
		struct unveil_object **const objects =
			krealloc_array(covered->objects, covered->count + 1,
				       sizeof(*objects), GFP_KERNEL_ACCOUNT);
		struct unveil_object *object;

		if (!objects) {
			err = -ENOMEM;
			break;
		}
		covered->objects = objects;
		object = unveil_get_object(pos.dentry);
		if (IS_ERR(object)) {
			err = PTR_ERR(object);
			break;
		}
		objects[covered->count++] = object;
	}
	path_put(&pos);
	return err;
}

/*
 * The object of the file that a name rule names, if it exists: the rule
 * goes with the file too, so that its other names (hard links, a vfat
 * short name, another spelling in a case-folding directory) meet it.  On
 * procfs, where no file has two names, a rule is found by key.
 */
static struct unveil_object *
file_object(const struct unveil_target *const target)
{
	if (!target->file.dentry || unveil_is_procfs(target->file.dentry))
		return NULL;
	return unveil_get_object(target->file.dentry);
}

static int add_rule(const char *const pathname,
		    const struct unveil_target *const target,
		    const unveil_access_t access)
{
	struct unveil_inspect_set inspectable = {};
	struct unveil_covered covered = {};
	struct unveil_change change = {
		.name = target->name,
		.access = access,
	};
	int err;

	unveil_first_use();
	change.shown = shown_path(target);
	if (!change.shown)
		return -ENOMEM;
	change.object = unveil_get_object(target->path.dentry);
	if (IS_ERR(change.object)) {
		err = PTR_ERR(change.object);
		goto out_put_shown;
	}
	change.file = file_object(target);
	if (IS_ERR(change.file)) {
		err = PTR_ERR(change.file);
		change.file = NULL;
		goto out_put_object;
	}
	err = check_rule_is_kept(target);
	if (!err && !current_rules_have_room(change.object, change.name))
		err = -E2BIG;
	if (!err && !target->name)
		err = collect_covered(&target->path, &covered);
	if (!err)
		err = unveil_inspect_set_collect(&inspectable, pathname,
						 &target->path, !target->name);
	if (err)
		goto out_put_object;
	change.covered = covered.objects;
	change.num_covered = covered.count;
	change.inspectable = inspectable.entries;
	change.num_inspectable = inspectable.count;
	err = unveil_current_veil_add_rule(&change);
out_put_object:
	unveil_inspect_set_release(&inspectable);
	release_covered(&covered);
	unveil_object_put(change.file);
	unveil_object_put(change.object);
out_put_shown:
	unveil_shown_path_put(change.shown);
	return err;
}

/**
 * sys_unveil - Reveal a part of the file system, or lock the veil
 * @path: Directory or file to reveal, absolute or relative to the current
 *        directory; symlinks are followed.  The final component may not exist
 *        yet.  NULL together with @permissions NULL locks the veil.
 * @permissions: Zero or more of the letters "rwxc".
 *
 * The first successful call hides the whole file system from the calling
 * process, except what this and later calls reveal, and sets no_new_privs.
 * The veil is shared by all threads of the process, copied to children and
 * kept across execve().  unveil(NULL, NULL) forbids any further change.
 *
 * Returns: 0 on success, or
 *
 * - %EOPNOTSUPP: unveil is built in but not enabled at boot;
 * - %EPERM: the veil is locked, or (unveil(NULL, NULL)) it is learning;
 * - %EBUSY: the process can act as another process, which its veil would
 *   not bind: it traces one, shares its memory or descriptor table with
 *   one, maps another process's io_uring SQPOLL ring or holds another
 *   process's /proc/PID/mem open;
 * - %EFAULT: exactly one argument is NULL, or an argument points outside the
 *   process's address space;
 * - %ENAMETOOLONG: @permissions has more than four characters, @path is
 *   longer than PATH_MAX or a component longer than NAME_MAX;
 * - %EINVAL: @path is empty, or @permissions holds another character;
 * - %ENOENT, %ENOTDIR, %ELOOP, %EACCES: as for any path lookup (a missing
 *   final component is allowed);
 * - %EOPNOTSUPP: the file system makes a new directory for @path on every
 *   lookup (e.g. under /proc/PID/net), or gives a file made at the final
 *   name of @path a short name of its own (vfat, SMB: anything but an 8.3
 *   name), so no rule could be kept there;
 * - %E2BIG: the process would hold more than 1024 directory rules, 1024
 *   name rules or 16384 inspectable directories and names;
 * - %ENOMEM: memory is short.
 */
SYSCALL_DEFINE2(unveil, const char __user *, path,
		const char __user *, permissions)
{
	char letters[UNVEIL_PERMISSIONS_MAX + 1];
	struct unveil_target target = {};
	unveil_access_t access;
	struct unveil_veil *veil;
	struct filename *name;
	int err;

	if (!unveil_initialized)
		return -EOPNOTSUPP;
	if (!path && !permissions)
		return unveil_current_veil_lock();

	veil = unveil_current_veil();
	if (veil && READ_ONCE(veil->locked))
		return -EPERM;

	err = copy_permissions(permissions, &letters);
	if (err)
		return err;
	name = getname_flags(path, LOOKUP_EMPTY);
	if (IS_ERR(name))
		return PTR_ERR(name);
	if (!name->name[0]) {
		err = -EINVAL;
		goto out_putname;
	}

	err = resolve_target(name->name, &target);
	if (err)
		goto out_putname;
	err = unveil_parse_access(letters, &access);
	if (!err)
		err = add_rule(name->name, &target, access);
	release_target(&target);
out_putname:
	putname(name);
	return err;
}
