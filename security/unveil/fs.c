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
 * sequence counts tell whether the walk raced with a change (mount_lock's
 * only once the walk left a mount: see struct walk_seq); after two such
 * races find_match_excl() holds mount_lock (mount_read_lock_excl()) and then
 * rename_lock (read_seqlock_excl()), in that order, as d_path() does.  What
 * runs once a check failed (unveil_refuse()) runs after the walk, outside
 * RCU, and may sleep.
 */

#include <asm/ioctls.h>
#include <linux/binfmts.h>
#include <linux/cleanup.h>
#include <linux/dcache.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/fsnotify_backend.h>
#include <linux/io_uring/cmd.h>
#include <linux/lsm_hooks.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/seccomp.h>
#include <linux/seqlock.h>
#include <uapi/linux/fcntl.h>
#include <uapi/linux/fiemap.h>

#include "access.h"
#include "common.h"
#include "fs.h"
#include "object.h"
#include "procfs.h"
#include "ruleset.h"
#include "setup.h"
#include "veil.h"

/**
 * enum unveil_lookup - Which rules a check looks at first
 * @UNVEIL_LOOKUP_DIR: The object is a directory, judged by its own rule
 *                     first, then by those of its ancestors.
 * @UNVEIL_LOOKUP_NAME: The object is a name in its parent directory:
 *                      anything but an existing directory (files, and names
 *                      being created or removed), judged by the name's rule
 *                      first.
 */
enum unveil_lookup {
	UNVEIL_LOOKUP_DIR,
	UNVEIL_LOOKUP_NAME,
};

/* How an existing object is looked up. */
static __always_inline enum unveil_lookup lookup_of(const struct dentry *const dentry)
{
	return d_is_dir(dentry) ? UNVEIL_LOOKUP_DIR : UNVEIL_LOOKUP_NAME;
}

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

/* Object of a directory, under RCU; NULL for most directories. */
static __always_inline const struct unveil_object *
object_of(const struct dentry *const dentry, const long blob_offset)
{
	const struct inode *const inode = READ_ONCE(dentry->d_inode);
	const struct unveil_inode_security *blob;

	if (!inode)
		return NULL;
	blob = inode->i_security + blob_offset;
	return rcu_dereference(blob->object);
}

/* Rules tied to the directory of @dentry, under RCU. */
static __always_inline const struct unveil_dir *
dir_of(const struct unveil_ruleset *rules, const struct dentry *const dentry)
{
	const struct unveil_object *const object =
		object_of(dentry, unveil_blob_sizes.lbs_inode);

	return object ? unveil_ruleset_find(rules, object) : NULL;
}

/*
 * mount_lock's sequence count, read when a walk first leaves a mount.  A
 * walk that stays in one mount reads nothing that mount_lock protects (the
 * root of a mount never changes), so most checks never read mount_lock.
 */
struct walk_seq {
	unsigned int mount;
	bool left_mount;
};

/* Before a walk reads the mount tree. */
static void begin_mount_read(struct walk_seq *const seq)
{
	if (!seq->left_mount) {
		seq->mount = mount_seqbegin();
		seq->left_mount = true;
	}
}

/*
 * From the root of a mount, out to the mountpoint it covers, and out of
 * the roots of the mounts beneath it.  Returns a NULL dentry if a mount has
 * no parent.
 */
static noinline struct path leave_mount_roots(struct path pos,
					      struct walk_seq *const seq)
{
	begin_mount_read(seq);
	while (pos.dentry == pos.mnt->mnt_root)
		if (!follow_up_rcu(&pos))
			return (struct path){};
	return pos;
}

/*
 * One level up from the root of the mount of @pos: the directory it covers,
 * whose rules then apply to what is mounted on it.  The layers of an
 * overlay sit on private mounts without a parent (see mount_is_internal()):
 * above such a mount's root, the walk goes on in its file system, so that a
 * file of a layer is judged by the rules on its real ancestors.  Returns a
 * NULL dentry at the real root, or at the root of a detached mount.
 */
static noinline struct path leave_mount(struct path pos,
					struct walk_seq *const seq)
{
	begin_mount_read(seq);
	if (follow_up_rcu(&pos))
		return pos;
	if (mount_is_internal(pos.mnt) &&
	    READ_ONCE(pos.dentry->d_parent) != pos.dentry)
		pos.dentry = READ_ONCE(pos.dentry->d_parent);
	else
		pos.dentry = NULL;
	return pos;
}

static const struct unveil_name_rule *
name_rule_of(const struct unveil_dir *const dir,
	     const struct dentry *const dentry);

/*
 * The rule that @dentry holds, under RCU, for its child @child, which it
 * is the parent of on the walk: a name rule for @child (a directory made
 * since at a name that a rule named, and all it holds, keep that rule),
 * else the directory rule of @dentry.  Returns false if there is none.
 */
static __always_inline bool rule_on(const struct unveil_ruleset *rules,
				    const struct dentry *const dentry,
				    const struct dentry *const child,
				    const long blob_offset,
				    struct unveil_match *const match)
{
	const struct unveil_object *const object =
		object_of(dentry, blob_offset);
	const struct unveil_name_rule *entry;
	const struct unveil_dir *dir;

	if (likely(!object))
		return false;
	dir = unveil_ruleset_find(rules, object);
	if (!dir)
		return false;
	entry = unveil_dir_names(dir) ? name_rule_of(dir, child) : NULL;
	if (entry && unveil_name_is_rule(entry)) {
		match->kind = UNVEIL_RULE_NAME;
		match->access = READ_ONCE(entry->access);
		return true;
	}
	if (!unveil_dir_has_rule(dir))
		return false;
	match->kind = UNVEIL_RULE_DIR;
	match->access = READ_ONCE(dir->access);
	return true;
}

