// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - File system hooks
 *
 * Every check judges the final object of a call, after the VFS resolved
 * symlinks, "..", magic links and mount points: the nearest rule on the real
 * ancestry of the object decides.  How the path was spelt, and from which
 * directory it was looked up, does not matter.
 *
 * Locking: a check takes no lock and no reference.  It walks up under
 * rcu_read_lock() (find_match_rcu()), and the rename_lock and mount_lock
 * sequence counts tell whether the walk raced with a change; after two such
 * races find_match() holds mount_lock (mount_read_lock_excl()) and then
 * rename_lock (read_seqlock_excl()), in that order, as d_path() does.  What
 * runs once a check failed (unveil_refuse()) runs after the walk, outside
 * RCU, and may sleep.
 */

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/fsnotify_backend.h>
#include <linux/lsm_hooks.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <uapi/linux/fcntl.h>

#include "access.h"
#include "common.h"
#include "fs.h"
#include "log.h"
#include "object.h"
#include "ruleset.h"
#include "setup.h"
#include "task.h"
#include "veil.h"

/**
 * struct unveil_match - The rule nearest to an object
 */
struct unveil_match {
	/** @kind: Kind of rule, or %UNVEIL_RULE_NONE if nothing covers it. */
	enum unveil_rule_kind kind;
	/** @access: Permissions of that rule. */
	unveil_access_t access;
	/**
	 * @inspectable: The object itself is inspectable (an ancestor of a
	 * rule's target, or a directory or symlink named on the way to it).
	 */
	bool inspectable;
};

/* Rules of the current process, or NULL.  Caller holds rcu_read_lock(). */
static const struct unveil_ruleset *current_rules(void)
{
	struct unveil_veil *const veil = unveil_current_veil();

	return veil ? rcu_dereference(veil->rules) : NULL;
}

/* Rules tied to the directory of @dentry, under RCU. */
static const struct unveil_dir *dir_of(const struct unveil_ruleset *rules,
				       const struct dentry *const dentry)
{
	const struct inode *const inode = READ_ONCE(dentry->d_inode);
	const struct unveil_object *object;

	if (!inode)
		return NULL;
	object = rcu_dereference(unveil_inode(inode)->object);
	return object ? unveil_ruleset_find(rules, object) : NULL;
}

/* Moves @path out of mount roots to the mountpoints they cover. */
static bool leave_mount_roots(struct path *const path)
{
	while (path->dentry == path->mnt->mnt_root)
		if (!follow_up_rcu(path))
			return false;
	return true;
}

/*
 * Moves @path one level up: from the root of a mount to the directory it
 * covers, whose rules then apply to what is mounted on it, or else to the
 * parent directory.  The layers of an overlay sit on private mounts
 * without a parent (see mount_is_internal()): above such a mount's root,
 * the walk goes on in its file system, so that a file of a layer is judged
 * by the rules on its real ancestors.  False at the real root, or at the
 * root of a detached mount.
 */
static bool step_up(struct path *const path)
{
	struct dentry *parent;

	if (path->dentry == path->mnt->mnt_root) {
		if (follow_up_rcu(path))
			return true;
		if (!mount_is_internal(path->mnt))
			return false;
	}
	parent = READ_ONCE(path->dentry->d_parent);
	if (parent == path->dentry)
		return false;
	path->dentry = parent;
	return true;
}

static const struct unveil_name_rule *
name_rule_of(const struct unveil_dir *const dir,
	     const struct dentry *const dentry)
{
	/*
	 * A rename may change the name under us: the pointer is read once
	 * and the name always ends with a NUL, as in dentry_cmp(); the caller
	 * retries if a rename happened.
	 */
	const char *const name = smp_load_acquire(&dentry->d_name.name);
	size_t len;
	const u32 hash = unveil_name_hash(name, NAME_MAX, &len);

	return unveil_dir_find_name(dir, name, len, hash);
}

/*
 * Finds the rule nearest to @pos, under RCU, without taking references.
 * @by_name: judge @pos as a name in its parent directory (anything but an
 * existing directory: files, and names being created or removed); otherwise
 * @pos is a directory, judged by its own rule first.
 */
