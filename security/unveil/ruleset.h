/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Rules of a process and how they decide
 */

#ifndef _SECURITY_UNVEIL_RULESET_H
#define _SECURITY_UNVEIL_RULESET_H

#include <linux/errno.h>
#include <linux/hash.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "access.h"
#include "object.h"

/* At least the contract's 1024 of each kind (OpenBSD: 128). */
#define UNVEIL_MAX_DIR_RULES	1024
#define UNVEIL_MAX_NAME_RULES	1024
/* Directories and names that are inspectable only, and named files. */
#define UNVEIL_MAX_INSPECTABLE	16384

/**
 * struct unveil_name_rule - Rule for one name in a directory, or a name
 * that can be inspected
 *
 * Matches that exact name (bytes, no case folding) whether or not a file of
 * that name exists.  An entry only ever gains: a rule (@access written
 * before @is_rule, with smp_store_release()), new permissions for its rule,
 * or @inspectable; readers read @is_rule with smp_load_acquire().
 */
struct unveil_name_rule {
	/** @hash: unveil_name_hash() of @name. */
	u32 hash;
	/** @len: Length of @name, at most NAME_MAX. */
	u8 len;
	/** @is_rule: unveil() made a rule for this name, with @access. */
	bool is_rule;
	/** @access: Permissions of the rule. */
	unveil_access_t access;
	/**
	 * @inspectable: A symlink that unveil() went through: stat() and
	 * readlink() may look at it, whatever the rules say.
	 */
	bool inspectable;
	/** @name: The name, not NUL-terminated, inside its name table. */
	const char *name;
};

/**
 * struct unveil_names - The names of one directory, a table
 *
 * One allocation: the header, @max entries, the hash slots, then the bytes
 * of the names.  Entries are only ever appended: an entry is written, then
 * its slot, then @count, each published with smp_store_release().  A full
 * table is replaced by a larger copy, and freed after an RCU grace period.
 */
struct unveil_names {
	/** @rcu: Frees a replaced table after lockless readers are done. */
	struct rcu_head rcu;
	/** @count: Entries in use, in the order they were added. */
	u32 count;
	/** @max: Room for entries. */
	u32 max;
	/** @hash_mask: Number of slots, minus one (a power of two). */
	u32 hash_mask;
	/** @bytes_used: Bytes of names in use. */
	u32 bytes_used;
	/** @bytes_max: Room for the bytes of names. */
	u32 bytes_max;
	/** @slots: Open-addressing hash of @entries: index + 1, 0 if empty. */
	u32 *slots;
	/** @bytes: The bytes of the names. */
	char *bytes;
	/** @entries: The names. */
	struct unveil_name_rule entries[];
};

/**
 * struct unveil_shown_path - A directory as a process named it
 *
 * Kept to show the rules (attr.c), never to match them.  Made by unveil()
 * for a directory without rules yet, shared by every ruleset copied from
 * the one it entered, freed with the last of them.
 */
struct unveil_shown_path {
	/** @usage: Number of rulesets, and of unveil() calls, that hold it. */
	refcount_t usage;
	/**
	 * @path: d_path() of the directory when it got its first rule: a rule
	 * follows its directory through renames, @path does not.
	 */
	char path[];
};

/**
 * struct unveil_dir - Rules tied to one directory
 *
 * Written only by unveil() under the veil's lock, and only while no other
 * ruleset or reader holds a reference (see unveil_ruleset_add()); lockless
 * readers may run meanwhile.  It only ever gains: a rule (@access written
 * before @has_rule, with smp_store_release()), a rule for what is mounted
 * on it (@mount_access before @has_mount_rule, likewise), new permissions,
 * names, or @inspectable.
 */
struct unveil_dir {
	/** @object: The directory; the ruleset holds a reference. */
	struct unveil_object *object;
	/** @has_rule: The directory itself was unveiled, with @access. */
	bool has_rule;
	/** @access: Permissions of the directory rule. */
	unveil_access_t access;
	/**
	 * @has_mount_rule: The root of a mount on this directory was
	 * unveiled, with @mount_access: the rule holds for whatever is
	 * mounted here, never for the directory itself.
	 */
	bool has_mount_rule;
	/** @mount_access: Permissions of that rule. */
	unveil_access_t mount_access;
	/**
	 * @inspectable: An ancestor of a rule's target, or a directory named
	 * on the way to it: stat() may look at it, whatever the rules say.
	 */
	bool inspectable;
	/**
	 * @holds_rules: The directory or one of its names has a rule: it is
	 * in &unveil_ruleset.order.
	 */
	bool holds_rules;
	/**
	 * @is_file: The object is a file that a name rule named
	 * (&unveil_change.file): @has_rule and @access are that rule's, for
	 * the file under any of its names.
	 */
	bool is_file;
	/**
	 * @names: Rules for names in this directory, or NULL; replaced by a
	 * larger table with smp_store_release(), read with
	 * smp_load_acquire().
	 */
	struct unveil_names *names;
	/**
	 * @shown: How the process named the directory, a counted reference;
	 * NULL while it holds no rule (only inspectable entries).
	 */
	struct unveil_shown_path *shown;
};