/*
 * The rule for what is mounted on @dentry, under RCU: the one made on the
 * root of a mount there, which holds for whatever is mounted there since,
 * else the rule of @dentry itself.  Returns false if there is none.
 */
static noinline bool rule_for_mount_on(const struct unveil_ruleset *rules,
				       const struct dentry *const dentry,
				       struct unveil_match *const match)
{
	const struct unveil_object *const object =
		object_of(dentry, unveil_blob_sizes.lbs_inode);
	const struct unveil_dir *dir;

	dir = object ? unveil_ruleset_find(rules, object) : NULL;
	if (!dir)
		return false;
	if (unveil_dir_has_mount_rule(dir))
		match->access = READ_ONCE(dir->mount_access);
	else if (unveil_dir_has_rule(dir))
		match->access = READ_ONCE(dir->access);
	else
		return false;
	match->kind = UNVEIL_RULE_DIR;
	return true;
}

static noinline bool proc_rule_above(const struct unveil_ruleset *rules,
				     struct path pos, struct walk_seq *seq,
				     struct unveil_match *match);

/*
 * The nearest rule strictly above @pos, under RCU, in @match.  Returns
 * false if there is none.  Most directories have no object: climbing over
 * one takes four loads and four tests, with everything in registers (see
 * "Performance" in the admin guide).
 */
static __always_inline bool rule_above(const struct unveil_ruleset *rules,
				       struct path pos,
				       struct walk_seq *const seq,
				       struct unveil_match *const match)
{
	const long blob_offset = unveil_blob_sizes.lbs_inode;
	const struct dentry *dentry = pos.dentry;
	const struct dentry *root = pos.mnt->mnt_root;
	const struct vfsmount *mnt;

	for (;;) {
		while (likely(dentry != root)) {
			const struct dentry *const parent =
				READ_ONCE(dentry->d_parent);

			/* The root of a file system, or out of the mount. */
			if (unlikely(parent == dentry))
				return false;
			if (unlikely(rule_on(rules, parent, dentry, blob_offset,
					     match)))
				return true;
			dentry = parent;
		}
		pos.dentry = (struct dentry *)dentry;
		mnt = pos.mnt;
		pos = leave_mount(pos, seq);
		if (!pos.dentry)
			return false;
		/* Out to the mountpoint, or up in an overlay layer. */
		if (pos.mnt != mnt) {
			if (rule_for_mount_on(rules, pos.dentry, match))
				return true;
			if (unlikely(unveil_is_procfs(pos.dentry)))
				return proc_rule_above(rules, pos, seq, match);
		} else if (rule_on(rules, pos.dentry, dentry, blob_offset,
				   match)) {
			return true;
		}
		dentry = pos.dentry;
		root = pos.mnt->mnt_root;
	}
}

/*
 * The name rule of @dir that the file system takes for the same name as
 * @name, @len bytes, the name of @dentry: another case in a case-folding
 * directory (ext4 and f2fs with casefold, vfat, SMB without case), another
 * Unicode normal form.  Under RCU, as the dentry cache calls d_compare().
 */
static noinline const struct unveil_name_rule *
name_rule_alike(const struct unveil_dir *const dir,
		const struct dentry *const dentry, const char *const name,
		const size_t len)
{
	const struct unveil_names *const names = unveil_dir_names(dir);
	/* Pairs with the release in append_name(). */
	const u32 count = smp_load_acquire(&names->count);
	u32 i;

	for (i = 0; i < count; i++) {
		const struct unveil_name_rule *const entry = &names->entries[i];
		const struct qstr rule = QSTR_INIT(entry->name, entry->len);

		if (!dentry->d_op->d_compare(dentry, len, name, &rule))
			return entry;
	}
	return NULL;
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
	const struct unveil_name_rule *entry;
	size_t len;
	const u32 hash = unveil_name_hash(name, NAME_MAX, &len);

	entry = unveil_dir_find_name(dir, name, len, hash);
	if (entry || !(READ_ONCE(dentry->d_flags) & DCACHE_OP_COMPARE))
		return entry;
	return name_rule_alike(dir, dentry, name, len);
}

/**
 * struct proc_rules - The rules of a directory of procfs, found by key
 *
 * Every object of the ruleset with the directory's key counts (an
 * instance of procfs may have been unveiled through another): the first
 * rule found, of the directory or of the name asked for, decides.
 */
struct proc_rules {
	/** @has_rule: A directory rule, with @access. */
	bool has_rule;
	/** @access: Permissions of that rule. */
	unveil_access_t access;
	/** @inspectable: The directory is inspectable. */
	bool inspectable;
	/** @name: The rule for the name asked for, or NULL. */
	const struct unveil_name_rule *name;
	/** @name_inspectable: The name asked for is inspectable. */
	bool name_inspectable;
};

/*
 * The rules of @dir, a directory of procfs, and of the name of @child in it
 * if @child, under RCU: by key (see procfs.c), in whatever instance they
 * were made.
 */
static void proc_rules_of(const struct unveil_ruleset *rules,
			  const struct dentry *const dir,
			  const struct dentry *const child,
			  const struct unveil_proc_pos *const pp,
			  struct proc_rules *const found)
{
	/* Pairs with the release in apply_change(). */
	const u32 num_dirs = smp_load_acquire(&rules->num_dirs);
	u32 i;