static struct unveil_match find_match_rcu(const struct unveil_ruleset *rules,
					  struct path pos, const bool by_name)
{
	struct unveil_match match = {};
	const struct dentry *name = NULL;
	const struct unveil_dir *dir;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "walk outside RCU");
	if (by_name) {
		if (!leave_mount_roots(&pos))
			return match;
		name = pos.dentry;
		pos.dentry = READ_ONCE(name->d_parent);
		if (pos.dentry == name)
			return match;
	}
	dir = dir_of(rules, pos.dentry);
	if (!name)
		match.inspectable = dir && dir->inspectable;
	for (;;) {
		if (name && dir && dir->num_names) {
			const struct unveil_name_rule *const entry =
				name_rule_of(dir, name);

			match.inspectable = entry && entry->inspectable;
			if (entry && entry->is_rule) {
				match.kind = UNVEIL_RULE_NAME;
				match.access = entry->access;
				return match;
			}
		}
		name = NULL;
		if (dir && dir->has_rule) {
			match.kind = UNVEIL_RULE_DIR;
			match.access = dir->access;
			return match;
		}
		if (!step_up(&pos))
			return match;
		dir = dir_of(rules, pos.dentry);
	}
}

/*
 * Finds the rule nearest to @pos, again if a rename or a mount change raced
 * with the walk.  The caller holds rcu_read_lock().
 */
static struct unveil_match find_match(const struct unveil_ruleset *rules,
				      const struct path *const pos,
				      const bool by_name)
{
	struct unveil_match match;
	unsigned int rseq, mseq;
	int tries;

	for (tries = 0; tries < 2; tries++) {
		rseq = read_seqbegin(&rename_lock);
		mseq = mount_seqbegin();
		match = find_match_rcu(rules, *pos, by_name);
		if (!read_seqretry(&rename_lock, rseq) && !mount_seqretry(mseq))
			return match;
	}
	/*
	 * Renames or mount changes keep racing with us (anywhere in the
	 * system): hold both off for one walk, as d_path() does.
	 */
	mount_read_lock_excl();
	read_seqlock_excl(&rename_lock);
	match = find_match_rcu(rules, *pos, by_name);
	read_sequnlock_excl(&rename_lock);
	mount_read_unlock_excl();
	return match;
}

/*
 * Objects of internal file systems (pipes, sockets, memfd) have no path.
 * The private mounts of an overlay's layers are not such: a file there is
 * judged by its real ancestry (see step_up()), whoever asks and with
 * whatever credentials.
 */
static bool is_pathless(const struct path *const path)
{
	const struct inode *const inode = d_backing_inode(path->dentry);

	return (path->mnt->mnt_flags & MNT_INTERNAL) ||
	       (path->mnt->mnt_sb->s_flags & SB_NOUSER) ||
	       (inode && IS_PRIVATE(inode));
}

/* check_current() once some process may have a veil. */
static int judge_current(const struct path *const pos, const bool by_name,
			 const unveil_access_t needed, const char *const op)
{
	const struct unveil_ruleset *rules;
	struct unveil_match match;
	int err;

	rcu_read_lock();
	rules = current_rules();
	if (!rules || is_pathless(pos)) {
		rcu_read_unlock();
		return 0;
	}
	match = find_match(rules, pos, by_name);
	rcu_read_unlock();
	if ((needed & UNVEIL_ACCESS_INSPECT) && match.inspectable)
		return 0;
	err = unveil_verdict(match.kind, match.access,
			     needed & ~UNVEIL_ACCESS_INSPECT);
	if (err)
		err = unveil_refuse(op, pos, needed, match.access, err);
	return err;
}

/*
 * Judges @pos for the current process, for the operation @op.  @by_name as
 * for find_match_rcu().  Inlined into every hook, so that until the first
 * unveil() in the system a hook does nothing but return, and a process
 * without a veil only looks for it.
 *
 * Returns: 0 if allowed, -ENOENT if hidden, -EACCES if a permission is
 * missing.
 */
