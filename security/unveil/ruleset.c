// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Rules of a process and how they decide
 *
 * A ruleset is changed in place while nothing else holds it and it has
 * room, and copied otherwise (unveil_ruleset_add()); either way checks read
 * it at the same time, under RCU and without a lock.  So an entry is
 * written whole before the store that makes it reachable, and what may
 * grow is read after the load that says how far.
 *
 * Locking: changes are serialised by the caller (the veil's lock).  Lockless
 * readers rely on these release/acquire pairs, one per thing published:
 *
 * - a directory entry: its hash slot, hash_dir() ->
 *   unveil_ruleset_find();
 * - the number of directories, apply_change() -> counts_kept();
 * - a directory's rule, with its permissions: &unveil_dir.has_rule,
 *   set_dir_rule() -> unveil_dir_has_rule();
 * - the rule for what is mounted on it: &unveil_dir.has_mount_rule,
 *   set_dir_rule() -> unveil_dir_has_mount_rule();
 * - a larger name table, with every entry copied: &unveil_dir.names,
 *   apply_names() -> unveil_dir_names();
 * - a name entry: its hash slot, append_name() -> find_name();
 * - the number of names, append_name() -> count_dir();
 * - a name's rule, with its permissions: &unveil_name_rule.is_rule,
 *   set_name_rule() -> unveil_name_is_rule().
 *
 * Permissions, flags, the shown path and the counts are single values that
 * a reader may see old or new: written with WRITE_ONCE(), read with
 * READ_ONCE().  The ruleset itself is published by rcu_assign_pointer() of
 * &unveil_veil.rules (veil.c) and freed after a grace period.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/hash.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "access.h"
#include "object.h"
#include "ruleset.h"

/**
 * unveil_name_hash - Hash a file name
 * @name: The name; may change under the caller (RCU readers of dentry names),
 *        but is NUL-terminated within @max_len + 1 bytes.
 * @max_len: Length the caller expects.
 * @len: If not NULL, receives the number of bytes hashed: @max_len, or less
 *       if a NUL came first.
 *
 * Returns: The hash.
 */
u32 unveil_name_hash(const char *const name, const size_t max_len,
		     size_t *const len)
{
	u32 hash = 2166136261u;
	size_t i;

	for (i = 0; i < max_len; i++) {
		const unsigned char c = READ_ONCE(name[i]);

		if (!c)
			break;
		hash = (hash ^ c) * 16777619u;
	}
	if (len)
		*len = i;
	return hash;
}

static const struct unveil_name_rule *
find_name(const struct unveil_names *const names, const char *const name,
	  const size_t len, const u32 hash)
{
	u32 i = hash & names->hash_mask;
	u32 slot;

	/* Pairs with the release in append_name(). */
	while ((slot = smp_load_acquire(&names->slots[i]))) {
		const struct unveil_name_rule *const entry =
			&names->entries[slot - 1];

		if (entry->hash == hash && entry->len == len &&
		    !memcmp(entry->name, name, len))
			return entry;
		i = (i + 1) & names->hash_mask;
	}
	return NULL;
}

/**
 * unveil_dir_find_name - Find the rule for a name in a directory
 * @dir: Rules of the directory.
 * @name: The name, @len bytes.
 * @len: Length of @name.
 * @hash: unveil_name_hash() of @name.
 *
 * Returns: The name rule, or NULL.
 */
const struct unveil_name_rule *
unveil_dir_find_name(const struct unveil_dir *const dir, const char *const name,
		     const size_t len, const u32 hash)
{
	const struct unveil_names *const names = unveil_dir_names(dir);

	return names ? find_name(names, name, len, hash) : NULL;
}

/**
 * struct name_change - What a change does to one name
 *
 * Make or replace a rule, make the name inspectable, or both.  Lives for
 * one unveil_ruleset_add(), in a &struct sorted_change.
 */
struct name_change {
	/** @entry: The entry as the change leaves it. */
	struct unveil_name_rule entry;
	/** @found: The name's entry in the ruleset changed, or NULL. */
	const struct unveil_name_rule *found;
};

/**
 * struct dir_change - What a change does to one directory and its names
 *
 * Lives for one unveil_ruleset_add(), in a &struct sorted_change.
 */
struct dir_change {
	/** @object: The directory (or named file); borrowed from the change. */
	struct unveil_object *object;
	/** @found: The directory's entry in the ruleset changed, or NULL. */
	const struct unveil_dir *found;
	/** @rule: The change makes or replaces the directory's rule. */
	bool rule;
	/** @mount_rule: ... or the rule for what is mounted on it. */
	bool mount_rule;
	/** @file: @object is a file that a name rule named. */
	bool file;
	/** @access: Permissions of the rules it makes. */
	unveil_access_t access;
	/** @inspectable: The change makes the directory inspectable. */
	bool inspectable;
	/** @shown: Path shown for a directory new to the ruleset; borrowed. */
	struct unveil_shown_path *shown;
	/** @first_name: Index of its first &struct name_change. */
	u32 first_name;
	/** @num_names: Number of its name changes. */
	u32 num_names;
	/**
	 * @grown: A larger name table made ready for it, or NULL; owned
	 * until the change is applied.
	 */
	struct unveil_names *grown;
};

/**
 * struct sorted_change - A change sorted by directory, then name
 *
 * One &struct dir_change per directory, its name changes side by side.
 * Allocated by sort_change(), freed by free_sorted().
 */
struct sorted_change {
	/** @dirs: The directories, sorted. */
	struct dir_change *dirs;
	/** @num_dirs: Number of @dirs. */
	u32 num_dirs;
	/** @names: The names of all of @dirs, grouped by directory. */
	struct name_change *names;
	/** @num_names: Number of @names. */
	u32 num_names;
};

/**
 * struct change_item - One item of a change, before it is sorted
 *
 * The rule, the rule for what is mounted on a covered directory, the rule
 * of a named file, or an inspectable directory or name.  Lives in an array
 * of list_items() for one sort_change().
 */
struct change_item {
	/** @object: The directory; borrowed from the change. */
	struct unveil_object *object;
	/** @name: The name in it, or NULL; borrowed from the change. */
	const char *name;
	/** @len: Length of @name. */
	size_t len;
	/** @rule: The item is a rule. */
	bool rule;
	/** @covered: ... for what is mounted on @object. */
	bool covered;
	/** @file: ... for the file @object, which a name rule named. */
	bool file;
	/** @inspectable: The item makes @object or @name inspectable. */
	bool inspectable;
};

static int cmp_items(const void *const a, const void *const b)
{
	const struct change_item *const x = a, *const y = b;

	if (x->object != y->object)
		return x->object < y->object ? -1 : 1;
	if (!x->name || !y->name)
		return !!x->name - !!y->name;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->name, y->name, x->len);
}

static bool same_target(const struct change_item *const x,
			const struct change_item *const y)
{
	return x->object == y->object && !cmp_items(x, y);
}

static void free_sorted(struct sorted_change *const sorted)
{
	u32 d;

	for (d = 0; sorted->dirs && d < sorted->num_dirs; d++)
		kvfree(sorted->dirs[d].grown);
	kvfree(sorted->dirs);
	kvfree(sorted->names);
}

/*
 * Lists the items of @change in @items, @count of them.  Returns 0, or
 * -ENAMETOOLONG if a name is longer than NAME_MAX.
 */
static int list_items(const struct unveil_change *const change,
		      struct change_item *const items, const u32 count)
{
	u32 i, c;

