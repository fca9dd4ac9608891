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

/**
 * struct ruleset_layout - Sizes of a ruleset being built
 */
struct ruleset_layout {
	/** @num_dirs: Directories. */
	u32 num_dirs;
	/** @num_names: Name rules. */
	u32 num_names;
	/** @num_dir_rules: Directory rules. */
	u32 num_dir_rules;
	/** @name_bytes: Bytes of all names. */
	size_t name_bytes;
	/** @num_slots: Hash slots, a power of two. */
	u32 num_slots;
};

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
	ruleset->num_name_rules = l->num_names;
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

/*
 * Copies @src (with @change applied: a new or replaced name rule, or a new
 * directory rule) into @dst, names at *@names and their bytes at *@bytes.
 */
static void copy_dir(struct unveil_dir *const dst,
		     const struct unveil_dir *const src,
		     const struct unveil_name_rule *const change,
		     struct unveil_name_rule **const names, char **const bytes)
{
	bool replaced = false;
	u32 i;

	*dst = *src;
	dst->names = *names;
	dst->num_names = 0;
	for (i = 0; i < src->num_names; i++) {
		struct unveil_name_rule *const rule = (*names)++;

		*rule = src->names[i];
		if (change && rule->hash == change->hash &&
		    rule->len == change->len &&
		    !memcmp(rule->name, change->name, change->len)) {
			rule->access = change->access;
			replaced = true;
		}
		rule->name = copy_bytes(rule->name, rule->len, bytes);
		dst->num_names++;
	}
	if (change && !replaced) {
		struct unveil_name_rule *const rule = (*names)++;

		*rule = *change;
		rule->name = copy_bytes(change->name, change->len, bytes);
		dst->num_names++;
	}
	unveil_object_get(dst->object);
	refcount_inc(&dst->shown->usage);
}

/**
 * unveil_ruleset_add - Build a ruleset with one more or one changed rule
 * @old: Current rules, or NULL.  Not modified.
 * @object: Directory of the rule: the unveiled directory itself, or the
 *          parent of the unveiled name.
 * @shown: How the process names that directory, to show the rules; the
 *         new ruleset takes a reference if the directory has no rule yet.
 * @name: Unveiled name (NUL-terminated, at most NAME_MAX bytes), or NULL for
 *        a directory rule.
 * @access: Permissions of the rule; they replace those of an existing rule
 *          for the same directory or name.
 *
 * Rules on file systems unmounted since are left out.
 *
 * Returns: The new ruleset with one reference, ERR_PTR(-ENAMETOOLONG) if
 * @name is longer than NAME_MAX, ERR_PTR(-E2BIG) past the limits, or
 * ERR_PTR(-ENOMEM).
 */
struct unveil_ruleset *
unveil_ruleset_add(const struct unveil_ruleset *const old,
		   struct unveil_object *const object,
		   struct unveil_shown_path *const shown, const char *const name,
		   const unveil_access_t access)
{
	const struct unveil_dir *const found = old ?
		unveil_ruleset_find(old, object) : NULL;
	struct ruleset_layout layout = {};
	struct unveil_name_rule change = {}, *names;
	struct unveil_ruleset *ruleset;
	struct unveil_dir *dir;
	char *bytes;
	u32 i;

	BUILD_BUG_ON(NAME_MAX > U8_MAX);
	if (name) {
		const size_t len = strnlen(name, NAME_MAX + 1);

		if (len > NAME_MAX)
			return ERR_PTR(-ENAMETOOLONG);
		change.len = len;
		change.hash = unveil_name_hash(name, change.len, NULL);
		change.name = name;
		change.access = access;
		if (!found || !unveil_dir_find_name(found, name, change.len,
						    change.hash)) {
			layout.num_names++;
			layout.name_bytes += change.len;
		}
	} else if (!found || !found->has_rule) {
		layout.num_dir_rules++;
	}
	if (!found)
		layout.num_dirs++;

	for (i = 0; old && i < old->num_dirs; i++) {
		const struct unveil_dir *const src = &old->dirs[i];
		u32 n;

		if (unveil_dir_is_dead(src))
			continue;
		layout.num_dirs++;
		layout.num_dir_rules += src->has_rule;
		layout.num_names += src->num_names;
		for (n = 0; n < src->num_names; n++)
			layout.name_bytes += src->names[n].len;
	}
	if (layout.num_dir_rules > UNVEIL_MAX_DIR_RULES ||
	    layout.num_names > UNVEIL_MAX_NAME_RULES)
		return ERR_PTR(-E2BIG);

	layout.num_slots = roundup_pow_of_two(max(8u, 2 * layout.num_dirs));
	ruleset = alloc_ruleset(&layout);
	if (!ruleset)
		return ERR_PTR(-ENOMEM);

	dir = ruleset->dirs;
	names = (struct unveil_name_rule *)(ruleset->dirs + layout.num_dirs);
	bytes = (char *)(ruleset->slots + layout.num_slots);
	for (i = 0; old && i < old->num_dirs; i++) {
		const struct unveil_dir *const src = &old->dirs[i];

		if (unveil_dir_is_dead(src))
			continue;
		if (src != found) {
			copy_dir(dir++, src, NULL, &names, &bytes);
			continue;
		}
		copy_dir(dir, src, name ? &change : NULL, &names, &bytes);
		if (!name) {
			dir->has_rule = true;
			dir->access = access;
		}
		dir++;
	}
	if (!found) {
		const struct unveil_dir fresh = {
			.object = object,
			.has_rule = !name,
			.access = name ? 0 : access,
			.shown = shown,
		};

		copy_dir(dir++, &fresh, name ? &change : NULL, &names, &bytes);
	}
	/* An unmount may have untied more directories since they were counted. */
	ruleset->num_dirs = dir - ruleset->dirs;
	hash_dirs(ruleset);
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
		queue_rcu_work(system_wq, &ruleset->free_work);
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

	a = unveil_ruleset_add(NULL, &obj[0], shown, NULL, R);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = unveil_ruleset_add(a, &obj[1], shown, "file", R | W);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	c = unveil_ruleset_add(b, &obj[1], shown, "file", 0);
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

	a = unveil_ruleset_add(NULL, &obj[0], first, "name", R);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = unveil_ruleset_add(a, &obj[0], renamed, NULL, W);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	c = unveil_ruleset_add(b, &obj[1], other, NULL, R);
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
		next = unveil_ruleset_add(ruleset, &obj[i], shown, NULL, R);
		KUNIT_ASSERT_FALSE(test, IS_ERR(next));
		drop_ruleset(ruleset);
		ruleset = next;
	}
	next = unveil_ruleset_add(ruleset, &obj[UNVEIL_MAX_DIR_RULES], shown,
				  NULL, R);
	KUNIT_EXPECT_EQ(test, -E2BIG, PTR_ERR(next));
	/* Replacing an existing rule is still possible at the limit. */
	next = unveil_ruleset_add(ruleset, &obj[0], shown, NULL, W);
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
	ruleset = unveil_ruleset_add(NULL, &obj[0], shown, name, R);
	KUNIT_EXPECT_EQ(test, -ENAMETOOLONG, PTR_ERR(ruleset));

	/* The longest name is kept whole, not cut to its length modulo 256. */
	name[NAME_MAX] = '\0';
	ruleset = unveil_ruleset_add(NULL, &obj[0], shown, name, R);
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
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "unveil_ruleset",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_UNVEIL_KUNIT_TEST */