static __always_inline int check_current(const struct path *const pos,
					 const bool by_name,
					 const unveil_access_t needed,
					 const char *const op)
{
	if (!unveil_used_anywhere() || !unveil_current_veil())
		return 0;
	return judge_current(pos, by_name, needed, op);
}

/* check_name() once some process may have a veil. */
static noinline int judge_name(const struct path *const dir,
			       struct dentry *const dentry,
			       const unveil_access_t needed,
			       const char *const op)
{
	const struct path pos = { .mnt = dir->mnt, .dentry = dentry };

	return check_current(&pos, true, needed, op);
}

/* Judges a name in a directory: creation, removal. */
static __always_inline int check_name(const struct path *const dir,
				      struct dentry *const dentry,
				      const unveil_access_t needed,
				      const char *const op)
{
	if (!unveil_used_anywhere())
		return 0;
	return judge_name(dir, dentry, needed, op);
}

/* Judges an existing object: by its name unless it is a directory. */
static __always_inline int check_object(const struct path *const path,
					const unveil_access_t needed,
					const char *const op)
{
	return check_current(path, !d_is_dir(path->dentry), needed, op);
}

/*
 * Permissions an object would get at @pos: what the nearest rule grants, or
 * nothing if it is hidden.  @by_name as for find_match_rcu().
 */
static unveil_access_t effective_access(const struct unveil_ruleset *rules,
					const struct path *const pos,
					const bool by_name)
{
	const struct unveil_match match = find_match(rules, pos, by_name);

	return unveil_verdict(match.kind, match.access, 0) ? 0 : match.access;
}

/*
 * Link and rename must not give a file more access than it had where it
 * was: a file the veil lets the process only read must not become writable
 * under a new name.  As Landlock does, refuse with -EXDEV, so that tools
 * like mv(1) fall back to copying, which needs read access to the source
 * and create access at the target anyway.
 */
/*
 * @from is the object; @to its new name, or for a directory (!@by_name) the
 * directory it moves into.  @op names the operation.
 */
static int check_no_more_access(const struct path *const from,
				const struct path *const to, const bool by_name,
				const char *const op)
{
	const struct unveil_ruleset *rules;
	const struct unveil_dir *own;
	unveil_access_t had, gets;

	if (!unveil_used_anywhere())
		return 0;
	rcu_read_lock();
	rules = current_rules();
	if (!rules) {
		rcu_read_unlock();
		return 0;
	}
	/* A directory with its own rule takes it along: nothing changes. */
	own = by_name ? NULL : dir_of(rules, from->dentry);
	if (own && own->has_rule) {
		rcu_read_unlock();
		return 0;
	}
	had = effective_access(rules, from, by_name);
	gets = effective_access(rules, to, by_name);
	rcu_read_unlock();
	if (!(gets & ~had))
		return 0;
	/* Reported as if the object needed what its new name would give. */
	return unveil_refuse(op, from, gets, had, -EXDEV);
}

/*
 * Permissions an open needs: @mode for reading and writing (FMODE_*), and
 * @flags (O_*), for an existing @inode, or NULL for a file it creates.
 */
static unveil_access_t open_needs(const fmode_t mode, const unsigned int flags,
				  const struct inode *const inode)
{
	unveil_access_t needed = 0;

	if (mode & FMODE_READ)
		needed |= UNVEIL_ACCESS_READ;
	if (mode & FMODE_WRITE)
		needed |= UNVEIL_ACCESS_WRITE;
	/* O_RDWR | O_WRONLY gives ioctl()s and attribute changes: as Linux. */
	if ((flags & O_ACCMODE) == O_ACCMODE)
		needed |= UNVEIL_ACCESS_READ | UNVEIL_ACCESS_WRITE;
	if (flags & O_TRUNC)
		needed |= UNVEIL_ACCESS_WRITE;
	/*
	 * Even when the file already exists, as on OpenBSD; but O_CREAT of an
	 * existing device, FIFO or socket creates nothing, and shells open
	 * /dev/null that way for every "> /dev/null".
	 */
	if ((flags & __O_TMPFILE) ||
	    ((flags & O_CREAT) && (!inode || S_ISREG(inode->i_mode))))
		needed |= UNVEIL_ACCESS_CREATE;
	return needed;
}