	items[0] = (struct change_item){
		.object = change->object,
		.name = change->name,
		.rule = true,
	};
	for (c = 0; c < change->num_covered; c++)
		items[1 + c] = (struct change_item){
			.object = change->covered[c],
			.covered = true,
		};
	if (change->file)
		items[1 + c++] = (struct change_item){
			.object = change->file,
			.file = true,
		};
	for (i = 1 + c; i < count; i++)
		items[i] = (struct change_item){
			.object = change->inspectable[i - 1 - c].object,
			.name = change->inspectable[i - 1 - c].name,
			.inspectable = true,
		};
	for (i = 0; i < count; i++) {
		if (!items[i].name)
			continue;
		items[i].len = strnlen(items[i].name, NAME_MAX + 1);
		if (items[i].len > NAME_MAX)
			return -ENAMETOOLONG;
	}
	return 0;
}

/*
 * Merges the @count items from @first, which name the same target, into
 * @sorted.
 */
static void sort_target(struct sorted_change *const sorted,
			const struct change_item *const first, const u32 count,
			const struct unveil_change *const change)
{
	struct change_item merged = *first;
	struct dir_change *dir;
	u32 i;

	for (i = 1; i < count; i++) {
		merged.rule |= first[i].rule;
		merged.covered |= first[i].covered;
		merged.file |= first[i].file;
		merged.inspectable |= first[i].inspectable;
	}
	dir = sorted->num_dirs ? &sorted->dirs[sorted->num_dirs - 1] : NULL;
	if (!dir || dir->object != merged.object) {
		dir = &sorted->dirs[sorted->num_dirs++];
		dir->object = merged.object;
		dir->first_name = sorted->num_names;
	}
	if (merged.name) {
		sorted->names[sorted->num_names++].entry =
			(struct unveil_name_rule){
			.hash = unveil_name_hash(merged.name, merged.len, NULL),
			.len = merged.len,
			.is_rule = merged.rule,
			.access = merged.rule ? change->access : 0,
			.inspectable = merged.inspectable,
			.name = merged.name,
		};
		dir->num_names++;
	} else {
		dir->rule |= merged.rule;
		dir->mount_rule |= merged.covered;
		dir->file |= merged.file;
		dir->inspectable |= merged.inspectable;
		if (merged.rule || merged.covered || merged.file)
			dir->access = change->access;
	}
	if (merged.rule)
		dir->shown = change->shown;
}

/*
 * Sorts @change by directory and name, merging the items that name the
 * same target.  Returns 0, -ENAMETOOLONG if a name is longer than NAME_MAX,
 * or -ENOMEM.
 */
static int sort_change(const struct unveil_change *const change,
		       struct sorted_change *const sorted)
{
	const u32 count = 1 + change->num_covered + !!change->file +
			  change->num_inspectable;
	struct change_item *items;
	u32 i, n;
	int err;

	BUILD_BUG_ON(NAME_MAX > U8_MAX);
	items = kvcalloc(count, sizeof(*items), GFP_KERNEL_ACCOUNT);
	sorted->dirs = kvcalloc(count, sizeof(*sorted->dirs),
				GFP_KERNEL_ACCOUNT);
	sorted->names = kvcalloc(count, sizeof(*sorted->names),
				 GFP_KERNEL_ACCOUNT);
	sorted->num_dirs = 0;
	sorted->num_names = 0;
	err = items && sorted->dirs && sorted->names ?
	      list_items(change, items, count) : -ENOMEM;
	if (err) {
		kvfree(items);
		free_sorted(sorted);
		return err;
	}
	sort(items, count, sizeof(*items), cmp_items, NULL);
	for (i = 0; i < count; i = n) {
		for (n = i + 1; n < count && same_target(&items[n], &items[i]); n++)
			;
		sort_target(sorted, &items[i], n - i, change);
	}
	kvfree(items);
	return 0;
}

/* Finds each directory and name of @sorted in @ruleset (or NULL). */
static void resolve_change(const struct unveil_ruleset *const ruleset,
			   struct sorted_change *const sorted)
{
	u32 d, c;

	for (d = 0; d < sorted->num_dirs; d++) {
		struct dir_change *const dir = &sorted->dirs[d];

		dir->found = ruleset ? unveil_ruleset_find(ruleset, dir->object) :
				       NULL;
		for (c = 0; c < dir->num_names; c++) {
			struct name_change *const name =
				&sorted->names[dir->first_name + c];

			name->found = dir->found ?
				unveil_dir_find_name(dir->found,
						     name->entry.name,
						     name->entry.len,
						     name->entry.hash) : NULL;
		}
	}
}

/* Finds the change of @object in @sorted, or NULL. */
static const struct dir_change *
find_dir_change(const struct sorted_change *const sorted,
		const struct unveil_object *const object)
{
	u32 low = 0, high = sorted->num_dirs;

	while (low < high) {
		const u32 mid = low + (high - low) / 2;

		if (sorted->dirs[mid].object == object)
			return &sorted->dirs[mid];
		if (sorted->dirs[mid].object < object)
			low = mid + 1;
		else
			high = mid;
	}
	return NULL;
}

/**
 * struct ruleset_counts - What a ruleset holds, against the limits
 */
struct ruleset_counts {
	/** @num_dirs: Directories. */
	u32 num_dirs;
	/** @num_dir_rules: Directory rules. */
	u32 num_dir_rules;
	/** @num_name_rules: Name rules. */
	u32 num_name_rules;
	/**
	 * @num_inspectable: Entries that are inspectable, and not rules, and
	 * files that name rules named.
	 */
	u32 num_inspectable;
};

static bool over_limits(const struct ruleset_counts *const counts)
{
	return counts->num_dir_rules > UNVEIL_MAX_DIR_RULES ||
	       counts->num_name_rules > UNVEIL_MAX_NAME_RULES ||
	       counts->num_inspectable > UNVEIL_MAX_INSPECTABLE;
}

/* What @ruleset holds, as it counts it. */
static struct ruleset_counts counts_of(const struct unveil_ruleset *ruleset)
{
	if (!ruleset)
		return (struct ruleset_counts){};
	return (struct ruleset_counts){
		.num_dirs = READ_ONCE(ruleset->num_dirs),
		.num_dir_rules = READ_ONCE(ruleset->num_dir_rules),
		.num_name_rules = READ_ONCE(ruleset->num_name_rules),
		.num_inspectable = READ_ONCE(ruleset->num_inspectable),
	};
}

static void count_dir(struct ruleset_counts *const counts,
		      const struct unveil_dir *const dir)
{
	const struct unveil_names *const names = unveil_dir_names(dir);
	/* Pairs with the release in append_name(): may run without the lock. */
	const u32 count = names ? smp_load_acquire(&names->count) : 0;
	const bool has_rule = unveil_dir_has_rule(dir);
	const bool is_file = READ_ONCE(dir->is_file);
	u32 n;

	counts->num_dirs++;
	counts->num_dir_rules += (has_rule && !is_file) +
				 unveil_dir_has_mount_rule(dir);
	/* A file's rule is that of a name rule, counted with the others. */
	counts->num_inspectable += (READ_ONCE(dir->inspectable) && !has_rule) +
				   (has_rule && is_file);
	for (n = 0; n < count; n++) {
		const bool is_rule = unveil_name_is_rule(&names->entries[n]);

		counts->num_name_rules += is_rule;
		counts->num_inspectable +=
			READ_ONCE(names->entries[n].inspectable) && !is_rule;
	}
}

/*
 * Whether a copy of @old keeps @dir: rules on a file system unmounted since
 * can never match again, but a change's directory is alive.
 */
static bool copy_keeps(const struct unveil_dir *const dir,
		       const struct sorted_change *const sorted)
{
	return !unveil_dir_is_dead(dir) ||
	       (sorted && find_dir_change(sorted, dir->object));
}

