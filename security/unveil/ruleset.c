// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Rules of a process and how they decide
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
int unveil_verdict(const enum unveil_rule_kind kind,
		   const unveil_access_t access, const unveil_access_t needed)
{
	if (kind == UNVEIL_RULE_NONE || (kind == UNVEIL_RULE_DIR && !access))
		return -ENOENT;
	if (needed & ~access)
		return -EACCES;
	return 0;
}

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

/**
 * unveil_ruleset_find - Find the rules of a directory
 * @ruleset: Rules of a process.
 * @object: Object of the directory.
 *
 * Returns: The directory's rules, or NULL.
 */
const struct unveil_dir *
unveil_ruleset_find(const struct unveil_ruleset *const ruleset,
		    const struct unveil_object *const object)
{
	u32 i = hash_ptr(object, 32) & ruleset->hash_mask;
	u32 slot;

	while ((slot = ruleset->slots[i])) {
		if (ruleset->dirs[slot - 1].object == object)
			return &ruleset->dirs[slot - 1];
		i = (i + 1) & ruleset->hash_mask;
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
	u32 i;

	for (i = 0; i < dir->num_names; i++) {
		const struct unveil_name_rule *const rule = &dir->names[i];

		if (rule->hash == hash && rule->len == len &&
		    !memcmp(rule->name, name, len))
			return rule;
	}
	return NULL;
}

/*
 * What a change does to one name: make or replace a rule, make it
 * inspectable, or both.  @found is the name's entry in the old ruleset.
 */
struct name_change {
	struct unveil_name_rule entry;
	const struct unveil_name_rule *found;
};

/*
 * What a change does to one directory, and to @num_names names in it,
 * starting at @first_name.  @found is the directory's entry in the old
 * ruleset; it @moves to the end if it gets its first rule, so that the
 * directories stay in the order they got their first rule.
 */
struct dir_change {
	struct unveil_object *object;
	const struct unveil_dir *found;
	bool moves;
	bool rule;
	unveil_access_t access;
	bool inspectable;
	struct unveil_shown_path *shown;
	u32 first_name;
	u32 num_names;
};

/*
 * A change sorted by directory, then name: one dir_change per directory,
 * its name_changes side by side.
 */
struct sorted_change {
	struct dir_change *dirs;
	u32 num_dirs;
	struct name_change *names;
	u32 num_names;
};

/* One item of a change: a rule, or an inspectable directory or name. */
struct change_item {
	struct unveil_object *object;
	const char *name;
	size_t len;
	bool rule;
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

/* Whether @dir holds a rule, not only inspectable entries. */
static bool holds_rules(const struct unveil_dir *const dir)
{
	u32 n;

	for (n = 0; n < dir->num_names; n++)
		if (dir->names[n].is_rule)
			return true;
	return dir->has_rule;
}

static void free_sorted(struct sorted_change *const sorted)
{
	kvfree(sorted->dirs);
	kvfree(sorted->names);
}

/*
 * Sorts @change by directory and name, merging the items that name the
 * same target, and finds each in @old.  Returns 0, -ENAMETOOLONG if a name
 * is longer than NAME_MAX, or -ENOMEM.
 */
static int sort_change(const struct unveil_ruleset *const old,
		       const struct unveil_change *const change,
		       struct sorted_change *const sorted)
{
	const u32 count = change->num_inspectable + 1;
	struct change_item *items;
	u32 i, n;

	BUILD_BUG_ON(NAME_MAX > U8_MAX);
	items = kvcalloc(count, sizeof(*items), GFP_KERNEL_ACCOUNT);
	sorted->dirs = kvcalloc(count, sizeof(*sorted->dirs),
				GFP_KERNEL_ACCOUNT);
	sorted->names = kvcalloc(count, sizeof(*sorted->names),
				 GFP_KERNEL_ACCOUNT);
	if (!items || !sorted->dirs || !sorted->names) {
		kvfree(items);
		free_sorted(sorted);
		return -ENOMEM;
	}
	items[0] = (struct change_item){
		.object = change->object,
		.name = change->name,
		.rule = true,
	};
	for (i = 1; i < count; i++)
		items[i] = (struct change_item){
			.object = change->inspectable[i - 1].object,
			.name = change->inspectable[i - 1].name,
			.inspectable = true,
		};
	for (i = 0; i < count; i++) {
		if (!items[i].name)
			continue;
		items[i].len = strnlen(items[i].name, NAME_MAX + 1);
		if (items[i].len > NAME_MAX) {
			kvfree(items);
			free_sorted(sorted);
			return -ENAMETOOLONG;
		}
	}
	sort(items, count, sizeof(*items), cmp_items, NULL);

	sorted->num_dirs = 0;
	sorted->num_names = 0;
	for (i = 0; i < count; i = n) {
		struct change_item merged = items[i];
		struct dir_change *dir;

		for (n = i + 1; n < count && same_target(&items[n], &merged); n++) {
			merged.rule |= items[n].rule;
			merged.inspectable |= items[n].inspectable;
		}
		dir = sorted->num_dirs ? &sorted->dirs[sorted->num_dirs - 1] :
					 NULL;
		if (!dir || dir->object != merged.object) {
			dir = &sorted->dirs[sorted->num_dirs++];
			dir->object = merged.object;
			dir->found = old ? unveil_ruleset_find(old, merged.object) :
					   NULL;
			dir->first_name = sorted->num_names;
		}
		if (merged.name) {
			struct name_change *const name =
				&sorted->names[sorted->num_names++];

			name->entry = (struct unveil_name_rule){
				.hash = unveil_name_hash(merged.name,
							 merged.len, NULL),
				.len = merged.len,
				.is_rule = merged.rule,
				.access = merged.rule ? change->access : 0,
				.inspectable = merged.inspectable,
				.name = merged.name,
			};
			name->found = dir->found ?
				unveil_dir_find_name(dir->found, merged.name,
						     merged.len,
						     name->entry.hash) : NULL;
			dir->num_names++;
		} else {
			dir->rule |= merged.rule;
			dir->inspectable |= merged.inspectable;
		}
		if (merged.rule && !merged.name)
			dir->access = change->access;
		if (merged.rule) {
			dir->shown = change->shown;
			dir->moves = dir->found && !holds_rules(dir->found);
		}
	}
	kvfree(items);
	return 0;
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
 * struct ruleset_layout - Sizes of a ruleset being built
 */
struct ruleset_layout {
	/** @num_dirs: Directories. */
	u32 num_dirs;
	/** @num_names: Name entries. */
	u32 num_names;
	/** @num_dir_rules: Directory rules. */
	u32 num_dir_rules;
	/** @num_name_rules: Name rules. */
	u32 num_name_rules;
	/** @num_inspectable: Entries that are inspectable, and not rules. */
	u32 num_inspectable;
	/** @name_bytes: Bytes of all names. */
	size_t name_bytes;
	/** @num_slots: Hash slots, a power of two. */
	u32 num_slots;
};

static void count_dir(struct ruleset_layout *const l,
		      const struct unveil_dir *const dir)
{
	u32 n;

	l->num_dirs++;
	l->num_dir_rules += dir->has_rule;
	l->num_inspectable += dir->inspectable && !dir->has_rule;
	l->num_names += dir->num_names;
	for (n = 0; n < dir->num_names; n++) {
		l->num_name_rules += dir->names[n].is_rule;
		l->num_inspectable += dir->names[n].inspectable &&
				      !dir->names[n].is_rule;
		l->name_bytes += dir->names[n].len;
	}
}

static struct unveil_ruleset *alloc_ruleset(const struct ruleset_layout *l)
{
	struct unveil_ruleset *ruleset;
	size_t size = sizeof(*ruleset);

	size = size_add(size, array_size(l->num_dirs, sizeof(struct unveil_dir)));
	size = size_add(size, array_size(l->num_names,
					 sizeof(struct unveil_name_rule)));
	size = size_add(size, array_size(l->num_slots, sizeof(u32)));
	size = size_add(size, l->name_bytes);
	ruleset = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!ruleset)
		return NULL;
	refcount_set(&ruleset->usage, 1);
	ruleset->num_dirs = l->num_dirs;
	ruleset->num_dir_rules = l->num_dir_rules;
	ruleset->num_name_rules = l->num_name_rules;
	ruleset->num_inspectable = l->num_inspectable;
	ruleset->hash_mask = l->num_slots - 1;
	ruleset->dirs = (struct unveil_dir *)(ruleset + 1);
	ruleset->slots = (u32 *)((struct unveil_name_rule *)
				 (ruleset->dirs + l->num_dirs) + l->num_names);
	return ruleset;
}

static void hash_dirs(struct unveil_ruleset *const ruleset)
{
	u32 d;

	for (d = 0; d < ruleset->num_dirs; d++) {
		u32 i = hash_ptr(ruleset->dirs[d].object, 32) &
			ruleset->hash_mask;

		while (ruleset->slots[i])
			i = (i + 1) & ruleset->hash_mask;
		ruleset->slots[i] = d + 1;
	}
}

/* Copies @len bytes of @src to *@bytes and moves *@bytes past them. */
static const char *copy_bytes(const char *const src, const size_t len,
			      char **const bytes)
{
	const char *const copy = memcpy(*bytes, src, len);

	*bytes += len;
	return copy;
}

static void merge_name(struct unveil_name_rule *const entry,
		       const struct unveil_name_rule *const change)
{
	if (change->is_rule) {
		entry->is_rule = true;
		entry->access = change->access;
	}
	entry->inspectable |= change->inspectable;
}

/*
 * Writes to @dst the directory @src (or a new one if NULL) with @change
 * (if not NULL) applied to it, its names at *@names and their bytes at
 * *@bytes; takes the references the new ruleset holds.
 */
static void build_dir(struct unveil_dir *const dst,
		      const struct unveil_dir *const src,
		      const struct dir_change *const change,
		      const struct sorted_change *const sorted,
		      struct unveil_name_rule **const names, char **const bytes)
{
	const struct name_change *const first =
		change ? &sorted->names[change->first_name] : NULL;
	u32 i, c;

	if (src)
		*dst = *src;
	else
		*dst = (struct unveil_dir){ .object = change->object };
	dst->names = *names;
	dst->num_names = 0;
	for (i = 0; src && i < src->num_names; i++) {
		struct unveil_name_rule *const entry = (*names)++;

		*entry = src->names[i];
		for (c = 0; change && c < change->num_names; c++)
			if (first[c].found == &src->names[i])
				merge_name(entry, &first[c].entry);
		entry->name = copy_bytes(entry->name, entry->len, bytes);
		dst->num_names++;
	}
	for (c = 0; change && c < change->num_names; c++) {
		struct unveil_name_rule *entry;

		if (first[c].found)
			continue;
		entry = (*names)++;
		*entry = first[c].entry;
		entry->name = copy_bytes(entry->name, entry->len, bytes);
		dst->num_names++;
	}
	if (change) {
		if (change->rule) {
			dst->has_rule = true;
			dst->access = change->access;
		}
		dst->inspectable |= change->inspectable;
		if (!dst->shown)
			dst->shown = change->shown;
	}
	unveil_object_get(dst->object);
	if (dst->shown)
		refcount_inc(&dst->shown->usage);
}

/* Counts what @change adds to @layout, on top of the old ruleset. */
static void count_change(struct ruleset_layout *const l,
			 const struct sorted_change *const sorted)
{
	u32 d, c;

	for (d = 0; d < sorted->num_dirs; d++) {
		const struct dir_change *const dir = &sorted->dirs[d];
		const struct unveil_dir *const found = dir->found;
		const bool had_rule = found && found->has_rule;
		const bool was_inspectable = found && found->inspectable;

		if (!found)
			l->num_dirs++;
		l->num_dir_rules += dir->rule && !had_rule;
		l->num_inspectable -= (was_inspectable && !had_rule &&
				       dir->rule);
		l->num_inspectable += (dir->inspectable && !was_inspectable &&
				       !had_rule && !dir->rule);
		for (c = 0; c < dir->num_names; c++) {
			const struct name_change *const name =
				&sorted->names[dir->first_name + c];
			const struct unveil_name_rule *const old = name->found;
			const bool old_rule = old && old->is_rule;
			const bool old_insp = old && old->inspectable;

			if (!old) {
				l->num_names++;
				l->name_bytes += name->entry.len;
			}
			l->num_name_rules += name->entry.is_rule && !old_rule;
			l->num_inspectable -= old_insp && !old_rule &&
					      name->entry.is_rule;
			l->num_inspectable += name->entry.inspectable &&
					      !old_insp && !old_rule &&
					      !name->entry.is_rule;
		}
	}
}

/**
 * unveil_ruleset_has_room - Whether a rule passes the limits
 * @old: Current rules, or NULL.
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
	struct ruleset_layout layout = {};
	const struct unveil_dir *found;
	size_t len;
	u32 i;

	if (!old)
		return true;
	for (i = 0; i < old->num_dirs; i++)
		if (!unveil_dir_is_dead(&old->dirs[i]))
			count_dir(&layout, &old->dirs[i]);
	found = unveil_ruleset_find(old, object);
	if (!name)
		return (found && found->has_rule) ||
		       layout.num_dir_rules < UNVEIL_MAX_DIR_RULES;
	len = strnlen(name, NAME_MAX + 1);
	if (found) {
		const struct unveil_name_rule *const entry =
			unveil_dir_find_name(found, name, len,
					     unveil_name_hash(name, len, NULL));

		if (entry && entry->is_rule)
			return true;
	}
	return layout.num_name_rules < UNVEIL_MAX_NAME_RULES;
}

/**
 * unveil_ruleset_add - Build a ruleset with the rule of one unveil() call
 * @old: Current rules, or NULL.  Not modified.
 * @change: The rule, and what it makes inspectable.
 *
 * Rules on file systems unmounted since are left out.
 *
 * Returns: The new ruleset with one reference, ERR_PTR(-ENAMETOOLONG) if a
 * name is longer than NAME_MAX, ERR_PTR(-E2BIG) past the limits, or
 * ERR_PTR(-ENOMEM).
 */
struct unveil_ruleset *unveil_ruleset_add(const struct unveil_ruleset *old,
					  const struct unveil_change *change)
{
	struct ruleset_layout layout = {};
	struct sorted_change sorted;
	struct unveil_ruleset *ruleset;
	struct unveil_name_rule *names;
	struct unveil_dir *dir;
	char *bytes;
	u32 i;
	int err;

	err = sort_change(old, change, &sorted);
	if (err)
		return ERR_PTR(err);
	for (i = 0; old && i < old->num_dirs; i++) {
		const struct unveil_dir *const src = &old->dirs[i];
		const struct dir_change *const dc =
			find_dir_change(&sorted, src->object);

		/* A change's directory is alive: its rules are kept. */
		if (!dc && unveil_dir_is_dead(src))
			continue;
		count_dir(&layout, src);
	}
	count_change(&layout, &sorted);
	if (layout.num_dir_rules > UNVEIL_MAX_DIR_RULES ||
	    layout.num_name_rules > UNVEIL_MAX_NAME_RULES ||
	    layout.num_inspectable > UNVEIL_MAX_INSPECTABLE) {
		ruleset = ERR_PTR(-E2BIG);
		goto out;
	}

	layout.num_slots = roundup_pow_of_two(max(8u, 2 * layout.num_dirs));
	ruleset = alloc_ruleset(&layout);
	if (!ruleset) {
		ruleset = ERR_PTR(-ENOMEM);
		goto out;
	}
	dir = ruleset->dirs;
	names = (struct unveil_name_rule *)(ruleset->dirs + layout.num_dirs);
	bytes = (char *)(ruleset->slots + layout.num_slots);
	for (i = 0; old && i < old->num_dirs; i++) {
		const struct unveil_dir *const src = &old->dirs[i];
		const struct dir_change *const dc =
			find_dir_change(&sorted, src->object);

		if ((!dc && unveil_dir_is_dead(src)) || (dc && dc->moves))
			continue;
		build_dir(dir++, src, dc, &sorted, &names, &bytes);
	}
	for (i = 0; i < sorted.num_dirs; i++)
		if (!sorted.dirs[i].found || sorted.dirs[i].moves)
			build_dir(dir++, sorted.dirs[i].found, &sorted.dirs[i],
				  &sorted, &names, &bytes);
	/* An unmount may have untied more directories since they were counted. */
	ruleset->num_dirs = dir - ruleset->dirs;
	hash_dirs(ruleset);
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

static void free_ruleset_work(struct work_struct *const work)
{
	struct unveil_ruleset *const ruleset =
		container_of(to_rcu_work(work), struct unveil_ruleset, free_work);
	u32 i;

	for (i = 0; i < ruleset->num_dirs; i++) {
		unveil_object_put(ruleset->dirs[i].object);
		unveil_shown_path_put(ruleset->dirs[i].shown);
	}
	kvfree(ruleset);
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
static struct unveil_ruleset *add_rule(const struct unveil_ruleset *old,
				       struct unveil_object *object,
				       struct unveil_shown_path *shown,
				       const char *name, unveil_access_t access)
{
	const struct unveil_change change = {
		.object = object,
		.shown = shown,
		.name = name,
		.access = access,
	};

	return unveil_ruleset_add(old, &change);
}

static void drop_ruleset(struct unveil_ruleset *const ruleset)
{
	u32 i;

	if (IS_ERR_OR_NULL(ruleset))
		return;
	/* Fake objects are never released: only free the memory. */
	for (i = 0; i < ruleset->num_dirs; i++)
		unveil_shown_path_put(ruleset->dirs[i].shown);
	kvfree(ruleset);
}

static void test_ruleset_dir_and_name_rules(struct kunit *const test)
{
	struct unveil_object *const obj = fake_objects(test, 2);
	struct unveil_shown_path *const shown = make_shown(test, "/");
	struct unveil_ruleset *a, *b, *c;
	const struct unveil_dir *dir;
	const struct unveil_name_rule *rule;

	a = add_rule(NULL, &obj[0], shown, NULL, R);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = add_rule(a, &obj[1], shown, "file", R | W);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	c = add_rule(b, &obj[1], shown, "file", 0);
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

	/* Re-unveiling replaces, in the new ruleset only. */
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
	unveil_shown_path_put(shown);
}

static void test_ruleset_keeps_first_path_of_dir(struct kunit *const test)
{
	struct unveil_object *const obj = fake_objects(test, 2);
	struct unveil_shown_path *const first = make_shown(test, "/first");
	struct unveil_shown_path *const renamed = make_shown(test, "/renamed");
	struct unveil_shown_path *const other = make_shown(test, "/other");
	struct unveil_ruleset *a, *b, *c;

	a = add_rule(NULL, &obj[0], first, "name", R);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = add_rule(a, &obj[0], renamed, NULL, W);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	c = add_rule(b, &obj[1], other, NULL, R);
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
	struct unveil_shown_path *const shown = make_shown(test, "/");
	struct unveil_ruleset *ruleset = NULL, *next;
	int i;

	for (i = 0; i < UNVEIL_MAX_DIR_RULES; i++) {
		next = add_rule(ruleset, &obj[i], shown, NULL, R);
		KUNIT_ASSERT_FALSE(test, IS_ERR(next));
		drop_ruleset(ruleset);
		ruleset = next;
	}
	next = add_rule(ruleset, &obj[UNVEIL_MAX_DIR_RULES], shown, NULL, R);
	KUNIT_EXPECT_EQ(test, -E2BIG, PTR_ERR(next));
	/* Replacing an existing rule is still possible at the limit. */
	next = add_rule(ruleset, &obj[0], shown, NULL, W);
	KUNIT_ASSERT_FALSE(test, IS_ERR(next));
	KUNIT_EXPECT_EQ(test, W, unveil_ruleset_find(next, &obj[0])->access);
	KUNIT_EXPECT_EQ(test, R, unveil_ruleset_find(next, &obj[7])->access);
	drop_ruleset(next);
	drop_ruleset(ruleset);
	unveil_shown_path_put(shown);
}

static void test_ruleset_name_over_name_max_is_enametoolong(struct kunit *test)
{
	struct unveil_object *const obj = fake_objects(test, 1);
	struct unveil_shown_path *const shown = make_shown(test, "/");
	char name[NAME_MAX + 2];
	struct unveil_ruleset *ruleset;
	const struct unveil_dir *dir;

	memset(name, 'n', NAME_MAX + 1);
	name[NAME_MAX + 1] = '\0';
	ruleset = add_rule(NULL, &obj[0], shown, name, R);
	KUNIT_EXPECT_EQ(test, -ENAMETOOLONG, PTR_ERR(ruleset));

	/* The longest name is kept whole, not cut to its length modulo 256. */
	name[NAME_MAX] = '\0';
	ruleset = add_rule(NULL, &obj[0], shown, name, R);
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
	unveil_shown_path_put(shown);
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
	KUNIT_EXPECT_EQ(test, 0, dir->num_names);
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
	struct unveil_ruleset *a, *b, *c;
	const struct unveil_name_rule *entry;
	const struct unveil_dir *dir;

	a = unveil_ruleset_add(NULL, &change);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = add_rule(a, &obj[1], shown, "link", W);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	c = add_rule(b, &obj[1], shown, NULL, X);
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
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "unveil_ruleset",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_UNVEIL_KUNIT_TEST */