	*found = (struct proc_rules){};
	if (!unveil_ruleset_has_proc_dirs(rules))
		return;
	for (i = 0; i < num_dirs; i++) {
		const struct unveil_dir *const entry = &rules->dirs[i];
		const struct unveil_proc_key *const key = &entry->object->proc;
		const struct unveil_name_rule *name;

		if (!key->path || !unveil_proc_key_names(key, dir, pp))
			continue;
		found->inspectable |= READ_ONCE(entry->inspectable);
		if (!found->has_rule && unveil_dir_has_rule(entry)) {
			found->has_rule = true;
			found->access = READ_ONCE(entry->access);
		}
		name = child && unveil_dir_names(entry) ?
		       name_rule_of(entry, child) : NULL;
		if (!name)
			continue;
		found->name_inspectable |= READ_ONCE(name->inspectable);
		if (!found->name && unveil_name_is_rule(name))
			found->name = name;
	}
}

/*
 * The rule of a thread's own directory's ancestors in its process's
 * directory, which it stands for (task/TID): task, then the process's
 * directory.
 */
static bool proc_thread_rule_above(const struct unveil_ruleset *rules,
				   const struct unveil_proc_pos *const pp,
				   struct unveil_match *const match)
{
	static const char *const ancestors[] = { "/task", "" };
	/* Pairs with the release in apply_change(). */
	const u32 num_dirs = smp_load_acquire(&rules->num_dirs);
	u32 a, i;

	if (!unveil_ruleset_has_proc_dirs(rules))
		return false;
	for (a = 0; a < ARRAY_SIZE(ancestors); a++) {
		for (i = 0; i < num_dirs; i++) {
			const struct unveil_dir *const entry = &rules->dirs[i];
			const struct unveil_proc_key *const key =
				&entry->object->proc;

			if (key->process == pp->process &&
			    !strcmp(key->path, ancestors[a]) &&
			    unveil_dir_has_rule(entry)) {
				match->kind = UNVEIL_RULE_DIR;
				match->access = READ_ONCE(entry->access);
				return true;
			}
		}
	}
	return false;
}

/*
 * rule_above() from @pos, a directory of procfs: by key up to the root of
 * its mount, then as anywhere.
 */
static noinline bool proc_rule_above(const struct unveil_ruleset *rules,
				     struct path pos, struct walk_seq *seq,
				     struct unveil_match *match)
{
	const struct dentry *dir = pos.dentry;
	struct unveil_proc_pos pp;
	struct proc_rules found;

	unveil_proc_pos_init(&pp, dir);
	for (;;) {
		const struct dentry *parent;

		if (dir == pp.process_dir && pp.thread &&
		    proc_thread_rule_above(rules, &pp, match))
			return true;
		if (dir == pos.mnt->mnt_root)
			break;
		parent = READ_ONCE(dir->d_parent);
		if (parent == dir)
			return false;
		proc_rules_of(rules, parent, dir, &pp, &found);
		dir = parent;
		if (found.name) {
			match->kind = UNVEIL_RULE_NAME;
			match->access = READ_ONCE(found.name->access);
			return true;
		}
		if (found.has_rule) {
			match->kind = UNVEIL_RULE_DIR;
			match->access = found.access;
			return true;
		}
	}
	pos.dentry = (struct dentry *)dir;
	return rule_above(rules, pos, seq, match);
}

/*
 * find_match_rcu() for an object on procfs, whose rules are found by key:
 * a process, hidden in /proc, does not show through /proc/TID or another
 * instance of procfs.
 */
static noinline struct unveil_match
find_match_proc(const struct unveil_ruleset *rules, struct path pos,
		const enum unveil_lookup lookup, struct walk_seq *const seq)
{
	struct unveil_match match = {};
	const struct dentry *child = NULL;
	struct unveil_proc_pos pp;
	struct proc_rules found;

	unveil_proc_pos_init(&pp, pos.dentry);
	if (lookup == UNVEIL_LOOKUP_NAME) {
		child = pos.dentry;
		pos.dentry = READ_ONCE(child->d_parent);
	}
	proc_rules_of(rules, pos.dentry, child, &pp, &found);
	if (found.name) {
		match.kind = UNVEIL_RULE_NAME;
		match.access = READ_ONCE(found.name->access);
	} else if (found.has_rule) {
		match.kind = UNVEIL_RULE_DIR;
		match.access = found.access;
	} else {
		proc_rule_above(rules, pos, seq, &match);
	}
	match.inspectable = child ? found.name_inspectable : found.inspectable;
	return match;
}

/*
 * Finds the rule nearest to @pos, looked up as @lookup says, under RCU,
 * without taking references: the rule of the object itself (a name's, or a
 * directory's own), else the nearest directory rule above it.
 */
static __always_inline struct unveil_match
find_match_rcu(const struct unveil_ruleset *rules, struct path pos,
	       const enum unveil_lookup lookup, struct walk_seq *const seq)
{
	struct unveil_match match = {};
	const struct unveil_dir *dir;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "walk outside RCU");
	if (lookup == UNVEIL_LOOKUP_NAME) {
		const struct dentry *name;

		if (unlikely(pos.dentry == pos.mnt->mnt_root)) {
			pos = leave_mount_roots(pos, seq);
			if (!pos.dentry)
				return match;
		}
		name = pos.dentry;
		if (unlikely(unveil_is_procfs(name)))
			return find_match_proc(rules, pos, lookup, seq);
		/* The rule of the file, whatever name it is reached by. */
		dir = dir_of(rules, name);
		if (unlikely(dir) && unveil_dir_has_rule(dir) &&
		    READ_ONCE(dir->is_file)) {
			match.kind = UNVEIL_RULE_NAME;
			match.access = READ_ONCE(dir->access);
			return match;
		}
		pos.dentry = READ_ONCE(name->d_parent);
		if (pos.dentry == name)
			return match;
		dir = dir_of(rules, pos.dentry);
		if (dir && unveil_dir_names(dir)) {
			const struct unveil_name_rule *const entry =
				name_rule_of(dir, name);

			match.inspectable = entry && READ_ONCE(entry->inspectable);
			if (entry && unveil_name_is_rule(entry)) {
				match.kind = UNVEIL_RULE_NAME;
				match.access = READ_ONCE(entry->access);
				return match;
			}
		}
	} else {
		if (unlikely(unveil_is_procfs(pos.dentry)))
			return find_match_proc(rules, pos, lookup, seq);
		dir = dir_of(rules, pos.dentry);
		match.inspectable = dir && READ_ONCE(dir->inspectable);
	}
	if (dir && unveil_dir_has_rule(dir)) {
		match.kind = UNVEIL_RULE_DIR;
		match.access = READ_ONCE(dir->access);
	} else {
		rule_above(rules, pos, seq, &match);
	}
	return match;
}