/* What a copy of @ruleset would hold: the directories it keeps. */
static struct ruleset_counts counts_kept(const struct unveil_ruleset *ruleset,
					 const struct sorted_change *sorted)
{
	/* Pairs with the release in apply_change(): may run without the lock. */
	const u32 num_dirs = ruleset ? smp_load_acquire(&ruleset->num_dirs) : 0;
	struct ruleset_counts counts = {};
	u32 i;

	for (i = 0; i < num_dirs; i++)
		if (copy_keeps(&ruleset->dirs[i], sorted))
			count_dir(&counts, &ruleset->dirs[i]);
	return counts;
}

/* Counts what @sorted adds to @counts, as resolved in their ruleset. */
static void count_change(struct ruleset_counts *const counts,
			 const struct sorted_change *const sorted)
{
	u32 d, c;

	for (d = 0; d < sorted->num_dirs; d++) {
		const struct dir_change *const dir = &sorted->dirs[d];
		const struct unveil_dir *const found = dir->found;
		const bool had_rule = found && found->has_rule;
		const bool had_mount_rule = found && found->has_mount_rule;
		const bool was_inspectable = found && found->inspectable;

		counts->num_dirs += !found;
		counts->num_dir_rules += dir->rule && !had_rule;
		counts->num_dir_rules += dir->mount_rule && !had_mount_rule;
		counts->num_inspectable += dir->file && !had_rule;
		counts->num_inspectable -= was_inspectable && !had_rule &&
					   dir->rule;
		counts->num_inspectable += dir->inspectable &&
					   !was_inspectable && !had_rule &&
					   !dir->rule;
		for (c = 0; c < dir->num_names; c++) {
			const struct name_change *const name =
				&sorted->names[dir->first_name + c];
			const struct unveil_name_rule *const old = name->found;
			const bool old_rule = old && old->is_rule;
			const bool old_insp = old && old->inspectable;

			counts->num_name_rules += name->entry.is_rule &&
						  !old_rule;
			counts->num_inspectable -= old_insp && !old_rule &&
						   name->entry.is_rule;
			counts->num_inspectable += name->entry.inspectable &&
						   !old_insp && !old_rule &&
						   !name->entry.is_rule;
		}
	}
}

/* Whether @counts leave room for one more rule, on a @name or a directory. */
static bool has_room_for_one_more(const struct ruleset_counts *const counts,
				  const char *const name)
{
	struct ruleset_counts more = *counts;

	if (name)
		more.num_name_rules++;
	else
		more.num_dir_rules++;
	return !over_limits(&more);
}

/**
 * unveil_ruleset_has_room - Whether a rule passes the limits
 * @old: Current rules, or NULL; may be read without the veil's lock.
 * @object: Directory of the rule.
 * @name: Unveiled name, or NULL for a directory rule.
 *
 * Lets unveil() fail with -E2BIG before it looks for what the rule makes
 * inspectable; unveil_ruleset_add() checks again, with those.
 *
 * Returns: false if the rule would be one too many of its kind.
 */
bool unveil_ruleset_has_room(const struct unveil_ruleset *const old,
			     const struct unveil_object *const object,
			     const char *const name)
{
	struct ruleset_counts counts = counts_of(old);
	const struct unveil_dir *found;
	size_t len;

	if (!old)
		return true;
	found = unveil_ruleset_find(old, object);
	if (name) {
		len = strnlen(name, NAME_MAX + 1);
		if (found) {
			const struct unveil_name_rule *const entry =
				unveil_dir_find_name(found, name, len,
						     unveil_name_hash(name, len,
								      NULL));

			if (entry && unveil_name_is_rule(entry))
				return true;
		}
	} else if (found && unveil_dir_has_rule(found)) {
		return true;
	}
	if (has_room_for_one_more(&counts, name))
		return true;
	/*
	 * At the limit, rules on unmounted file systems do not count, if an
	 * unmount since the ruleset was made can have left any.
	 */
	if (old->untied_seen == unveil_objects_untied())
		return false;
	counts = counts_kept(old, NULL);
	return has_room_for_one_more(&counts, name);
}

static struct unveil_ruleset *alloc_ruleset(const u32 max_dirs)
{
	const u32 num_slots = roundup_pow_of_two(2 * max_dirs);
	struct unveil_ruleset *ruleset;
	size_t size = sizeof(*ruleset);

	size = size_add(size, array_size(max_dirs, sizeof(struct unveil_dir)));
	size = size_add(size, array_size(max_dirs, sizeof(u32)));
	size = size_add(size, array_size(num_slots, sizeof(u32)));
	ruleset = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!ruleset)
		return NULL;
	refcount_set(&ruleset->usage, 1);
	ruleset->max_dirs = max_dirs;
	ruleset->hash_mask = num_slots - 1;
	ruleset->dirs = (struct unveil_dir *)(ruleset + 1);
	ruleset->order = (u32 *)(ruleset->dirs + max_dirs);
	ruleset->slots = ruleset->order + max_dirs;
	return ruleset;
}

static struct unveil_names *alloc_names(const u32 max, const u32 bytes_max)
{
	const u32 num_slots = roundup_pow_of_two(2 * max);
	struct unveil_names *names;
	size_t size = struct_size(names, entries, max);

	size = size_add(size, array_size(num_slots, sizeof(u32)));
	size = size_add(size, bytes_max);
	names = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!names)
		return NULL;
	names->max = max;
	names->hash_mask = num_slots - 1;
	names->bytes_max = bytes_max;
	names->slots = (u32 *)(names->entries + max);
	names->bytes = (char *)(names->slots + num_slots);
	return names;
}

/*
 * Appends @entry, a name not in @names, with a copy of its bytes; lockless
 * readers may look at @names meanwhile.
 */
static void append_name(struct unveil_names *const names,
			const struct unveil_name_rule *const entry)
{
	const u32 index = names->count;
	struct unveil_name_rule *const copy = &names->entries[index];
	u32 i = entry->hash & names->hash_mask;

	*copy = *entry;
	copy->name = memcpy(names->bytes + names->bytes_used, entry->name,
			    entry->len);
	names->bytes_used += entry->len;
	while (names->slots[i])
		i = (i + 1) & names->hash_mask;
	/* Pairs with the acquire in find_name(): the entry is written. */
	smp_store_release(&names->slots[i], index + 1);
	/* Pairs with the acquire in count_dir(). */
	smp_store_release(&names->count, index + 1);
}

/*
 * A name table for @old (or NULL) and @more names of @more_bytes bytes, or
 * NULL if memory is short: room for twice what it will hold.
 */
static struct unveil_names *make_names(const struct unveil_names *old,
				       const u32 more, const u32 more_bytes)
{
	const u32 count = (old ? old->count : 0) + more;
	const u32 bytes = (old ? old->bytes_used : 0) + more_bytes;
	struct unveil_names *names;
	u32 n;

	names = alloc_names(max(4u, 2 * count), max(64u, 2 * bytes));
	for (n = 0; names && old && n < old->count; n++)
		append_name(names, &old->entries[n]);
	return names;
}

/* Writes a copy of @src to @dst, with its own references and names. */
static int copy_dir(struct unveil_dir *const dst,
		    const struct unveil_dir *const src)
{
	*dst = *src;
	if (src->names) {
		dst->names = make_names(src->names, 0, 0);
		if (!dst->names)
			return -ENOMEM;
	}
	unveil_object_get(dst->object);
	if (dst->shown)
		refcount_inc(&dst->shown->usage);
	return 0;
}

/* Makes @index visible to lookups of its object, and to those by key. */
static void hash_dir(struct unveil_ruleset *const ruleset, const u32 index)
{
	const struct unveil_object *const object = ruleset->dirs[index].object;
	u32 i = hash_ptr(object, 32) & ruleset->hash_mask;

	while (ruleset->slots[i])
		i = (i + 1) & ruleset->hash_mask;
	/* Pairs with the acquire in unveil_ruleset_find(). */
	smp_store_release(&ruleset->slots[i], index + 1);
	if (object->proc.path)
		WRITE_ONCE(ruleset->num_proc_dirs, ruleset->num_proc_dirs + 1);
}