/**
 * struct unveil_ruleset - All rules of a process
 *
 * Readers need no lock.  unveil() changes a ruleset in place while it is
 * the only reference to it, and copies it otherwise (after fork() shares
 * it, while a reader holds it) or when it is full: in place, entries are
 * only appended, each written before the hash slot that makes it visible
 * (smp_store_release()), so that lockless readers see either the old or the
 * new state of any entry.  Copies leave twice the room needed: adding n
 * rules copies O(log n) times.  One allocation holds the header, the
 * directories, their order and the hash slots.
 */
struct unveil_ruleset {
	/** @usage: Number of veils and readers that hold this ruleset. */
	refcount_t usage;
	/** @free_work: Frees the ruleset after an RCU grace period. */
	struct rcu_work free_work;
	/**
	 * @num_dir_rules: Number of directory rules (limit), rules on file
	 * systems unmounted since included until the next copy.  Read
	 * without the lock by unveil_ruleset_has_room(), as are
	 * @num_name_rules and @num_inspectable.
	 */
	u32 num_dir_rules;
	/** @num_name_rules: Number of name rules (limit). */
	u32 num_name_rules;
	/**
	 * @num_inspectable: Number of inspectable-only entries, and of files
	 * that name rules named (limit).
	 */
	u32 num_inspectable;
	/** @num_dirs: Number of entries in @dirs. */
	u32 num_dirs;
	/**
	 * @num_proc_dirs: Number of entries in @dirs on procfs, whose rules
	 * a check finds by key, looking at every entry (fs.c); none while
	 * this is 0.
	 */
	u32 num_proc_dirs;
	/** @max_dirs: Room in @dirs and @order. */
	u32 max_dirs;
	/** @num_ordered: Number of entries in @order. */
	u32 num_ordered;
	/**
	 * @untied_seen: unveil_objects_untied() before the ruleset was made:
	 * while it stays the same, no directory here lost its file system.
	 * Written before the ruleset is published, never changed.
	 */
	long untied_seen;
	/** @hash_mask: Number of slots in @slots, minus one (a power of two). */
	u32 hash_mask;
	/** @slots: Open-addressing hash of @dirs by object: index + 1, 0 if empty. */
	u32 *slots;
	/**
	 * @order: Indexes in @dirs of the directories that hold rules, in
	 * the order they got their first rule: how the rules are shown.
	 */
	u32 *order;
	/** @dirs: Directories with rules, or inspectable. */
	struct unveil_dir *dirs;
};

/**
 * unveil_dir_is_dead - Whether an unmount took a directory's rules away
 * @dir: Rules of a directory.
 *
 * Returns: true if its file system was unmounted: it can never match again.
 */
static inline bool unveil_dir_is_dead(const struct unveil_dir *const dir)
{
	return !READ_ONCE(dir->object->inode);
}

/**
 * enum unveil_rule_kind - What decided an access
 * @UNVEIL_RULE_NONE: No rule covers the object: it is hidden.
 * @UNVEIL_RULE_DIR: A directory rule on the object or an ancestor.
 * @UNVEIL_RULE_NAME: A name rule for the object in its parent directory.
 */
enum unveil_rule_kind {
	UNVEIL_RULE_NONE,
	UNVEIL_RULE_DIR,
	UNVEIL_RULE_NAME,
};

/**
 * unveil_verdict - Decide an access from the rule nearest to the object
 * @kind: What kind of rule was found, if any.
 * @access: Permissions of that rule.
 * @needed: Permissions the operation needs.
 *
 * A directory rule without permissions hides its tree; any other rule makes
 * the object visible, and grants the operation if it holds every needed
 * permission.
 *
 * Returns: 0 if allowed, -ENOENT if the object is hidden, -EACCES if it is
 * visible but the rule lacks a needed permission.
 */
static inline int unveil_verdict(const enum unveil_rule_kind kind,
				 const unveil_access_t access,
				 const unveil_access_t needed)
{
	if (kind == UNVEIL_RULE_NONE || (kind == UNVEIL_RULE_DIR && !access))
		return -ENOENT;
	if (needed & ~access)
		return -EACCES;
	return 0;
}

/**
 * struct unveil_inspectable - A directory or name that becomes inspectable
 */
struct unveil_inspectable {
	/** @object: The directory, or the directory holding @name. */
	struct unveil_object *object;
	/** @name: A symlink's name in @object, or NULL for @object itself. */
	const char *name;
};

/**
 * struct unveil_change - What one unveil() call adds to the rules
 */
