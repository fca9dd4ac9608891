// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Directories that rules are tied to
 *
 * Objects hold a reference on their inode, so that the inode (and the rules
 * tied to it) stays in memory as long as a rule refers to it.  The unmount of
 * a file system unties all its objects and drops those references, so rules
 * never keep a file system busy: they just stop matching.  File systems
 * whose lookups would not find the inode again are the exception: there an
 * object pins its directory (see struct unveil_object).
 *
 * Locking: &unveil_object.lock is taken before &inode->i_lock (untie()),
 * and both before the lock of the table by inode number;
 * hook_sb_delete() takes &super_block.s_inode_list_lock before
 * &inode->i_lock, as evict_inodes() does, and drops both before it unties an
 * object.  Nothing else is taken inside these spinlocks.  Checks read
 * &unveil_inode_security.object and &unveil_object.inode under RCU only.
 */

#include <linux/atomic.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/jump_label.h>
#include <linux/lsm_hooks.h>
#include <linux/magic.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "object.h"
#include "setup.h"

/*
 * The objects of files on file systems that may give a file an inode for
 * each of its names, by file system and inode number.  Changed under the
 * lock, with an object's tie (taken inside &inode->i_lock and
 * &unveil_object.lock); read under RCU.
 */
static DEFINE_HASHTABLE(objects_by_ino, 8);
static DEFINE_SPINLOCK(objects_by_ino_lock);
DEFINE_STATIC_KEY_FALSE(unveil_objects_by_ino_used);

static unsigned long ino_key(const struct super_block *const sb,
			     const unsigned long ino)
{
	return (unsigned long)sb ^ ino;
}

/*
 * Whether another name of the file of @dentry may have another inode: 9p
 * without a cache makes an inode on every lookup, and a FUSE server that
 * names files by path gives each name its own node.  Both report the
 * file's own inode number (the server's), which all those inodes share.
 */
static bool may_have_inode_per_name(const struct dentry *const dentry)
{
	const unsigned long magic = dentry->d_sb->s_magic;

	return !d_is_dir(dentry) &&
	       (magic == V9FS_MAGIC || magic == FUSE_SUPER_MAGIC);
}

/* Called with &inode->i_lock held, as @object is tied to @inode. */
static void add_by_ino(struct unveil_object *const object,
		       const struct inode *const inode)
{
	object->sb = inode->i_sb;
	object->ino = inode->i_ino;
	spin_lock(&objects_by_ino_lock);
	hash_add_rcu(objects_by_ino, &object->by_ino,
		     ino_key(object->sb, object->ino));
	spin_unlock(&objects_by_ino_lock);
	atomic_inc(&unveil_superblock(object->sb)->objects_by_ino);
}

/* Called as @object is untied, with &unveil_object.lock held. */
static void remove_by_ino(struct unveil_object *const object)
{
	if (!object->sb)
		return;
	spin_lock(&objects_by_ino_lock);
	hash_del_rcu(&object->by_ino);
	spin_unlock(&objects_by_ino_lock);
	atomic_dec(&unveil_superblock(object->sb)->objects_by_ino);
}

/**
 * unveil_next_object_of_ino - Find the objects of the other inodes of a
 * file
 * @inode: An inode of a file on a file system that may give a file an
 *         inode for each of its names.
 * @prev: The object this returned last, or NULL for the first.
 *
 * Under RCU.  An object found may be untied at any time; it stays in memory
 * until the end of the RCU read-side critical section.
 *
 * Returns: The next object of a file with the file system and the inode
 * number of @inode, or NULL.
 */
const struct unveil_object *
unveil_next_object_of_ino(const struct inode *const inode,
			  const struct unveil_object *const prev)
{
	const unsigned long key = ino_key(inode->i_sb, inode->i_ino);
	struct hlist_head *bucket;
	struct hlist_node *node;

	if (prev) {
		node = rcu_dereference(hlist_next_rcu(&prev->by_ino));
	} else {
		bucket = &objects_by_ino[hash_min(key,
						  HASH_BITS(objects_by_ino))];
		node = rcu_dereference(hlist_first_rcu(bucket));
	}
	for (; node; node = rcu_dereference(hlist_next_rcu(node))) {
		const struct unveil_object *const object =
			hlist_entry(node, struct unveil_object, by_ino);

		if (object->sb == inode->i_sb && object->ino == inode->i_ino)
			return object;
	}
	return NULL;
}

static void put_inode_ref(struct inode *const inode)
{
	struct super_block *const sb = inode->i_sb;

	iput(inode);
	if (atomic_long_dec_and_test(&unveil_superblock(sb)->inode_refs))
		wake_up_var(&unveil_superblock(sb)->inode_refs);
}