static void free_ruleset(struct unveil_ruleset *ruleset, bool put_objects);

/*
 * A copy of @old (or an empty ruleset) with room for @max_dirs directories,
 * without the rules on file systems unmounted since, other than those of
 * @sorted.  The directories that hold rules come first, in their order.
 */
static struct unveil_ruleset *copy_ruleset(const struct unveil_ruleset *old,
					   const struct sorted_change *sorted,
					   const u32 max_dirs)
{
	struct unveil_ruleset *const ruleset = alloc_ruleset(max_dirs);
	u32 i, pass;

	if (!ruleset)
		return NULL;
	/* Before copy_keeps() reads whether each directory is alive. */
	ruleset->untied_seen = unveil_objects_untied();
	if (!old)
		return ruleset;
	for (pass = 0; pass < 2; pass++) {
		const u32 count = pass ? old->num_dirs : old->num_ordered;

		for (i = 0; i < count; i++) {
			const struct unveil_dir *const src =
				&old->dirs[pass ? i : old->order[i]];
			const u32 index = ruleset->num_dirs;

			if ((pass && src->holds_rules) ||
			    !copy_keeps(src, sorted))
				continue;
			if (copy_dir(&ruleset->dirs[index], src)) {
				free_ruleset(ruleset, true);
				return NULL;
			}
			ruleset->num_dirs++;
			if (!pass)
				ruleset->order[ruleset->num_ordered++] = index;
			hash_dir(ruleset, index);
		}
	}
	return ruleset;
}

/*
 * Makes the name tables that @sorted needs in @ruleset, before anything
 * changes: applying the change then cannot fail.
 */
static int make_room_for_names(const struct unveil_ruleset *const ruleset,
			       struct sorted_change *const sorted)
{
	u32 d, c;

	for (d = 0; d < sorted->num_dirs; d++) {
		struct dir_change *const dir = &sorted->dirs[d];
		const struct unveil_names *const old =
			dir->found ? dir->found->names : NULL;
		u32 more = 0, more_bytes = 0;

		for (c = 0; c < dir->num_names; c++) {
			const struct name_change *const name =
				&sorted->names[dir->first_name + c];

			if (!name->found) {
				more++;
				more_bytes += name->entry.len;
			}
		}
		if (!more || (old && old->count + more <= old->max &&
			      old->bytes_used + more_bytes <= old->bytes_max))
			continue;
		dir->grown = make_names(old, more, more_bytes);
		if (!dir->grown)
			return -ENOMEM;
	}
	return 0;
}

/* Sets the rule of @entry: it may already be visible to lockless readers. */
static void set_name_rule(struct unveil_name_rule *const entry,
			  const struct unveil_name_rule *const change)
{
	if (change->is_rule) {
		WRITE_ONCE(entry->access, change->access);
		/* Pairs with the acquire in unveil_name_is_rule(). */
		smp_store_release(&entry->is_rule, true);
	}
	if (change->inspectable)
		WRITE_ONCE(entry->inspectable, true);
}

/* Sets the rule of @dir from @change: @dir may be visible already. */
static void set_dir_rule(struct unveil_dir *const dir,
			 const struct dir_change *const change)
{
	if (change->file)
		WRITE_ONCE(dir->is_file, true);
	if (change->rule || change->file) {
		WRITE_ONCE(dir->access, change->access);
		/* Pairs with the acquire in unveil_dir_has_rule(). */
		smp_store_release(&dir->has_rule, true);
	}
	if (change->mount_rule) {
		WRITE_ONCE(dir->mount_access, change->access);
		/* Pairs with the acquire in unveil_dir_has_mount_rule(). */
		smp_store_release(&dir->has_mount_rule, true);
	}
	if (change->inspectable)
		WRITE_ONCE(dir->inspectable, true);
	/* Only a change that holds a rule has a shown path. */
	if (change->shown && !dir->shown) {
		refcount_inc(&change->shown->usage);
		WRITE_ONCE(dir->shown, change->shown);
	}
}

/* Applies the names of @change to @dir, in its table or a grown one. */
static void apply_names(struct unveil_dir *const dir,
			struct dir_change *const change,
			const struct sorted_change *const sorted)
{
	struct unveil_names *const old = dir->names;
	struct unveil_names *const names = change->grown ?: old;
	u32 c;

	for (c = 0; c < change->num_names; c++) {
		const struct name_change *const name =
			&sorted->names[change->first_name + c];

		if (name->found)
			/* At the same index in a grown table. */
			set_name_rule(&names->entries[name->found -
						      old->entries],
				      &name->entry);
		else
			append_name(names, &name->entry);
	}
	if (change->grown) {
		change->grown = NULL;
		/* Pairs with the acquire in unveil_dir_names(). */
		smp_store_release(&dir->names, names);
		if (old)
			kvfree_rcu(old, rcu);
	}
}

/* Whether @change gives its directory a rule, or one of its names. */
static bool change_has_rules(const struct dir_change *const change,
			     const struct sorted_change *const sorted)
{
	u32 c;

	for (c = 0; c < change->num_names; c++)
		if (sorted->names[change->first_name + c].entry.is_rule)
			return true;
	return change->rule;
}

/* Applies @sorted to @ruleset, made ready for it: cannot fail. */
static void apply_change(struct unveil_ruleset *const ruleset,
			 struct sorted_change *const sorted)
{
	u32 d;

	for (d = 0; d < sorted->num_dirs; d++) {
		struct dir_change *const change = &sorted->dirs[d];
		struct unveil_dir *dir = (struct unveil_dir *)change->found;
		u32 index;

		if (dir) {
			index = dir - ruleset->dirs;
		} else {
			/* Invisible until hash_dir(). */
			index = ruleset->num_dirs;
			dir = &ruleset->dirs[index];
			*dir = (struct unveil_dir){ .object = change->object };
			unveil_object_get(dir->object);
		}
		apply_names(dir, change, sorted);
		set_dir_rule(dir, change);
		if (!dir->holds_rules && change_has_rules(change, sorted)) {
			dir->holds_rules = true;
			ruleset->order[ruleset->num_ordered++] = index;
		}
		if (!change->found) {
			hash_dir(ruleset, index);
			/* Pairs with the acquire in counts_kept(). */
			smp_store_release(&ruleset->num_dirs, index + 1);
		}
	}
}

/**
 * unveil_ruleset_add - Add the rule of one unveil() call
 * @old: Current rules, or NULL.  The caller holds the veil's lock.
 * @change: The rule, and what it makes inspectable.
 *
 * Changes @old in place if nothing else holds it and it has room, else
 * makes a copy with the change, and twice the room needed: n calls copy
 * O(log n) times, and cost O(n log n) in all.  A copy leaves out the rules
 * on file systems unmounted since.
 *
 * Returns: The rules with the change, with a new reference: @old, or a new
 * ruleset.  ERR_PTR(-ENAMETOOLONG) if a name is longer than NAME_MAX,
 * ERR_PTR(-E2BIG) past the limits, or ERR_PTR(-ENOMEM); @old is then as it
 * was.
 */