struct unveil_change {
	/**
	 * @object: Directory of the rule: the unveiled directory itself, or
	 * the parent of the unveiled name.
	 */
	struct unveil_object *object;
	/**
	 * @file: For a name rule, the file of that name if it exists, or
	 * NULL.  It gets the rule too, unseen in the rules shown: the file's
	 * other names (hard links, aliases) meet it wherever they are.
	 */
	struct unveil_object *file;
	/**
	 * @shown: How the process names @object, to show the rules; the new
	 * ruleset takes a reference if the directory has no rule yet.
	 */
	struct unveil_shown_path *shown;
	/** @name: Unveiled name (NUL-terminated), or NULL for a directory rule. */
	const char *name;
	/**
	 * @access: Permissions of the rule; they replace those of an existing
	 * rule for the same directory or name.
	 */
	unveil_access_t access;
	/**
	 * @covered: For a directory rule on the root of a mount: the
	 * directories that it and the mounts beneath it cover, @num_covered
	 * entries.  Each gets the rule for what is mounted on it, so that the
	 * rule holds for whatever is mounted there next.
	 */
	struct unveil_object *const *covered;
	/** @num_covered: Number of entries in @covered. */
	u32 num_covered;
	/** @inspectable: What becomes inspectable, @num_inspectable entries. */
	const struct unveil_inspectable *inspectable;
	/** @num_inspectable: Number of entries in @inspectable. */
	u32 num_inspectable;
};

u32 unveil_name_hash(const char *name, size_t max_len, size_t *len);

bool unveil_ruleset_has_room(const struct unveil_ruleset *old,
			     const struct unveil_object *object,
			     const char *name);
struct unveil_ruleset *unveil_ruleset_add(struct unveil_ruleset *old,
					  const struct unveil_change *change);
void unveil_ruleset_get(struct unveil_ruleset *ruleset);

struct unveil_shown_path *unveil_shown_path_create(const char *path);
void unveil_shown_path_put(struct unveil_shown_path *shown);
void unveil_ruleset_put(struct unveil_ruleset *ruleset);

const struct unveil_name_rule *
unveil_dir_find_name(const struct unveil_dir *dir, const char *name,
		     size_t len, u32 hash);

/**
 * unveil_ruleset_find - Find the rules of a directory
 * @ruleset: Rules of a process.
 * @object: Object of the directory.
 *
 * Returns: The directory's rules, or NULL.
 */
static __always_inline const struct unveil_dir *
unveil_ruleset_find(const struct unveil_ruleset *const ruleset,
		    const struct unveil_object *const object)
{
	u32 i = hash_ptr(object, 32) & ruleset->hash_mask;
	u32 slot;

	/* Pairs with the release in hash_dir(). */
	while ((slot = smp_load_acquire(&ruleset->slots[i]))) {
		if (ruleset->dirs[slot - 1].object == object)
			return &ruleset->dirs[slot - 1];
		i = (i + 1) & ruleset->hash_mask;
	}
	return NULL;
}

/**
 * unveil_ruleset_has_proc_dirs - Whether any directory of a ruleset is on
 * procfs
 * @ruleset: Rules of a process.
 *
 * A check may miss one that unveil() adds meanwhile, as if it had come
 * first.
 *
 * Returns: false if a check on procfs finds no rule by key.
 */
static inline bool
unveil_ruleset_has_proc_dirs(const struct unveil_ruleset *const ruleset)
{
	return READ_ONCE(ruleset->num_proc_dirs);
}

/**
 * unveil_dir_has_rule - Whether a directory itself was unveiled
 * @dir: Rules of the directory.
 *
 * Returns: true if @dir holds a directory rule; its @access is then the
 * rule's (READ_ONCE()).
 */
static __always_inline bool unveil_dir_has_rule(const struct unveil_dir *dir)
{
	/* Pairs with the release in set_dir_rule(). */
	return smp_load_acquire(&dir->has_rule);
}

/**
 * unveil_dir_has_mount_rule - Whether the root of a mount on a directory
 * was unveiled
 * @dir: Rules of the directory.
 *
 * Returns: true if @dir holds a rule for what is mounted on it; its
 * @mount_access is then the rule's (READ_ONCE()).
 */
static __always_inline bool
unveil_dir_has_mount_rule(const struct unveil_dir *dir)
{
	/* Pairs with the release in set_dir_rule(). */
	return smp_load_acquire(&dir->has_mount_rule);
}

/**
 * unveil_name_is_rule - Whether a name was unveiled
 * @entry: Name entry.
 *
 * Returns: true if @entry holds a rule; its @access is then the rule's
 * (READ_ONCE()).
 */
static __always_inline bool
unveil_name_is_rule(const struct unveil_name_rule *entry)
{
	/* Pairs with the release in set_name_rule(). */
	return smp_load_acquire(&entry->is_rule);
}

/**
 * unveil_dir_names - The name table of a directory
 * @dir: Rules of the directory.
 *
 * Returns: The table, or NULL if the directory has no names.  Its first
 * smp_load_acquire(&names->count) entries are valid.
 */
static __always_inline const struct unveil_names *
unveil_dir_names(const struct unveil_dir *dir)
{
	/* Pairs with the release in apply_names(). */
	return smp_load_acquire(&dir->names);
}

#endif /* _SECURITY_UNVEIL_RULESET_H */