/*
 * find_match_rcu() with renames and mount changes held off, as d_path()
 * does, for a walk that keeps racing with them (anywhere in the system).
 */
static noinline struct unveil_match
find_match_excl(const struct unveil_ruleset *rules,
		const struct path *const pos, const enum unveil_lookup lookup)
{
	struct walk_seq seq = {};
	struct unveil_match match;

	mount_read_lock_excl();
	read_seqlock_excl(&rename_lock);
	match = find_match_rcu(rules, *pos, lookup, &seq);
	read_sequnlock_excl(&rename_lock);
	mount_read_unlock_excl();
	return match;
}

/*
 * What the name rules on the other names of the file of @inode grant, on a
 * file system that may give a file an inode for each of its names, where
 * the other inodes hold the objects (see unveil_next_object_of_ino()).
 */
static noinline unveil_access_t
access_of_other_inodes(const struct unveil_ruleset *rules,
		       const struct inode *const inode)
{
	const struct unveil_object *object = NULL;
	unveil_access_t access = (unveil_access_t)~0;

	while ((object = unveil_next_object_of_ino(inode, object))) {
		const struct unveil_dir *const dir =
			unveil_ruleset_find(rules, object);

		if (dir && unveil_dir_has_rule(dir) && READ_ONCE(dir->is_file))
			access &= READ_ONCE(dir->access);
	}
	return access;
}

/*
 * @match, for the object of @dentry looked up as @lookup, limited by the
 * name rules on the file's other names where those have inodes of their
 * own.  Only limited, never widened as a file's own object would: an inode
 * number is the server's word, and files of two exports of one 9p share
 * may share one.
 */
static __always_inline struct unveil_match
limit_by_other_inodes(const struct unveil_ruleset *rules,
		      const struct dentry *const dentry,
		      const enum unveil_lookup lookup, struct unveil_match match)
{
	const struct inode *inode;
	unveil_access_t access;

	if (!static_branch_unlikely(&unveil_objects_by_ino_used) ||
	    lookup != UNVEIL_LOOKUP_NAME)
		return match;
	inode = READ_ONCE(dentry->d_inode);
	if (likely(!inode ||
		   !atomic_read(&unveil_superblock(inode->i_sb)->objects_by_ino)))
		return match;
	access = access_of_other_inodes(rules, inode);
	/* Limited, the file is judged as a name rule names it. */
	if (match.kind != UNVEIL_RULE_NONE && (match.access & ~access)) {
		match.kind = UNVEIL_RULE_NAME;
		match.access &= access;
	}
	return match;
}

/*
 * Finds the rule nearest to @pos, again if a rename or a mount change raced
 * with the walk, and with both held off after two such races.  The caller
 * holds rcu_read_lock().
 */
static __always_inline struct unveil_match
find_match(const struct unveil_ruleset *rules, const struct path *const pos,
	   const enum unveil_lookup lookup)
{
	struct walk_seq seq;
	struct unveil_match match;
	unsigned int rename_seq;
	int tries;

	for (tries = 0; tries < 2; tries++) {
		seq.left_mount = false;
		rename_seq = read_seqbegin(&rename_lock);
		match = find_match_rcu(rules, *pos, lookup, &seq);
		if (!read_seqretry(&rename_lock, rename_seq) &&
		    !(seq.left_mount && mount_seqretry(seq.mount)))
			return limit_by_other_inodes(rules, pos->dentry, lookup,
						     match);
	}
	return limit_by_other_inodes(rules, pos->dentry, lookup,
				     find_match_excl(rules, pos, lookup));
}

/*
 * Objects of internal file systems (pipes, sockets, memfd) have no path.
 * The private mounts of an overlay's layers are not such: a file there is
 * judged by its real ancestry (see leave_mount()), whoever asks and with
 * whatever credentials.
 */
static bool is_pathless(const struct path *const path)
{
	const struct inode *const inode = d_backing_inode(path->dentry);

	return (path->mnt->mnt_flags & MNT_INTERNAL) ||
	       (path->mnt->mnt_sb->s_flags & SB_NOUSER) ||
	       (inode && IS_PRIVATE(inode));
}

/*
 * Finds in *@match what the rules of the current process say of @path,
 * under RCU.  Returns false, leaving *@match alone, for a process without
 * rules.
 */
static __always_inline bool find_current_match(const struct path *const path,
					       const enum unveil_lookup lookup,
					       struct unveil_match *const match)
{
	const struct unveil_ruleset *rules;

	guard(rcu)();
	rules = unveil_current_rules();
	if (!rules)
		return false;
	*match = find_match(rules, path, lookup);
	return true;
}

/*
 * Judges @path for the current process, for the operation @op that needs
 * @needed: the one check of every file system hook, called once
 * unveil_used_anywhere(), out of line.  A process without a veil only
 * looks for it.
 *
 * Returns: 0 if allowed, -ENOENT if hidden, -EACCES if a permission is
 * missing.
 */