struct unveil_ruleset *unveil_ruleset_add(struct unveil_ruleset *old,
					  const struct unveil_change *change)
{
	struct unveil_ruleset *ruleset = old;
	struct ruleset_counts counts;
	struct sorted_change sorted;
	int err;

	err = sort_change(change, &sorted);
	if (err)
		return ERR_PTR(err);
	resolve_change(old, &sorted);
	counts = counts_of(old);
	count_change(&counts, &sorted);
	if (!old || over_limits(&counts) || counts.num_dirs > old->max_dirs ||
	    refcount_read(&old->usage) != 1) {
		counts = counts_kept(old, &sorted);
		count_change(&counts, &sorted);
		if (over_limits(&counts)) {
			ruleset = ERR_PTR(-E2BIG);
			goto out;
		}
		ruleset = copy_ruleset(old, &sorted,
				       max(16u, 2 * counts.num_dirs));
		if (!ruleset) {
			ruleset = ERR_PTR(-ENOMEM);
			goto out;
		}
		resolve_change(ruleset, &sorted);
	}
	if (make_room_for_names(ruleset, &sorted)) {
		if (ruleset != old)
			free_ruleset(ruleset, true);
		ruleset = ERR_PTR(-ENOMEM);
		goto out;
	}
	apply_change(ruleset, &sorted);
	WRITE_ONCE(ruleset->num_dir_rules, counts.num_dir_rules);
	WRITE_ONCE(ruleset->num_name_rules, counts.num_name_rules);
	WRITE_ONCE(ruleset->num_inspectable, counts.num_inspectable);
	if (ruleset == old)
		unveil_ruleset_get(old);
out:
	free_sorted(&sorted);
	return ruleset;
}

/**
 * unveil_ruleset_get - Take another reference on a ruleset
 * @ruleset: Ruleset the caller holds a reference on.
 */
void unveil_ruleset_get(struct unveil_ruleset *const ruleset)
{
	refcount_inc(&ruleset->usage);
}

/**
 * unveil_shown_path_create - Keep how a process names a directory
 * @path: NUL-terminated path.
 *
 * Returns: A copy with one reference, or NULL if memory is short.
 */
struct unveil_shown_path *unveil_shown_path_create(const char *const path)
{
	const size_t size = strlen(path) + 1;
	struct unveil_shown_path *const shown =
		kmalloc(struct_size(shown, path, size), GFP_KERNEL_ACCOUNT);

	if (shown) {
		refcount_set(&shown->usage, 1);
		memcpy(shown->path, path, size);
	}
	return shown;
}

/**
 * unveil_shown_path_put - Drop a reference on a shown path
 * @shown: Shown path, or NULL.
 */
void unveil_shown_path_put(struct unveil_shown_path *const shown)
{
	if (shown && refcount_dec_and_test(&shown->usage))
		kfree(shown);
}

/*
 * Frees @ruleset and what it holds; the references on objects too unless
 * @put_objects is false (the KUnit tests' fake objects).
 */
static void free_ruleset(struct unveil_ruleset *const ruleset,
			 const bool put_objects)
{
	u32 i;

	for (i = 0; i < ruleset->num_dirs; i++) {
		if (put_objects)
			unveil_object_put(ruleset->dirs[i].object);
		unveil_shown_path_put(ruleset->dirs[i].shown);
		kvfree(ruleset->dirs[i].names);
	}
	kvfree(ruleset);
}

static void free_ruleset_work(struct work_struct *const work)
{
	free_ruleset(container_of(to_rcu_work(work), struct unveil_ruleset,
				  free_work), true);
}

/**
 * unveil_ruleset_put - Drop a reference on a ruleset
 * @ruleset: Ruleset, or NULL.
 *
 * May be called in any context: the last reference frees the ruleset from a
 * workqueue after an RCU grace period, because lockless readers may still
 * use it and dropping object references may sleep.
 */
void unveil_ruleset_put(struct unveil_ruleset *const ruleset)
{
	if (ruleset && refcount_dec_and_test(&ruleset->usage)) {
		INIT_RCU_WORK(&ruleset->free_work, free_ruleset_work);
		/* The last object on a pinned file system shuts it down. */
		queue_rcu_work(system_long_wq, &ruleset->free_work);
	}
}

#ifdef CONFIG_SECURITY_UNVEIL_KUNIT_TEST

#define R UNVEIL_ACCESS_READ
#define W UNVEIL_ACCESS_WRITE
#define X UNVEIL_ACCESS_EXEC
#define C UNVEIL_ACCESS_CREATE

static void test_verdict_nothing_covers_is_enoent(struct kunit *const test)
{
	KUNIT_EXPECT_EQ(test, -ENOENT, unveil_verdict(UNVEIL_RULE_NONE, 0, 0));
	KUNIT_EXPECT_EQ(test, -ENOENT,
			unveil_verdict(UNVEIL_RULE_NONE, R | W | X | C, R));
}

static void test_verdict_empty_dir_rule_hides(struct kunit *const test)
{
	KUNIT_EXPECT_EQ(test, -ENOENT, unveil_verdict(UNVEIL_RULE_DIR, 0, 0));
	KUNIT_EXPECT_EQ(test, -ENOENT, unveil_verdict(UNVEIL_RULE_DIR, 0, R));
}

static void test_verdict_empty_name_rule_is_eacces(struct kunit *const test)
{
	KUNIT_EXPECT_EQ(test, -EACCES, unveil_verdict(UNVEIL_RULE_NAME, 0, R));
	KUNIT_EXPECT_EQ(test, 0, unveil_verdict(UNVEIL_RULE_NAME, 0, 0));
}

static void test_verdict_missing_letter_is_eacces(struct kunit *const test)
{
	KUNIT_EXPECT_EQ(test, -EACCES, unveil_verdict(UNVEIL_RULE_DIR, R, W));
	KUNIT_EXPECT_EQ(test, -EACCES, unveil_verdict(UNVEIL_RULE_DIR, C, R));
	KUNIT_EXPECT_EQ(test, -EACCES,
			unveil_verdict(UNVEIL_RULE_NAME, R | W, R | W | C));
}

static void test_verdict_all_letters_allow(struct kunit *const test)
{
	KUNIT_EXPECT_EQ(test, 0, unveil_verdict(UNVEIL_RULE_DIR, R, R));
	KUNIT_EXPECT_EQ(test, 0, unveil_verdict(UNVEIL_RULE_DIR, R | W | C,
						R | C));
	KUNIT_EXPECT_EQ(test, 0, unveil_verdict(UNVEIL_RULE_DIR, X, 0));
	KUNIT_EXPECT_EQ(test, 0, unveil_verdict(UNVEIL_RULE_NAME, R | W, W));
}

static void test_name_hash_stops_at_nul(struct kunit *const test)
{
	size_t len;

	KUNIT_EXPECT_EQ(test, unveil_name_hash("abc", 3, NULL),
			unveil_name_hash("abc\0def", 7, &len));
	KUNIT_EXPECT_EQ(test, 3, len);
	KUNIT_EXPECT_NE(test, unveil_name_hash("abc", 3, NULL),
			unveil_name_hash("abd", 3, NULL));
}

/* Fake objects: the ruleset only compares their addresses. */
static struct unveil_object *fake_objects(struct kunit *const test, int n)
{
	struct unveil_object *objects;
	int i;

	objects = kunit_kcalloc(test, n, sizeof(*objects), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, objects);
	for (i = 0; i < n; i++) {
		refcount_set(&objects[i].usage, 1);
		objects[i].inode = (struct inode *)&objects[i];
	}
	return objects;
}

static struct unveil_shown_path *make_shown(struct kunit *const test,
					    const char *const path)
{
	struct unveil_shown_path *const shown = unveil_shown_path_create(path);

	KUNIT_ASSERT_NOT_NULL(test, shown);
	return shown;
}

/* unveil_ruleset_add() of one rule, nothing inspectable. */
static struct unveil_ruleset *add_rule(struct unveil_ruleset *old,
				       struct unveil_object *object,
				       const char *name, unveil_access_t access)
{
	const struct unveil_change change = {
		.object = object,
		.name = name,
		.access = access,
	};

	return unveil_ruleset_add(old, &change);
}

