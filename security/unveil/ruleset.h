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
/* Directories and names that are inspectable only, not rules. */
#define UNVEIL_MAX_INSPECTABLE	16384

/**
 * struct unveil_name_rule - Rule for one name in a directory, or a name
 * that can be inspected
 *
 * Matches that exact name (bytes, no case folding) whether or not a file of
 * that name exists.
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
	/**
	 * @inspectable: An ancestor of a rule's target, or a directory named
	 * on the way to it: stat() may look at it, whatever the rules say.
	 */
	bool inspectable;
	/** @num_names: Number of entries in @names. */
	u32 num_names;
	/** @names: Rules for names in this directory. */
	const struct unveil_name_rule *names;
	/**
	 * @shown: How the process named the directory, a counted reference;
	 * NULL while it holds no rule (only inspectable entries).
	 */
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
	/** @num_inspectable: Number of inspectable-only entries (limit). */
	u32 num_inspectable;
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
	/** @inspectable: What becomes inspectable, @num_inspectable entries. */
	const struct unveil_inspectable *inspectable;
	/** @num_inspectable: Number of entries in @inspectable. */
	u32 num_inspectable;
};

int unveil_verdict(enum unveil_rule_kind kind, unveil_access_t access,
		   unveil_access_t needed);

u32 unveil_name_hash(const char *name, size_t max_len, size_t *len);

bool unveil_ruleset_has_room(const struct unveil_ruleset *old,
			     const struct unveil_object *object,
			     const char *name);
struct unveil_ruleset *unveil_ruleset_add(const struct unveil_ruleset *old,
					  const struct unveil_change *change);
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
