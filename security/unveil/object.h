/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Directories that rules are tied to
 */

#ifndef _SECURITY_UNVEIL_OBJECT_H
#define _SECURITY_UNVEIL_OBJECT_H

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/jump_label.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include "procfs.h"
#include "setup.h"

/**
 * struct unveil_object - A directory, or a file, that rules of some
 * processes refer to
 *
 * Rules name directories by object, never by path: a rule follows its
 * directory through renames, and a directory removed and created again is a
 * new object without rules.  A name rule on a file that exists also names
 * the file's object, so that the file's other names meet the rule.  One
 * object per inode, shared by the rules of all processes, found through the
 * inode's security blob.
 */
struct unveil_object {
	/**
	 * @usage: Number of rulesets that refer to this object.  At zero the
	 * object unties itself from its inode and is freed after an RCU grace
	 * period.
	 */
	refcount_t usage;
	/**
	 * @lock: Protects @inode against concurrent untying.  Taken before
	 * &inode->i_lock.
	 */
	spinlock_t lock;
	/**
	 * @inode: The directory, with a reference (ihold) that keeps it and
	 * its blob in memory while any rule refers to it; NULL once untied, by
	 * the last put or by the unmount of its file system (sb_delete).
	 * Protected by @lock.
	 */
	struct inode *inode;
	/**
	 * @pinned: The directory's dentry, with a reference, and an active
	 * reference on its superblock, on file systems that would make a new
	 * inode, without the object, on a lookup after the dentry cache
	 * dropped the directory (procfs): the dentry keeps lookups finding
	 * this inode, so a rule never lapses.  The file system then shuts
	 * down only after the object.  NULL elsewhere.  Set at creation.
	 */
	struct dentry *pinned;
	/**
	 * @proc: On procfs, what the directory is in every instance of it,
	 * which checks there match rules by (see procfs.c).  Set at creation.
	 */
	struct unveil_proc_key proc;
	/**
	 * @by_ino: On a file system that may give a file an inode for each
	 * of its names (see unveil_next_object_of_ino()), the object of a
	 * file is also in a table by file system and inode number, linked
	 * while the object is tied, so that the file's other inodes find it.
	 */
	struct hlist_node by_ino;
	/** @sb: The file system of an object in that table, else NULL. */
	const struct super_block *sb;
	/** @ino: With @sb, the inode number of the file.  Set at creation. */
	unsigned long ino;
	/** @rcu: Frees the object after lockless readers are done. */
	struct rcu_head rcu;
};

/**
 * struct unveil_inode_security - Inode security blob
 */
struct unveil_inode_security {
	/**
	 * @object: The object of this inode, or NULL.  Written under
	 * &inode->i_lock; read under RCU.
	 */
	struct unveil_object __rcu *object;
};

/**
 * struct unveil_superblock_security - Superblock security blob
 */
struct unveil_superblock_security {
	/**
	 * @inode_refs: Number of inode references held by objects of this
	 * file system.  The unmount (sb_delete) waits for it to reach zero,
	 * so that no inode is busy when the file system goes away.
	 */
	atomic_long_t inode_refs;
	/**
	 * @objects_by_ino: Number of objects of this file system in the
	 * table by inode number: while there are none, no check looks there.
	 */
	atomic_t objects_by_ino;
};

static inline struct unveil_inode_security *
unveil_inode(const struct inode *const inode)
{
	return inode->i_security + unveil_blob_sizes.lbs_inode;
}

static inline struct unveil_superblock_security *
unveil_superblock(const struct super_block *const sb)
{
	return sb->s_security + unveil_blob_sizes.lbs_superblock;
}

/* Whether any object was ever put in the table by inode number. */
DECLARE_STATIC_KEY_FALSE(unveil_objects_by_ino_used);

struct unveil_object *unveil_get_object(struct dentry *dir);
const struct unveil_object *
unveil_next_object_of_ino(const struct inode *inode,
			  const struct unveil_object *prev);
long unveil_objects_untied(void);
void unveil_object_get(struct unveil_object *object);
void unveil_object_put(struct unveil_object *object);

__init void unveil_add_object_hooks(void);

#endif /* _SECURITY_UNVEIL_OBJECT_H */