/* Objects untied from their inode since boot (unveil_objects_untied()). */
static atomic_long_t objects_untied = ATOMIC_LONG_INIT(0);

/**
 * unveil_objects_untied - How many objects lost their inode since boot
 *
 * An unmount unties the objects of its file system: the rules on them can
 * never match again.  A ruleset that read this count before it was copied
 * holds no such directory while the count stays the same.
 *
 * Return: The count; it only grows.
 */
long unveil_objects_untied(void)
{
	/* Pairs with the release in untie(): a later copy sees the object. */
	return atomic_long_read_acquire(&objects_untied);
}

/*
 * Unties @object from @inode if it is still tied to it.  Returns true if the
 * caller now owns the object's inode reference.
 */
static bool untie(struct unveil_object *const object, struct inode *const inode)
{
	bool owned = false;

	spin_lock(&object->lock);
	if (object->inode == inode) {
		object->inode = NULL;
		/* Counted once the object is seen untied. */
		atomic_long_inc_return_release(&objects_untied);
		spin_lock(&inode->i_lock);
		rcu_assign_pointer(unveil_inode(inode)->object, NULL);
		spin_unlock(&inode->i_lock);
		remove_by_ino(object);
		owned = true;
	}
	spin_unlock(&object->lock);
	return owned;
}

/*
 * Whether a lookup finds the inode of @dir again after the dentry cache
 * dropped @dir, as long as the object holds the inode.  File systems on a
 * block device, kernfs (sysfs, cgroupfs) and these network and stacked
 * file systems find it by a key that does not change; tmpfs, ramfs and
 * hugetlbfs never drop a dentry.  Others make a new inode on a lookup
 * (procfs, debugfs), or may (9p, whose key holds a version that changes
 * with the directory; SMB without server inode numbers): there the object
 * pins the directory.
 */
static bool inode_is_found_again(const struct dentry *const dir)
{
	const struct super_block *const sb = dir->d_sb;

	if (sb->s_type->fs_flags & FS_REQUIRES_DEV)
		return true;
	switch (sb->s_magic) {
	case TMPFS_MAGIC:
	case RAMFS_MAGIC:
	case HUGETLBFS_MAGIC:
	case SYSFS_MAGIC:
	case CGROUP_SUPER_MAGIC:
	case CGROUP2_SUPER_MAGIC:
	case NFS_SUPER_MAGIC:
	case CEPH_SUPER_MAGIC:
	case FUSE_SUPER_MAGIC:
	case OVERLAYFS_SUPER_MAGIC:
	case ECRYPTFS_SUPER_MAGIC:
		return true;
	}
	return false;
}

/* Pins @dir and its file system; false if the file system is going away. */
static bool pin_dir(struct unveil_object *const object,
		    struct dentry *const dir)
{
	/* The caller's path holds a mount, which holds the superblock active. */
	if (WARN_ON_ONCE(!atomic_inc_not_zero(&dir->d_sb->s_active)))
		return false;
	object->pinned = dget(dir);
	return true;
}

static void free_object_rcu(struct rcu_head *const head)
{
	struct unveil_object *const object =
		container_of(head, struct unveil_object, rcu);

	kfree(object->proc.path);
	kfree(object);
}

static void free_object(struct unveil_object *const object)
{
	if (object->pinned) {
		struct super_block *const sb = object->pinned->d_sb;

		dput(object->pinned);
		deactivate_super(sb);
	}
	/* Only rulesets, which hold references, lead checks to the key. */
	put_pid(object->proc.process);
	call_rcu(&object->rcu, free_object_rcu);
}

/**
 * unveil_get_object - Get the object of a directory or file, creating it if
 * needed
 * @dir: A directory, or a file that a name rule names, on a path the caller
 *       holds.
 *
 * Returns: The object with a new reference, ERR_PTR(-ENOMEM), or
 * ERR_PTR(-ENOENT) if the file system is being shut down, or
 * ERR_PTR(-ENAMETOOLONG) for a directory of procfs too deep to name.
 */
struct unveil_object *unveil_get_object(struct dentry *const dir)
{
	struct inode *const inode = d_backing_inode(dir);
	struct unveil_inode_security *const blob = unveil_inode(inode);
	struct unveil_object *object, *new;