/* unveil_ruleset_add() while another veil shares @old: it is copied. */
static struct unveil_ruleset *
add_change_to_shared(struct unveil_ruleset *old,
		     const struct unveil_change *const change)
{
	struct unveil_ruleset *ruleset;

	if (old)
		unveil_ruleset_get(old);
	ruleset = unveil_ruleset_add(old, change);
	if (old)
		refcount_dec(&old->usage);
	return ruleset;
}

/* add_rule() while another veil shares @old. */
static struct unveil_ruleset *add_to_shared(struct unveil_ruleset *old,
					    struct unveil_object *object,
					    const char *name,
					    unveil_access_t access)
{
	const struct unveil_change change = {
		.object = object,
		.name = name,
		.access = access,
	};

	return add_change_to_shared(old, &change);
}

static void drop_ruleset(struct unveil_ruleset *const ruleset)
{
	/* Fake objects are never released: only free the memory. */
	if (!IS_ERR_OR_NULL(ruleset) && refcount_dec_and_test(&ruleset->usage))
		free_ruleset(ruleset, false);
}

static void test_ruleset_dir_and_name_rules(struct kunit *const test)
{
	struct unveil_object *const obj = fake_objects(test, 2);
	struct unveil_ruleset *a, *b, *c;
	const struct unveil_dir *dir;
	const struct unveil_name_rule *rule;

	a = add_rule(NULL, &obj[0], NULL, R);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = add_to_shared(a, &obj[1], "file", R | W);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	c = add_to_shared(b, &obj[1], "file", 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));

	dir = unveil_ruleset_find(b, &obj[0]);
	KUNIT_ASSERT_NOT_NULL(test, dir);
	KUNIT_EXPECT_TRUE(test, dir->has_rule);
	KUNIT_EXPECT_EQ(test, R, dir->access);

	/* A directory holding only names is not a directory rule. */
	dir = unveil_ruleset_find(b, &obj[1]);
	KUNIT_ASSERT_NOT_NULL(test, dir);
	KUNIT_EXPECT_FALSE(test, dir->has_rule);
	rule = unveil_dir_find_name(dir, "file", 4,
				    unveil_name_hash("file", 4, NULL));
	KUNIT_ASSERT_NOT_NULL(test, rule);
	KUNIT_EXPECT_EQ(test, R | W, rule->access);
	rule = unveil_dir_find_name(dir, "fil", 3,
				    unveil_name_hash("fil", 3, NULL));
	KUNIT_EXPECT_NULL(test, rule);

	/* Re-unveiling replaces, in the copy only. */
	dir = unveil_ruleset_find(c, &obj[1]);
	rule = unveil_dir_find_name(dir, "file", 4,
				    unveil_name_hash("file", 4, NULL));
	KUNIT_ASSERT_NOT_NULL(test, rule);
	KUNIT_EXPECT_EQ(test, 0, rule->access);
	KUNIT_EXPECT_EQ(test, 1, c->num_name_rules);
	KUNIT_EXPECT_EQ(test, 1, c->num_dir_rules);
	KUNIT_EXPECT_NULL(test, unveil_ruleset_find(a, &obj[1]));

	drop_ruleset(a);
	drop_ruleset(b);
	drop_ruleset(c);
}

static void test_ruleset_keeps_first_path_of_dir(struct kunit *const test)
{
	struct unveil_object *const obj = fake_objects(test, 2);
	struct unveil_shown_path *const first = make_shown(test, "/first");
	struct unveil_shown_path *const renamed = make_shown(test, "/renamed");
	struct unveil_shown_path *const other = make_shown(test, "/other");
	const struct unveil_change name_rule = {
		.object = &obj[0], .shown = first, .name = "name", .access = R,
	};
	const struct unveil_change dir_rule_after_rename = {
		.object = &obj[0], .shown = renamed, .access = W,
	};
	const struct unveil_change other_dir_rule = {
		.object = &obj[1], .shown = other, .access = R,
	};
	struct unveil_ruleset *a, *b, *c;

	a = unveil_ruleset_add(NULL, &name_rule);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = add_change_to_shared(a, &dir_rule_after_rename);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	c = add_change_to_shared(b, &other_dir_rule);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));

	KUNIT_EXPECT_PTR_EQ(test, first, unveil_ruleset_find(c, &obj[0])->shown);
	KUNIT_EXPECT_PTR_EQ(test, other, unveil_ruleset_find(c, &obj[1])->shown);
	/* One reference each for the caller and for every ruleset. */
	KUNIT_EXPECT_EQ(test, 4, refcount_read(&first->usage));
	KUNIT_EXPECT_EQ(test, 1, refcount_read(&renamed->usage));
	KUNIT_EXPECT_EQ(test, 2, refcount_read(&other->usage));

	drop_ruleset(a);
	drop_ruleset(b);
	drop_ruleset(c);
	KUNIT_EXPECT_EQ(test, 1, refcount_read(&first->usage));
	unveil_shown_path_put(first);
	unveil_shown_path_put(renamed);
	unveil_shown_path_put(other);
}

static void test_ruleset_limit_is_e2big(struct kunit *const test)
{
	struct unveil_object *const obj =
		fake_objects(test, UNVEIL_MAX_DIR_RULES + 1);
	struct unveil_ruleset *ruleset = NULL, *next;
	int i;

	for (i = 0; i < UNVEIL_MAX_DIR_RULES; i++) {
		next = add_rule(ruleset, &obj[i], NULL, R);
		KUNIT_ASSERT_FALSE(test, IS_ERR(next));
		drop_ruleset(ruleset);
		ruleset = next;
	}
	next = add_rule(ruleset, &obj[UNVEIL_MAX_DIR_RULES], NULL, R);
	KUNIT_EXPECT_EQ(test, -E2BIG, PTR_ERR(next));
	/* Replacing an existing rule is still possible at the limit. */
	next = add_rule(ruleset, &obj[0], NULL, W);
	KUNIT_ASSERT_FALSE(test, IS_ERR(next));
	KUNIT_EXPECT_EQ(test, W, unveil_ruleset_find(next, &obj[0])->access);
	KUNIT_EXPECT_EQ(test, R, unveil_ruleset_find(next, &obj[7])->access);
	drop_ruleset(next);
	drop_ruleset(ruleset);
}

static void test_ruleset_name_over_name_max_is_enametoolong(struct kunit *test)
{
	struct unveil_object *const obj = fake_objects(test, 1);
	char name[NAME_MAX + 2];
	struct unveil_ruleset *ruleset;
	const struct unveil_dir *dir;

	memset(name, 'n', NAME_MAX + 1);
	name[NAME_MAX + 1] = '\0';
	ruleset = add_rule(NULL, &obj[0], name, R);
	KUNIT_EXPECT_EQ(test, -ENAMETOOLONG, PTR_ERR(ruleset));

	/* The longest name is kept whole, not cut to its length modulo 256. */
	name[NAME_MAX] = '\0';
	ruleset = add_rule(NULL, &obj[0], name, R);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ruleset));
	dir = unveil_ruleset_find(ruleset, &obj[0]);
	KUNIT_ASSERT_NOT_NULL(test, dir);
	KUNIT_EXPECT_NOT_NULL(test,
			      unveil_dir_find_name(dir, name, NAME_MAX,
						   unveil_name_hash(name,
								    NAME_MAX,
								    NULL)));
	KUNIT_EXPECT_NULL(test,
			  unveil_dir_find_name(dir, name, NAME_MAX - 1,
					       unveil_name_hash(name,
								NAME_MAX - 1,
								NULL)));
	drop_ruleset(ruleset);
}