/*
 * The work of hook_file_open(), out of line: until the first unveil() the
 * hook is only a patched-out jump and a return, in every process.
 */
static noinline int judge_file_open(struct file *const file)
{
	/*
	 * Files the kernel opens for its own use (kernel_file_open() and
	 * backing files: an overlay reading its layers, FUSE passthrough)
	 * never reach a file table: what the process opened was judged where
	 * it opened it.  A file this open created was judged, with everything
	 * the open needs, before it was created (hook_path_open_create()).
	 */
	if (file->f_mode & (FMODE_NOACCOUNT | FMODE_CREATED))
		return 0;
	/* execve() and the ELF interpreter it loads. */
	if (file->f_flags & __FMODE_EXEC)
		return check_object(&file->f_path, UNVEIL_ACCESS_EXEC, "exec");
	return check_object(&file->f_path,
			    open_needs(file->f_mode, file->f_flags,
				       file_inode(file)), "open");
}

static int hook_file_open(struct file *const file)
{
	if (!unveil_used_anywhere())
		return 0;
	return judge_file_open(file);
}

static int hook_path_truncate(const struct path *const path)
{
	return check_object(path, UNVEIL_ACCESS_WRITE, "truncate");
}

/*
 * stat, access, readlink, chdir, getxattr and listxattr need 'r'; chmod,
 * chown, utimes, setxattr and removexattr need 'w'; access(W_OK) both.
 * stat, readlink and access(F_OK) (MAY_ACCESS) may also look at an
 * inspectable object, so that realpath(3) works.  Only the path-based forms
 * get here, never fstat() and its kind.
 */
static noinline int judge_path_attr(const struct path *const path,
				    const int mask)
{
	unveil_access_t needed = 0;

	if (mask & MAY_ACCESS)
		needed |= UNVEIL_ACCESS_READ | UNVEIL_ACCESS_INSPECT;
	if (mask & MAY_READ)
		needed |= UNVEIL_ACCESS_READ;
	if (mask & MAY_WRITE)
		needed |= UNVEIL_ACCESS_WRITE;
	/* "stat": a call that only looks, which an inspectable object allows. */
	return check_object(path, needed,
			    mask == MAY_ACCESS ? "stat" : "attr");
}

/* As hook_file_open(): stat() and access() are as frequent as open(). */
static int hook_path_attr(const struct path *const path, const int mask)
{
	if (!unveil_used_anywhere())
		return 0;
	return judge_path_attr(path, mask);
}

static bool current_is_veiled(void)
{
	return unveil_used_anywhere() &&
	       unveil_veil_is_active(unveil_current_veil());
}

/*
 * Refuses @op to a veiled process, for what it would do beyond any rule:
 * change the mount tree, reach files without a lookup, or watch a whole
 * file system.  @path is its object if it has one.
 */
static int deny_if_veiled(const char *const op, const struct path *const path)
{
	if (!current_is_veiled())
		return 0;
	return unveil_refuse(op, path, 0, 0, -EPERM);
}

static int hook_path_mknod(const struct path *const dir,
			   struct dentry *const dentry, const umode_t mode,
			   const unsigned int dev)
{
	if (!unveil_used_anywhere())
		return 0;
	/* A device node would reach data that no rule can see: a disk's. */
	if (S_ISCHR(mode) || S_ISBLK(mode)) {
		const struct path pos = { .mnt = dir->mnt, .dentry = dentry };

		return deny_if_veiled("mknod", &pos);
	}
	/* open(O_CREAT) makes regular files through here too. */
	return check_name(dir, dentry, UNVEIL_ACCESS_CREATE,
			  S_ISREG(mode) ? "create" : "mknod");
}

/* open(O_CREAT) of a new file: judged as the whole open, before it exists. */
static noinline int judge_path_open_create(const struct path *const dir,
					   struct dentry *const dentry,
					   const int open_flag)
{
	return check_name(dir, dentry,
			  open_needs(OPEN_FMODE(open_flag), open_flag, NULL),
			  "create");
}