	might_sleep();
	/* Checks look in the table from now on, before the object is there. */
	if (may_have_inode_per_name(dir) &&
	    !static_key_enabled(&unveil_objects_by_ino_used))
		static_branch_enable(&unveil_objects_by_ino_used);
	for (;;) {
		rcu_read_lock();
		object = rcu_dereference(blob->object);
		if (object && refcount_inc_not_zero(&object->usage)) {
			rcu_read_unlock();
			return object;
		}
		rcu_read_unlock();
		if (object) {
			/* Being released: it unties itself in a moment. */
			cond_resched();
			continue;
		}

		new = kzalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);
		if (!new)
			return ERR_PTR(-ENOMEM);
		refcount_set(&new->usage, 1);
		spin_lock_init(&new->lock);
		new->inode = inode;
		if (unveil_is_procfs(dir)) {
			const int err = unveil_proc_key_init(&new->proc, dir);

			if (err) {
				kfree(new);
				return ERR_PTR(err);
			}
		}
		if (!inode_is_found_again(dir) && !pin_dir(new, dir)) {
			unveil_proc_key_release(&new->proc);
			kfree(new);
			return ERR_PTR(-ENOENT);
		}

		spin_lock(&inode->i_lock);
		if (rcu_access_pointer(blob->object)) {
			spin_unlock(&inode->i_lock);
			free_object(new);
			continue;
		}
		__iget(inode);
		atomic_long_inc(&unveil_superblock(inode->i_sb)->inode_refs);
		rcu_assign_pointer(blob->object, new);
		if (may_have_inode_per_name(dir))
			add_by_ino(new, inode);
		spin_unlock(&inode->i_lock);
		return new;
	}
}

/**
 * unveil_object_get - Take another reference on an object
 * @object: Object the caller holds a reference on.
 */
void unveil_object_get(struct unveil_object *const object)
{
	refcount_inc(&object->usage);
}

/**
 * unveil_object_put - Drop a reference on an object
 * @object: Object, or NULL.
 *
 * May sleep: the last reference drops the references on the inode, and on
 * a pinned directory and its file system.
 */
void unveil_object_put(struct unveil_object *const object)
{
	struct inode *inode;

	might_sleep();
	if (!object || !refcount_dec_and_test(&object->usage))
		return;

	spin_lock(&object->lock);
	inode = object->inode;
	spin_unlock(&object->lock);
	if (inode && untie(object, inode))
		put_inode_ref(inode);
	free_object(object);
}

static void hook_inode_free_security_rcu(void *inode_security)
{
	struct unveil_inode_security *const blob =
		inode_security + unveil_blob_sizes.lbs_inode;

	/* Objects hold a reference: their inode cannot be freed. */
	WARN_ON_ONCE(rcu_access_pointer(blob->object));
}

/*
 * Unmount: untie every object of this file system and drop its inode
 * reference, then wait for objects released concurrently to drop theirs.
 */
static void hook_sb_delete(struct super_block *const sb)
{
	struct inode *inode, *prev = NULL;

	spin_lock(&sb->s_inode_list_lock);
	list_for_each_entry(inode, &sb->s_inodes, i_sb_list) {
		struct unveil_object *object;

		spin_lock(&inode->i_lock);
		if (inode->i_state & (I_FREEING | I_WILL_FREE | I_NEW)) {
			spin_unlock(&inode->i_lock);
			continue;
		}
		rcu_read_lock();
		object = rcu_dereference(unveil_inode(inode)->object);
		if (!object || !refcount_inc_not_zero(&object->usage)) {
			/* No object, or one that is releasing itself. */
			rcu_read_unlock();
			spin_unlock(&inode->i_lock);
			continue;
		}
		rcu_read_unlock();
		/* Keeps @inode on the list while the locks are dropped. */
		__iget(inode);
		spin_unlock(&inode->i_lock);
		spin_unlock(&sb->s_inode_list_lock);

		if (prev)
			iput(prev);
		prev = inode;
		if (untie(object, inode))
			put_inode_ref(inode);
		unveil_object_put(object);
		cond_resched();

		spin_lock(&sb->s_inode_list_lock);
	}
	spin_unlock(&sb->s_inode_list_lock);
	if (prev)
		iput(prev);

	wait_var_event(&unveil_superblock(sb)->inode_refs,
		       !atomic_long_read(&unveil_superblock(sb)->inode_refs));
}

static struct security_hook_list unveil_object_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(inode_free_security_rcu, hook_inode_free_security_rcu),
	LSM_HOOK_INIT(sb_delete, hook_sb_delete),
};

/**
 * unveil_add_object_hooks - Register the inode and superblock hooks
 */
__init void unveil_add_object_hooks(void)
{
	security_add_hooks_disabled(unveil_object_hooks,
				    ARRAY_SIZE(unveil_object_hooks),
				    &unveil_lsmid);
}