static void test_ruleset_inspectable_entries_are_no_rules(struct kunit *test)
{
	struct unveil_object *const obj = fake_objects(test, 3);
	struct unveil_shown_path *const shown = make_shown(test, "/a/b");
	const struct unveil_inspectable inspectable[] = {
		{ .object = &obj[1] },
		{ .object = &obj[2] },
		{ .object = &obj[2], .name = "link" },
		{ .object = &obj[1] },
	};
	const struct unveil_change change = {
		.object = &obj[0],
		.shown = shown,
		.access = R,
		.inspectable = inspectable,
		.num_inspectable = ARRAY_SIZE(inspectable),
	};
	struct unveil_ruleset *ruleset;
	const struct unveil_dir *dir;
	const struct unveil_name_rule *entry;

	ruleset = unveil_ruleset_add(NULL, &change);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ruleset));
	KUNIT_EXPECT_EQ(test, 3, ruleset->num_dirs);
	KUNIT_EXPECT_EQ(test, 1, ruleset->num_dir_rules);
	KUNIT_EXPECT_EQ(test, 0, ruleset->num_name_rules);
	KUNIT_EXPECT_EQ(test, 3, ruleset->num_inspectable);

	dir = unveil_ruleset_find(ruleset, &obj[0]);
	KUNIT_ASSERT_NOT_NULL(test, dir);
	KUNIT_EXPECT_TRUE(test, dir->has_rule);
	KUNIT_EXPECT_FALSE(test, dir->inspectable);

	dir = unveil_ruleset_find(ruleset, &obj[1]);
	KUNIT_ASSERT_NOT_NULL(test, dir);
	KUNIT_EXPECT_FALSE(test, dir->has_rule);
	KUNIT_EXPECT_TRUE(test, dir->inspectable);
	KUNIT_EXPECT_NULL(test, dir->names);
	KUNIT_EXPECT_NULL(test, dir->shown);

	dir = unveil_ruleset_find(ruleset, &obj[2]);
	KUNIT_ASSERT_NOT_NULL(test, dir);
	KUNIT_EXPECT_TRUE(test, dir->inspectable);
	entry = unveil_dir_find_name(dir, "link", 4,
				     unveil_name_hash("link", 4, NULL));
	KUNIT_ASSERT_NOT_NULL(test, entry);
	KUNIT_EXPECT_FALSE(test, entry->is_rule);
	KUNIT_EXPECT_TRUE(test, entry->inspectable);
	drop_ruleset(ruleset);
	unveil_shown_path_put(shown);
}

/*
 * The directories that a mount root covers get a rule for what is mounted
 * on them, which is not theirs and is not shown; one bind-mounted on
 * itself gets both.
 */
static void test_ruleset_covered_directories_get_a_mount_rule(struct kunit *test)
{
	struct unveil_object *const obj = fake_objects(test, 3);
	struct unveil_shown_path *const shown = make_shown(test, "/mnt");
	struct unveil_object *const covered[] = { &obj[1], &obj[2], &obj[0] };
	const struct unveil_change change = {
		.object = &obj[0],
		.shown = shown,
		.access = W,
		.covered = covered,
		.num_covered = 2,
	};
	const struct unveil_change on_itself = {
		.object = &obj[0],
		.shown = shown,
		.access = R,
		.covered = &covered[2],
		.num_covered = 1,
	};
	struct unveil_ruleset *ruleset, *again;
	const struct unveil_dir *dir;

	ruleset = unveil_ruleset_add(NULL, &change);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ruleset));
	KUNIT_EXPECT_EQ(test, 3, ruleset->num_dir_rules);
	KUNIT_EXPECT_EQ(test, 1, ruleset->num_ordered);
	KUNIT_EXPECT_PTR_EQ(test, &obj[0], ruleset->dirs[ruleset->order[0]].object);
	dir = unveil_ruleset_find(ruleset, &obj[1]);
	KUNIT_ASSERT_NOT_NULL(test, dir);
	KUNIT_EXPECT_FALSE(test, dir->has_rule);
	KUNIT_EXPECT_TRUE(test, dir->has_mount_rule);
	KUNIT_EXPECT_EQ(test, W, dir->mount_access);
	KUNIT_EXPECT_NULL(test, dir->shown);
	dir = unveil_ruleset_find(ruleset, &obj[0]);
	KUNIT_EXPECT_TRUE(test, dir->has_rule);
	KUNIT_EXPECT_FALSE(test, dir->has_mount_rule);

	again = unveil_ruleset_add(ruleset, &on_itself);
	KUNIT_ASSERT_FALSE(test, IS_ERR(again));
	dir = unveil_ruleset_find(again, &obj[0]);
	KUNIT_EXPECT_TRUE(test, dir->has_rule);
	KUNIT_EXPECT_EQ(test, R, dir->access);
	KUNIT_EXPECT_TRUE(test, dir->has_mount_rule);
	KUNIT_EXPECT_EQ(test, R, dir->mount_access);
	KUNIT_EXPECT_EQ(test, 4, again->num_dir_rules);
	KUNIT_EXPECT_EQ(test, 1, again->num_ordered);
	drop_ruleset(again);
	drop_ruleset(ruleset);
	unveil_shown_path_put(shown);
}

/*
 * The file a name rule names gets the rule too, unseen, counted with the
 * inspectable entries rather than with the directory rules.
 */
static void test_ruleset_named_file_gets_the_rule(struct kunit *const test)
{
	struct unveil_object *const obj = fake_objects(test, 2);
	struct unveil_shown_path *const shown = make_shown(test, "/d");
	const struct unveil_change change = {
		.object = &obj[0],
		.shown = shown,
		.name = "f",
		.access = R,
		.file = &obj[1],
	};
	struct unveil_ruleset *ruleset;
	const struct unveil_dir *dir;

	ruleset = unveil_ruleset_add(NULL, &change);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ruleset));
	KUNIT_EXPECT_EQ(test, 0, ruleset->num_dir_rules);
	KUNIT_EXPECT_EQ(test, 1, ruleset->num_name_rules);
	KUNIT_EXPECT_EQ(test, 1, ruleset->num_inspectable);
	KUNIT_EXPECT_EQ(test, 1, ruleset->num_ordered);
	dir = unveil_ruleset_find(ruleset, &obj[1]);
	KUNIT_ASSERT_NOT_NULL(test, dir);
	KUNIT_EXPECT_TRUE(test, dir->has_rule);
	KUNIT_EXPECT_TRUE(test, dir->is_file);
	KUNIT_EXPECT_EQ(test, R, dir->access);
	KUNIT_EXPECT_NULL(test, dir->shown);
	drop_ruleset(ruleset);
	unveil_shown_path_put(shown);
}