static noinline int check_path(const struct path *const path,
			       const enum unveil_lookup lookup,
			       const unveil_access_t needed,
			       const char *const op)
{
	struct unveil_match match;
	int err;

	if (!find_current_match(path, lookup, &match))
		return 0;
	if ((needed & UNVEIL_ACCESS_INSPECT) && match.inspectable)
		return 0;
	err = unveil_verdict(match.kind, match.access,
			     needed & ~UNVEIL_ACCESS_INSPECT);
	/* Rare enough to be asked last: the verdict does not apply. */
	if (unlikely(err) && !is_pathless(path))
		err = unveil_refuse(op, path, needed, match.access, err);
	else
		err = 0;
	return err;
}

/* Judges the name @dentry in the directory @dir: creation, removal. */
static int check_name(const struct path *const dir,
		      struct dentry *const dentry,
		      const unveil_access_t needed, const char *const op)
{
	const struct path pos = { .mnt = dir->mnt, .dentry = dentry };

	return check_path(&pos, UNVEIL_LOOKUP_NAME, needed, op);
}

/*
 * Permissions an object would get at @pos: what the nearest rule grants, or
 * nothing if it is hidden.
 */
static unveil_access_t effective_access(const struct unveil_ruleset *rules,
					const struct path *const pos,
					const enum unveil_lookup lookup)
{
	const struct unveil_match match = find_match(rules, pos, lookup);

	return unveil_verdict(match.kind, match.access, 0) ? 0 : match.access;
}

/*
 * Link and rename must not give a file more access than it had where it
 * was: a file the veil lets the process only read must not become writable
 * under a new name.  As Landlock does, refuse with -EXDEV, so that tools
 * like mv(1) fall back to copying, which needs read access to the source
 * and create access at the target anyway.  @from is the object, looked up
 * as @lookup says; @to is its new name, or for a directory the directory it
 * moves into.  @op names the operation.
 */
static int check_no_more_access(const struct path *const from,
				const struct path *const to,
				const enum unveil_lookup lookup,
				const char *const op)
{
	const struct unveil_ruleset *rules;
	const struct unveil_dir *own;
	unveil_access_t had, gets;

	scoped_guard(rcu) {
		rules = unveil_current_rules();
		if (!rules)
			return 0;
		/*
		 * A directory with its own rule, or a file that a name rule
		 * named, takes its rule along: nothing changes.
		 */
		own = dir_of(rules, from->dentry);
		if (own && unveil_dir_has_rule(own) &&
		    (lookup == UNVEIL_LOOKUP_DIR || READ_ONCE(own->is_file)))
			return 0;
		had = effective_access(rules, from, lookup);
		gets = effective_access(rules, to, lookup);
	}
	if (!(gets & ~had))
		return 0;
	/* Reported as if the object needed what its new name would give. */
	return unveil_refuse(op, from, gets, had, -EXDEV);
}

/*
 * Permissions an open needs: @mode for reading and writing (FMODE_*), and
 * @flags (O_*), for an existing @inode, or NULL for a file it creates.
 */
