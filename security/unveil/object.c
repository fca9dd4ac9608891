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
 * Locking: &unveil_object.lock is taken before &inode->i_lock (untie());
 * hook_sb_delete() takes &super_block.s_inode_list_lock before
 * &inode->i_lock, as evict_inodes() does, and drops both before it unties an
 * object.  Nothing else is taken inside these spinlocks.  Checks read
 * &unveil_inode_security.object and &unveil_object.inode under RCU only.
 */

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/lsm_hooks.h>
#include <linux/magic.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "object.h"
#include "setup.h"

static void put_inode_ref(struct inode *const inode)
{
	struct super_block *const sb = inode->i_sb;

	iput(inode);
	if (atomic_long_dec_and_test(&unveil_superblock(sb)->inode_refs))
		wake_up_var(&unveil_superblock(sb)->inode_refs);
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
		spin_lock(&inode->i_lock);
		rcu_assign_pointer(unveil_inode(inode)->object, NULL);
		spin_unlock(&inode->i_lock);
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
	security_add_hooks(unveil_object_hooks,
			   ARRAY_SIZE(unveil_object_hooks), &unveil_lsmid);
}