/* A later rule on an inspectable entry keeps it inspectable, and counts. */
static void test_ruleset_rule_on_an_inspectable_entry(struct kunit *test)
{
	struct unveil_object *const obj = fake_objects(test, 2);
	struct unveil_shown_path *const shown = make_shown(test, "/a");
	const struct unveil_inspectable inspectable[] = {
		{ .object = &obj[1] },
		{ .object = &obj[1], .name = "link" },
	};
	const struct unveil_change change = {
		.object = &obj[0],
		.shown = shown,
		.access = R,
		.inspectable = inspectable,
		.num_inspectable = ARRAY_SIZE(inspectable),
	};
	const struct unveil_change dir_rule = {
		.object = &obj[1], .shown = shown, .access = X,
	};
	struct unveil_ruleset *a, *b, *c;
	const struct unveil_name_rule *entry;
	const struct unveil_dir *dir;

	a = unveil_ruleset_add(NULL, &change);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = add_rule(a, &obj[1], "link", W);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	c = unveil_ruleset_add(b, &dir_rule);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	KUNIT_EXPECT_EQ(test, 2, c->num_dir_rules);
	KUNIT_EXPECT_EQ(test, 1, c->num_name_rules);
	KUNIT_EXPECT_EQ(test, 0, c->num_inspectable);

	dir = unveil_ruleset_find(c, &obj[1]);
	KUNIT_ASSERT_NOT_NULL(test, dir);
	KUNIT_EXPECT_TRUE(test, dir->has_rule);
	KUNIT_EXPECT_EQ(test, X, dir->access);
	KUNIT_EXPECT_TRUE(test, dir->inspectable);
	KUNIT_EXPECT_PTR_EQ(test, shown, dir->shown);
	entry = unveil_dir_find_name(dir, "link", 4,
				     unveil_name_hash("link", 4, NULL));
	KUNIT_ASSERT_NOT_NULL(test, entry);
	KUNIT_EXPECT_TRUE(test, entry->is_rule);
	KUNIT_EXPECT_EQ(test, W, entry->access);
	KUNIT_EXPECT_TRUE(test, entry->inspectable);
	drop_ruleset(a);
	drop_ruleset(b);
	drop_ruleset(c);
	unveil_shown_path_put(shown);
}

static void test_ruleset_changes_in_place_when_alone(struct kunit *test)
{
	struct unveil_object *const obj = fake_objects(test, 2);
	struct unveil_ruleset *a, *b, *c;

	a = add_rule(NULL, &obj[0], NULL, R);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = add_rule(a, &obj[1], "name", W);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	KUNIT_EXPECT_EQ(test, 2, refcount_read(&a->usage));
	KUNIT_EXPECT_NOT_NULL(test, unveil_ruleset_find(a, &obj[1]));

	/* Shared, as fork() shares it: copied, the original unchanged. */
	c = add_to_shared(b, &obj[1], "other", X);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	KUNIT_EXPECT_PTR_NE(test, b, c);
	KUNIT_EXPECT_NULL(test,
			  unveil_dir_find_name(unveil_ruleset_find(b, &obj[1]),
					       "other", 5,
					       unveil_name_hash("other", 5,
								NULL)));
	KUNIT_EXPECT_NOT_NULL(test,
			      unveil_dir_find_name(unveil_ruleset_find(c,
								       &obj[1]),
						   "other", 5,
						   unveil_name_hash("other", 5,
								    NULL)));
	drop_ruleset(a);
	drop_ruleset(b);
	drop_ruleset(c);
}

/*
 * Checks on procfs look at every directory of a ruleset, unless it has none
 * there: the count goes with changes in place and with copies.
 */
static void test_ruleset_counts_its_directories_on_procfs(struct kunit *test)
{
	struct unveil_object *const obj = fake_objects(test, 3);
	struct unveil_ruleset *a, *b, *c;

	obj[1].proc.path = "/fd";
	a = add_rule(NULL, &obj[0], NULL, R);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_EXPECT_FALSE(test, unveil_ruleset_has_proc_dirs(a));
	b = add_rule(a, &obj[1], NULL, R);
	KUNIT_ASSERT_PTR_EQ(test, a, b);
	KUNIT_EXPECT_EQ(test, 1, b->num_proc_dirs);
	c = add_to_shared(b, &obj[2], NULL, R);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	KUNIT_ASSERT_PTR_NE(test, b, c);
	KUNIT_EXPECT_EQ(test, 1, c->num_proc_dirs);
	drop_ruleset(a);
	drop_ruleset(b);
	drop_ruleset(c);
}

/* Bytes a ruleset and its name tables take. */
static size_t ruleset_bytes(const struct unveil_ruleset *const ruleset)
{
	size_t bytes = sizeof(*ruleset) + (ruleset->hash_mask + 1) * sizeof(u32) +
		       ruleset->max_dirs * (sizeof(struct unveil_dir) +
					    sizeof(u32));
	u32 d;

	for (d = 0; d < ruleset->num_dirs; d++) {
		const struct unveil_names *const names = ruleset->dirs[d].names;

		if (names)
			bytes += struct_size(names, entries, names->max) +
				 (names->hash_mask + 1) * sizeof(u32) +
				 names->bytes_max;
	}
	return bytes;
}

/*
 * 1024 directory rules and 1024 name rules in one directory: the ruleset is
 * copied, and each name table replaced, O(log n) times, and each entry
 * takes a bounded number of bytes.
 */
static void test_ruleset_grows_by_doubling(struct kunit *const test)
{
	const int n = UNVEIL_MAX_DIR_RULES;
	struct unveil_object *const obj = fake_objects(test, n + 1);
	struct unveil_ruleset *ruleset = NULL, *next;
	const struct unveil_names *names = NULL;
	int i, copies = 0, tables = 0;
	char name[16];
	size_t bytes;

	for (i = 0; i < 2 * n; i++) {
		if (i < n) {
			next = add_rule(ruleset, &obj[i], NULL, R);
		} else {
			snprintf(name, sizeof(name), "file%d", i - n);
			next = add_rule(ruleset, &obj[n], name, R);
		}
		KUNIT_ASSERT_FALSE(test, IS_ERR(next));
		copies += next != ruleset;
		drop_ruleset(ruleset);
		ruleset = next;
		if (i >= n && unveil_ruleset_find(ruleset, &obj[n])->names !=
			      names) {
			names = unveil_ruleset_find(ruleset, &obj[n])->names;
			tables++;
		}
	}
	KUNIT_EXPECT_EQ(test, n, ruleset->num_dir_rules);
	KUNIT_EXPECT_EQ(test, n, ruleset->num_name_rules);
	/* 16, 32, ... 2048 directories; 4, 8, ... 2048 names. */
	KUNIT_EXPECT_LE(test, copies, 8);
	KUNIT_EXPECT_LE(test, tables, 10);
	KUNIT_EXPECT_NOT_NULL(test,
			      unveil_dir_find_name(unveil_ruleset_find(ruleset,
								       &obj[n]),
						   "file1000", 8,
						   unveil_name_hash("file1000",
								    8, NULL)));
	bytes = ruleset_bytes(ruleset);
	kunit_info(test, "%d rules: %zu bytes, %zu per rule, %d copies\n",
		   2 * n, bytes, bytes / (2 * n), copies);
	KUNIT_EXPECT_LE(test, bytes / (2 * n), 128);
	drop_ruleset(ruleset);
}

#undef R
#undef W
#undef X
#undef C

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_verdict_nothing_covers_is_enoent),
	KUNIT_CASE(test_verdict_empty_dir_rule_hides),
	KUNIT_CASE(test_verdict_empty_name_rule_is_eacces),
	KUNIT_CASE(test_verdict_missing_letter_is_eacces),
	KUNIT_CASE(test_verdict_all_letters_allow),
	KUNIT_CASE(test_name_hash_stops_at_nul),
	KUNIT_CASE(test_ruleset_dir_and_name_rules),
	KUNIT_CASE(test_ruleset_keeps_first_path_of_dir),
	KUNIT_CASE(test_ruleset_limit_is_e2big),
	KUNIT_CASE(test_ruleset_name_over_name_max_is_enametoolong),
	KUNIT_CASE(test_ruleset_inspectable_entries_are_no_rules),
	KUNIT_CASE(test_ruleset_rule_on_an_inspectable_entry),
	KUNIT_CASE(test_ruleset_covered_directories_get_a_mount_rule),
	KUNIT_CASE(test_ruleset_counts_its_directories_on_procfs),
	KUNIT_CASE(test_ruleset_named_file_gets_the_rule),
	KUNIT_CASE(test_ruleset_changes_in_place_when_alone),
	KUNIT_CASE(test_ruleset_grows_by_doubling),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "unveil_ruleset",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_UNVEIL_KUNIT_TEST */