static __always_inline unveil_access_t
open_needs(const fmode_t mode, const unsigned int flags,
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
 * Whether the veil of the current process lets it read @path, asked without
 * reporting anything.
 */
static bool current_may_read(const struct path *const path)
{
	struct unveil_match match;

	if (!find_current_match(path, lookup_of(path->dentry), &match))
		return true;
	return !unveil_verdict(match.kind, match.access, UNVEIL_ACCESS_READ) ||
	       is_pathless(path);
}

/*
 * Notes whether @file, which execve() opens to run it, is one that the veil
 * lets the process run but not read (see hook_bprm_creds_from_file()).
 * execve() opens the program before it sets in_execve, and its interpreters
 * (a script's, the ELF interpreter) after: the program starts the note of
 * an execve(), and each interpreter adds to it.
 */
static void note_exec_file(const struct file *const file)
{
	struct unveil_task_security *const self = unveil_task(current);
	const bool unreadable = !current_may_read(&file->f_path);

	if (current->in_execve)
		self->exec_unreadable |= unreadable;
	else
		self->exec_unreadable = unreadable;
}

/*
 * The work of hook_file_open(), out of line: until the first unveil() in
 * the system, the hook is only a patched-out jump and a return, without
 * even moving its argument.
 */
static noinline int judge_file_open(struct file *const file)
{
	int err;

	/*
	 * Files the kernel opens for its own use (kernel_file_open() and
	 * backing files: an overlay reading its layers, FUSE passthrough)
	 * never reach a file table: what the process opened was judged where
	 * it opened it.  A file this open created was judged, with everything
	 * the open needs, before it was created (hook_path_open_create()).
	 */
	if (file->f_mode & (FMODE_NOACCOUNT | FMODE_CREATED))
		return 0;
	/* execve() and the interpreters it loads. */
	if (!(file->f_flags & __FMODE_EXEC))
		return check_path(&file->f_path,
				  lookup_of(file->f_path.dentry),
				  open_needs(file->f_mode, file->f_flags,
					     file_inode(file)),
				  "open");
	err = check_path(&file->f_path, lookup_of(file->f_path.dentry),
			 UNVEIL_ACCESS_EXEC, "exec");
	if (!err)
		note_exec_file(file);
	return err;
}

static int hook_file_open(struct file *const file)
{
	if (!unveil_used_anywhere())
		return 0;
	return judge_file_open(file);
}

static int hook_path_truncate(const struct path *const path)
{
	if (!unveil_used_anywhere())
		return 0;
	return check_path(path, lookup_of(path->dentry), UNVEIL_ACCESS_WRITE,
			  "truncate");
}

/*
 * stat, access, readlink, chdir, getxattr and listxattr need 'r'; chmod,
 * chown, utimes, setxattr and removexattr need 'w'; access(W_OK) both.
 * stat, readlink and access(F_OK) (MAY_ACCESS) may also look at an
 * inspectable object, so that realpath(3) works.  Only the path-based forms
 * get here, never fstat() and its kind.  open(O_PATH) (no mask) gives no
 * access to the file: everything done through the descriptor is judged
 * by the path of what it reaches, so it needs the object visible or
 * inspectable, as stat() does, and no permission.
 */
static noinline int judge_path_attr(const struct path *const path,
				    const int mask)
{
	unveil_access_t needed = 0;

	if (!mask)
		return check_path(path, lookup_of(path->dentry),
				  UNVEIL_ACCESS_INSPECT, "open(O_PATH)");

	if (mask & MAY_ACCESS)
		needed |= UNVEIL_ACCESS_READ | UNVEIL_ACCESS_INSPECT;
	if (mask & MAY_READ)
		needed |= UNVEIL_ACCESS_READ;
	if (mask & MAY_WRITE)
		needed |= UNVEIL_ACCESS_WRITE;
	/* "stat": a call that only looks, which an inspectable object allows. */
	return check_path(path, lookup_of(path->dentry), needed,
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
static int refuse_if_veiled(const char *const op,
			    const struct path *const path)
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

		return refuse_if_veiled("mknod", &pos);
	}
	/* open(O_CREAT) makes regular files through here too. */
	return check_name(dir, dentry, UNVEIL_ACCESS_CREATE,
			  S_ISREG(mode) ? "create" : "mknod");
}

/*
 * open(O_CREAT) of a new file, or open(O_TMPFILE) of an unnamed one in @dir
 * (no @dentry): judged as the whole open, before the file exists.
 */
static int hook_path_open_create(const struct path *const dir,
				 struct dentry *const dentry,
				 const int open_flag)
{
	unveil_access_t needed;

	if (!unveil_used_anywhere())
		return 0;
	needed = open_needs(OPEN_FMODE(open_flag), open_flag, NULL);
	/* An unnamed file matches no name rule: the rule of @dir decides. */
	if (!dentry)
		return check_path(dir, UNVEIL_LOOKUP_DIR, needed, "create");
	return check_name(dir, dentry, needed, "create");
}

static int hook_path_mkdir(const struct path *const dir,
			   struct dentry *const dentry, const umode_t mode)
{
	if (!unveil_used_anywhere())
		return 0;
	return check_name(dir, dentry, UNVEIL_ACCESS_CREATE, "mkdir");
}

static int hook_path_symlink(const struct path *const dir,
			     struct dentry *const dentry,
			     const char *const old_name)
{
	if (!unveil_used_anywhere())
		return 0;
	return check_name(dir, dentry, UNVEIL_ACCESS_CREATE, "symlink");
}

static int hook_path_unlink(const struct path *const dir,
			    struct dentry *const dentry)
{
	if (!unveil_used_anywhere())
		return 0;
	return check_name(dir, dentry, UNVEIL_ACCESS_CREATE, "unlink");
}

/* Judges the directory @dentry in @dir by its own rule: rmdir(). */
static noinline int judge_rmdir(const struct path *const dir,
				struct dentry *const dentry)
{
	const struct path pos = { .mnt = dir->mnt, .dentry = dentry };

	return check_path(&pos, UNVEIL_LOOKUP_DIR, UNVEIL_ACCESS_CREATE,
			  "rmdir");
}

static int hook_path_rmdir(const struct path *const dir,
			   struct dentry *const dentry)
{
	if (!unveil_used_anywhere())
		return 0;
	return judge_rmdir(dir, dentry);
}

/* A new name for a file: hook_path_link() once a process may be veiled. */
static noinline int judge_link(struct dentry *const old_dentry,
			       const struct path *const new_dir,
			       struct dentry *const new_dentry)
{
	/* Hard links stay within one mount. */
	const struct path from = { .mnt = new_dir->mnt, .dentry = old_dentry };
	const struct path to = { .mnt = new_dir->mnt, .dentry = new_dentry };
	int err;

	err = check_path(&from, UNVEIL_LOOKUP_NAME, UNVEIL_ACCESS_READ, "link");
	if (err)
		return err;
	err = check_name(new_dir, new_dentry, UNVEIL_ACCESS_CREATE, "link");
	if (err)
		return err;
	return check_no_more_access(&from, &to, UNVEIL_LOOKUP_NAME, "link");
}

static int hook_path_link(struct dentry *const old_dentry,
			  const struct path *const new_dir,
			  struct dentry *const new_dentry)
{
	if (!unveil_used_anywhere())
		return 0;
	return judge_link(old_dentry, new_dir, new_dentry);
}

/* hook_path_rename() once a process may be veiled. */
static noinline int judge_rename(const struct path *const old_dir,
				 struct dentry *const old_dentry,
				 const struct path *const new_dir,
				 struct dentry *const new_dentry,
				 const unsigned int flags)
{
	const unveil_access_t move = UNVEIL_ACCESS_READ | UNVEIL_ACCESS_CREATE;
	const struct path from = { .mnt = old_dir->mnt, .dentry = old_dentry };
	const struct path to = { .mnt = new_dir->mnt, .dentry = new_dentry };
	const enum unveil_lookup old_lookup = lookup_of(old_dentry);
	const enum unveil_lookup new_lookup = lookup_of(new_dentry);
	const bool exchange = flags & RENAME_EXCHANGE;
	int err;

	/* A whiteout is a character device node (0:0), made at the source. */
	if (flags & RENAME_WHITEOUT)
		return refuse_if_veiled("rename", &from);
	err = check_path(&from, old_lookup, move, "rename");
	if (err)
		return err;
	/*
	 * The target name needs 'c'.  An existing target is removed (or moved
	 * away), so it is judged as rmdir() or unlink() would judge it: a
	 * directory by its own rule.
	 */
	err = check_path(&to, new_lookup, exchange ? move : UNVEIL_ACCESS_CREATE,
			 "rename");
	if (err)
		return err;
	/*
	 * A file gets the rights of its new name; a directory those of its new
	 * parent, unless it has its own rule: a rule on a directory it
	 * replaces does not carry over.
	 */
	err = check_no_more_access(&from,
				   old_lookup == UNVEIL_LOOKUP_NAME ? &to : new_dir,
				   old_lookup, "rename");
	if (err || !exchange)
		return err;
	return check_no_more_access(&to,
				    new_lookup == UNVEIL_LOOKUP_NAME ? &from :
				    old_dir, new_lookup, "rename");
}

static int hook_path_rename(const struct path *const old_dir,
			    struct dentry *const old_dentry,
			    const struct path *const new_dir,
			    struct dentry *const new_dentry,
			    const unsigned int flags)
{
	if (!unveil_used_anywhere())
		return 0;
	return judge_rename(old_dir, old_dentry, new_dir, new_dentry, flags);
}

static int hook_path_chroot(const struct path *const path)
{
	if (!unveil_used_anywhere())
		return 0;
	/* Only needs to be visible. */
	return check_path(path, UNVEIL_LOOKUP_DIR, 0, "chroot");
}

static int hook_path_notify(const struct path *const path, const u64 mask,
			    const unsigned int obj_type)
{
	if (!unveil_used_anywhere())
		return 0;
	/*
	 * fanotify marks on a mount or a file system report events, with
	 * names, from anywhere below, hidden places included; those of a
	 * group that reports directories name the one through which a file
	 * was used, hidden or not.
	 */
	if (obj_type != FSNOTIFY_OBJ_TYPE_INODE || (mask & FS_REPORTS_DIR_NAME))
		return refuse_if_veiled("watch", path);
	return check_path(path, lookup_of(path->dentry), UNVEIL_ACCESS_READ,
			  "watch");
}

static int hook_sb_mount(const char *const dev_name,
			 const struct path *const path, const char *const type,
			 const unsigned long flags, void *const data)
{
	return refuse_if_veiled("mount", path);
}

static int hook_move_mount(const struct path *const from_path,
			   const struct path *const to_path)
{
	return refuse_if_veiled("move_mount", to_path);
}

static int hook_sb_umount(struct vfsmount *const mnt, const int flags)
{
	const struct path root = { .mnt = mnt, .dentry = mnt->mnt_root };

	return refuse_if_veiled("umount", &root);
}

static int hook_sb_remount(struct super_block *const sb, void *const mnt_opts)
{
	return refuse_if_veiled("remount", NULL);
}

static int hook_sb_pivotroot(const struct path *const old_path,
			     const struct path *const new_path)
{
	return refuse_if_veiled("pivot_root", new_path);
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
	return refuse_if_veiled(name, path);
}

/*
 * A file handle reaches a file without a lookup, so no rule could judge it:
 * a veiled process may neither make one nor open one.
 */
static int hook_file_handle(const struct path *const path, const bool decode)
{
	return refuse_if_veiled(decode ? "open_by_handle_at" :
			      "name_to_handle_at", path);
}

/*
 * Whether running @bprm would let something under the process's control
 * read a program, or an interpreter, that the veil lets the process run but
 * not read:
 * - the program the kernel loads last (@bprm->file) is one the process may
 *   read: the file it may not read is then the ELF interpreter of that
 *   program, whose code would run beside it (any program can name any
 *   other as its interpreter), or a script that a readable interpreter
 *   would be given;
 * - a tracer from before execve() would read it with PTRACE_PEEKTEXT, or
 *   set the registers so that it writes itself out;
 * - a seccomp filter's listener would answer its calls: the dynamic loader
 *   would load code it names (/etc/ld.so.preload), AT_SECURE or not;
 * - binfmt_misc would hand its interpreter a descriptor of it (flags O, C).
 * cred_guard_mutex, held, keeps tracers and seccomp filters from changing.
 */
static bool exec_exposes_unreadable(const struct linux_binprm *const bprm)
{
	return current_may_read(&bprm->file->f_path) ||
	       (bprm->unsafe & LSM_UNSAFE_PTRACE) || bprm->have_execfd ||
	       seccomp_mode(&current->seccomp) != SECCOMP_MODE_DISABLED;
}

/*
 * A program that the veil lets the process run but not read runs only where
 * nothing but itself could read it (exec_exposes_unreadable()), with
 * AT_SECURE, so that the dynamic loader ignores LD_PRELOAD and the like,
 * and not dumpable (hook_bprm_committed_creds()), so that no core file
 * shows it and no veiled process may attach to it or read its memory
 * (task.c).  What the program itself runs, an interpreter its script,
 * may read it like any of its own memory.
 */
static int hook_bprm_creds_from_file(struct linux_binprm *const bprm,
				     const struct file *const file)
{
	if (!unveil_used_anywhere() || !unveil_task(current)->exec_unreadable)
		return 0;
	if (exec_exposes_unreadable(bprm)) {
		const int err = unveil_refuse("exec", &bprm->file->f_path, 0, 0,
					      -EPERM);

		if (err)
			return err;
	}
	bprm->secureexec = 1;
	return 0;
}

/*
 * After commit_creds(), which makes the process dumpable again when the
 * new program changes its credentials, and before it runs.
 */
static void hook_bprm_committed_creds(const struct linux_binprm *const bprm)
{
	struct unveil_task_security *self;

	if (!unveil_used_anywhere())
		return;
	self = unveil_task(current);
	if (self->exec_unreadable) {
		set_dumpable(current->mm, SUID_DUMP_DISABLE);
		self->exec_unreadable = false;
	}
}

/*
 * The ioctls that fs/ioctl.c handles itself on a regular file or a
 * directory: they act on the open file (as fcntl(), fallocate() or
 * FS_IOC_GETFLAGS do), or on its whole file system (as statfs() does).
 * FIDEDUPERANGE is not one of them: it compares the blocks of a file that
 * the process may only write with those of one it wrote, which would read
 * the first by guesses.
 */
static __attribute_const__ bool is_vfs_ioctl(const unsigned int cmd)
{
	switch (cmd) {
	case FIOCLEX:
	case FIONCLEX:
	case FIONBIO:
	case FIOASYNC:
	case FIOQSIZE:
	case FIFREEZE:
	case FITHAW:
	case FS_IOC_FIEMAP:
	case FIGETBSZ:
	case FICLONE:
	case FICLONERANGE:
	case FIONREAD:
	case FS_IOC_GETFLAGS:
	case FS_IOC_SETFLAGS:
	case FS_IOC_FSGETXATTR:
	case FS_IOC_FSSETXATTR:
	case FS_IOC_GETFSUUID:
	case FS_IOC_GETFSSYSFSPATH:
	/* Those of file_ioctl(), for regular files. */
	case FIBMAP:
	case FS_IOC_RESVSP:
	case FS_IOC_RESVSP64:
	case FS_IOC_UNRESVSP:
	case FS_IOC_UNRESVSP64:
	case FS_IOC_ZERO_RANGE:
		return true;
	default:
		return false;
	}
}

/* is_vfs_ioctl() for compat_sys_ioctl(), which converts these first. */
static __attribute_const__ bool is_vfs_ioctl_compat(const unsigned int cmd)
{
	switch (cmd) {
	case FS_IOC32_GETFLAGS:
	case FS_IOC32_SETFLAGS:
#if defined(CONFIG_X86_64)
	case FS_IOC_RESVSP_32:
	case FS_IOC_RESVSP64_32:
	case FS_IOC_UNRESVSP_32:
	case FS_IOC_UNRESVSP64_32:
	case FS_IOC_ZERO_RANGE_32:
#endif
		return true;
	default:
		return is_vfs_ioctl(cmd);
	}
}

/*
 * Every ioctl on a regular file or a directory that is_vfs_ioctl() does not
 * list goes to the file system's own, and some of those reach objects that
 * no path names, so that no rule can judge them: they look up, create,
 * delete, open or list other files, by name, handle, inode number or id
 * (btrfs subvolumes, snapshots and tree searches, XFS handles and
 * bulkstat, the namespaces an nsfs file leads to).  So a veiled process
 * may use only the listed ones there: a command a file system adds later is
 * refused too, and so is any on a file of no type that a path reaches (the
 * control file of coda, whose ioctls look up a path of their own).  The
 * ioctls of devices, pipes and sockets act on what the descriptor is, and
 * are not judged.  Terminal requests (isatty(), the window size), which
 * programs send to any file, get the answer every file system gives them,
 * without a report: a file is not a terminal.
 */
static bool commands_go_to_file_system(const struct file *const file)
{
	const umode_t type = file_inode(file)->i_mode & S_IFMT;

	return type == S_IFREG || type == S_IFDIR ||
	       (!type && !is_pathless(&file->f_path));
}

static int judge_ioctl(struct file *const file, const unsigned int cmd,
		       const bool compat)
{
	if (!commands_go_to_file_system(file) ||
	    (compat ? is_vfs_ioctl_compat(cmd) : is_vfs_ioctl(cmd)) ||
	    !current_is_veiled())
		return 0;
	if (_IOC_TYPE(cmd) == 'T')
		return -ENOTTY;
	return unveil_refuse("ioctl", &file->f_path, 0, 0, -EPERM);
}

static int hook_file_ioctl(struct file *const file, const unsigned int cmd,
			   const unsigned long arg)
{
	if (!unveil_used_anywhere())
		return 0;
	return judge_ioctl(file, cmd, false);
}

static int hook_file_ioctl_compat(struct file *const file,
				  const unsigned int cmd,
				  const unsigned long arg)
{
	if (!unveil_used_anywhere())
		return 0;
	return judge_ioctl(file, cmd, true);
}

#ifdef CONFIG_IO_URING
/* io_uring's ioctl for files: the commands of the file system's own. */
static int hook_uring_cmd(struct io_uring_cmd *const ioucmd)
{
	if (!unveil_used_anywhere() ||
	    !commands_go_to_file_system(ioucmd->file))
		return 0;
	return refuse_if_veiled("uring_cmd", &ioucmd->file->f_path);
}
#endif /* CONFIG_IO_URING */

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
	LSM_HOOK_INIT(bprm_creds_from_file, hook_bprm_creds_from_file),
	LSM_HOOK_INIT(bprm_committed_creds, hook_bprm_committed_creds),
	LSM_HOOK_INIT(file_ioctl, hook_file_ioctl),
	LSM_HOOK_INIT(file_ioctl_compat, hook_file_ioctl_compat),
#ifdef CONFIG_IO_URING
	LSM_HOOK_INIT(uring_cmd, hook_uring_cmd),
#endif
};

/**
 * unveil_add_fs_hooks - Register the file system hooks
 */
__init void unveil_add_fs_hooks(void)
{
	security_add_hooks_disabled(unveil_fs_hooks,
				    ARRAY_SIZE(unveil_fs_hooks), &unveil_lsmid);
}