/* As hook_file_open(): nothing but a return until the first unveil(). */
static int hook_path_open_create(const struct path *const dir,
				 struct dentry *const dentry,
				 const int open_flag)
{
	if (!unveil_used_anywhere())
		return 0;
	return judge_path_open_create(dir, dentry, open_flag);
}

static int hook_path_mkdir(const struct path *const dir,
			   struct dentry *const dentry, const umode_t mode)
{
	return check_name(dir, dentry, UNVEIL_ACCESS_CREATE, "mkdir");
}

static int hook_path_symlink(const struct path *const dir,
			     struct dentry *const dentry,
			     const char *const old_name)
{
	return check_name(dir, dentry, UNVEIL_ACCESS_CREATE, "symlink");
}

static int hook_path_unlink(const struct path *const dir,
			    struct dentry *const dentry)
{
	return check_name(dir, dentry, UNVEIL_ACCESS_CREATE, "unlink");
}

static int hook_path_rmdir(const struct path *const dir,
			   struct dentry *const dentry)
{
	const struct path pos = { .mnt = dir->mnt, .dentry = dentry };

	/* A directory: its own rule decides. */
	return check_current(&pos, false, UNVEIL_ACCESS_CREATE, "rmdir");
}

static int hook_path_link(struct dentry *const old_dentry,
			  const struct path *const new_dir,
			  struct dentry *const new_dentry)
{
	/* Hard links stay within one mount. */
	const struct path from = { .mnt = new_dir->mnt, .dentry = old_dentry };
	const struct path to = { .mnt = new_dir->mnt, .dentry = new_dentry };
	int err;

	err = check_current(&from, true, UNVEIL_ACCESS_READ, "link");
	if (!err)
		err = check_current(&to, true, UNVEIL_ACCESS_CREATE, "link");
	if (!err)
		err = check_no_more_access(&from, &to, true, "link");
	return err;
}

static int hook_path_rename(const struct path *const old_dir,
			    struct dentry *const old_dentry,
			    const struct path *const new_dir,
			    struct dentry *const new_dentry,
			    const unsigned int flags)
{
	const unveil_access_t move = UNVEIL_ACCESS_READ | UNVEIL_ACCESS_CREATE;
	const struct path from = { .mnt = old_dir->mnt, .dentry = old_dentry };
	const struct path to = { .mnt = new_dir->mnt, .dentry = new_dentry };
	const bool old_by_name = !d_is_dir(old_dentry);
	const bool exchange = flags & RENAME_EXCHANGE;
	int err;

	/* A whiteout is a character device node (0:0), made at the source. */
	if (flags & RENAME_WHITEOUT)
		return deny_if_veiled("rename", &from);
	err = check_current(&from, old_by_name, move, "rename");
	/*
	 * The target name needs 'c'.  An existing target is removed (or moved
	 * away), so it is judged as rmdir() or unlink() would judge it: a
	 * directory by its own rule.
	 */
	if (!err)
		err = check_current(&to, !d_is_dir(new_dentry),
				    exchange ? move : UNVEIL_ACCESS_CREATE,
				    "rename");
	/*
	 * A file gets the rights of its new name; a directory those of its new
	 * parent, unless it has its own rule: a rule on a directory it
	 * replaces does not carry over.
	 */
	if (!err)
		err = check_no_more_access(&from, old_by_name ? &to : new_dir,
					   old_by_name, "rename");
	if (!err && exchange)
		err = check_no_more_access(&to, d_is_dir(new_dentry) ?
					   old_dir : &from,
					   !d_is_dir(new_dentry), "rename");
	return err;
}

static int hook_path_chroot(const struct path *const path)
{
	/* Only needs to be visible. */
	return check_current(path, false, 0, "chroot");
}

