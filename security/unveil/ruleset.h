/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Rules of a process and how they decide
 */

#ifndef _SECURITY_UNVEIL_RULESET_H
#define _SECURITY_UNVEIL_RULESET_H

#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "access.h"
#include "object.h"

/* At least the contract's 1024 of each kind (OpenBSD: 128). */
#define UNVEIL_MAX_DIR_RULES	1024
#define UNVEIL_MAX_NAME_RULES	1024

/**
 * struct unveil_name_rule - Rule for one name in a directory
 *
 * Matches that exact name (bytes, no case folding) whether or not a file of
 * that name exists.
 */
struct unveil_name_rule {
	/** @hash: unveil_name_hash() of @name. */
	u32 hash;
	/** @len: Length of @name, at most NAME_MAX. */
	u8 len;
	/** @access: Permissions. */
	unveil_access_t access;
	/** @name: The name, not NUL-terminated, inside the ruleset. */
	const char *name;
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
 */
struct unveil_dir {
	/** @object: The directory; the ruleset holds a reference. */
	struct unveil_object *object;
	/** @has_rule: The directory itself was unveiled, with @access. */
	bool has_rule;
	/** @access: Permissions of the directory rule. */
	unveil_access_t access;
	/** @num_names: Number of entries in @names. */
	u32 num_names;
	/** @names: Rules for names in this directory. */
	const struct unveil_name_rule *names;
	/** @shown: How the process named the directory; a counted reference. */
	struct unveil_shown_path *shown;
};

/**
 * struct unveil_ruleset - All rules of a process, at one instant
 *
 * Immutable once published, so readers need no lock: unveil() builds a new
 * ruleset for every change and publishes it with RCU; fork() shares it.  One
 * allocation holds the header, the hash table, the directories, the name
 * rules and the name bytes.
 */
struct unveil_ruleset {
	/** @usage: Number of veils that point to this ruleset. */
	refcount_t usage;
	/** @free_work: Frees the ruleset after an RCU grace period. */
	struct rcu_work free_work;
	/** @num_dir_rules: Number of directory rules (limit). */
	u32 num_dir_rules;
	/** @num_name_rules: Number of name rules (limit). */
	u32 num_name_rules;
	/** @num_dirs: Number of entries in @dirs. */
	u32 num_dirs;
	/** @hash_mask: Number of slots in @slots, minus one (a power of two). */
	u32 hash_mask;
	/** @slots: Open-addressing hash of @dirs by object: index + 1, 0 if empty. */
	u32 *slots;
	/** @dirs: Directories with rules. */
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

int unveil_verdict(enum unveil_rule_kind kind, unveil_access_t access,
		   unveil_access_t needed);

u32 unveil_name_hash(const char *name, size_t max_len, size_t *len);

struct unveil_ruleset *
unveil_ruleset_add(const struct unveil_ruleset *old,
		   struct unveil_object *object, struct unveil_shown_path *shown,
		   const char *name, unveil_access_t access);
void unveil_ruleset_get(struct unveil_ruleset *ruleset);

struct unveil_shown_path *unveil_shown_path_create(const char *path);
void unveil_shown_path_put(struct unveil_shown_path *shown);
void unveil_ruleset_put(struct unveil_ruleset *ruleset);

const struct unveil_dir *
unveil_ruleset_find(const struct unveil_ruleset *ruleset,
		    const struct unveil_object *object);
const struct unveil_name_rule *
unveil_dir_find_name(const struct unveil_dir *dir, const char *name,
		     size_t len, u32 hash);

#endif /* _SECURITY_UNVEIL_RULESET_H */