static int hook_path_notify(const struct path *const path, const u64 mask,
			    const unsigned int obj_type)
{
	/*
	 * fanotify marks on a mount or a file system report events, with
	 * names, from anywhere below, hidden places included.
	 */
	if (obj_type != FSNOTIFY_OBJ_TYPE_INODE)
		return deny_if_veiled("watch", path);
	return check_object(path, UNVEIL_ACCESS_READ, "watch");
}

static int hook_sb_mount(const char *const dev_name,
			 const struct path *const path, const char *const type,
			 const unsigned long flags, void *const data)
{
	return deny_if_veiled("mount", path);
}

static int hook_move_mount(const struct path *const from_path,
			   const struct path *const to_path)
{
	return deny_if_veiled("move_mount", to_path);
}

static int hook_sb_umount(struct vfsmount *const mnt, const int flags)
{
	const struct path root = { .mnt = mnt, .dentry = mnt->mnt_root };

	return deny_if_veiled("umount", &root);
}

static int hook_sb_remount(struct super_block *const sb, void *const mnt_opts)
{
	return deny_if_veiled("remount", NULL);
}

static int hook_sb_pivotroot(const struct path *const old_path,
			     const struct path *const new_path)
{
	return deny_if_veiled("pivot_root", new_path);
}

static int hook_mount_api(const enum lsm_mount_op op,
			  const struct path *const path)
{
	static const char *const names[] = {
		[LSM_MOUNT_FSOPEN] = "fsopen",
		[LSM_MOUNT_FSPICK] = "fspick",
		[LSM_MOUNT_FSCONFIG] = "fsconfig",
		[LSM_MOUNT_FSMOUNT] = "fsmount",
		[LSM_MOUNT_CLONE] = "open_tree",
		[LSM_MOUNT_SETATTR] = "mount_setattr",
		[LSM_MOUNT_LIST] = "listmount",
		[LSM_MOUNT_STAT] = "statmount",
	};
	const char *name = "mount";

	if (!WARN_ON_ONCE(op >= ARRAY_SIZE(names) || !names[op]))
		name = names[op];
	return deny_if_veiled(name, path);
}

/*
 * A file handle reaches a file without a lookup, so no rule could judge it:
 * a veiled process may neither make one nor open one.
 */
static int hook_file_handle(const struct path *const path, const bool decode)
{
	return deny_if_veiled(decode ? "open_by_handle_at" :
			      "name_to_handle_at", path);
}

static struct security_hook_list unveil_fs_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(file_open, hook_file_open),
	LSM_HOOK_INIT(path_truncate, hook_path_truncate),
	LSM_HOOK_INIT(path_attr, hook_path_attr),
	LSM_HOOK_INIT(path_mknod, hook_path_mknod),
	LSM_HOOK_INIT(path_open_create, hook_path_open_create),
	LSM_HOOK_INIT(path_mkdir, hook_path_mkdir),
	LSM_HOOK_INIT(path_symlink, hook_path_symlink),
	LSM_HOOK_INIT(path_unlink, hook_path_unlink),
	LSM_HOOK_INIT(path_rmdir, hook_path_rmdir),
	LSM_HOOK_INIT(path_link, hook_path_link),
	LSM_HOOK_INIT(path_rename, hook_path_rename),
	LSM_HOOK_INIT(path_chroot, hook_path_chroot),
	LSM_HOOK_INIT(path_notify, hook_path_notify),
	LSM_HOOK_INIT(sb_mount, hook_sb_mount),
	LSM_HOOK_INIT(move_mount, hook_move_mount),
	LSM_HOOK_INIT(sb_umount, hook_sb_umount),
	LSM_HOOK_INIT(sb_remount, hook_sb_remount),
	LSM_HOOK_INIT(sb_pivotroot, hook_sb_pivotroot),
	LSM_HOOK_INIT(mount_api, hook_mount_api),
	LSM_HOOK_INIT(file_handle, hook_file_handle),
};

/**
 * unveil_add_fs_hooks - Register the file system hooks
 */
__init void unveil_add_fs_hooks(void)
{
	security_add_hooks(unveil_fs_hooks, ARRAY_SIZE(unveil_fs_hooks),
			   &unveil_lsmid);
}
