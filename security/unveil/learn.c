// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Learning what a program needs
 *
 * A process that writes "1" to /proc/self/attr/unveil/learn before its first
 * unveil() gets a learning veil: every check is made as under any veil, but
 * a call the veil would refuse is allowed, reported ("learned" instead of
 * "denied" in the log line, learning=1 in the audit record) and added to a
 * set that the veil's owner reads from /proc/PID/attr/unveil/learned:
 *
 *   learned 2 dropped 0
 *   op=open needed=r held=- errno=2 path="/etc/passwd"
 *   op=create needed=wc held=r errno=13 path="/srv/new"
 *
 * Each operation on a path is listed once, in the order first seen, with
 * the letters of every such call; "errno" is what the first one would have
 * got.  Unlike the ring of refusals (log.c), paths are never cut: a launcher
 * turns them into rules.  The set is shared, as the ring is, by the
 * processes forked from the learner, and is bounded: past UNVEIL_LEARNED_MAX
 * entries or UNVEIL_LEARNED_BYTES bytes, new ones are only counted.
 *
 * A learning veil is a veil in every other way (no_new_privs, the ptrace
 * checks of task.c, read-back), it can never be locked, and the flag can
 * neither be set once the process has rules nor be cleared: a process
 * cannot leave an enforcing veil that way, nor hide from its launcher what
 * it did.
 */

#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/stringhash.h>

#include "common.h"
#include "learn.h"

#define UNVEIL_LEARNED_MAX	4096
#define UNVEIL_LEARNED_BYTES	SZ_1M
#define UNVEIL_LEARNED_HASH_BITS	8

/**
 * struct unveil_learned_entry - One operation on one path, learned
 */
struct unveil_learned_entry {
	/** @hash_node: In &unveil_learned.table, by @hash. */
	struct hlist_node hash_node;
	/** @list: In &unveil_learned.entries, in the order first seen. */
	struct list_head list;
	/** @hash: Hash of @path. */
	u32 hash;
	/** @op: Name of the operation (a string constant). */
	const char *op;
	/** @needed: Letters all such calls needed. */
	unveil_access_t needed;
	/** @held: Letters of the nearest rule. */
	unveil_access_t held;
	/** @err: The error the first such call would have got, negative. */
	int err;
	/** @path: The path, NUL-terminated. */
	char path[];
};

/**
 * struct unveil_learned - What a learning veil would have refused
 *
 * Allocated when a process asks to learn (charged to its memcg), shared by
 * the veils copied from it by fork(), freed with the last of them.
 */
struct unveil_learned {
	/** @usage: Number of veils that point to this set. */
	refcount_t usage;
	/**
	 * @lock: Protects every following member; taken in process context
	 * that may sleep, inside any file system lock a hook runs under.
	 */
	struct mutex lock;
	/** @count: Number of entries. */
	u32 count;
	/** @bytes: Memory taken by the entries. */
	size_t bytes;
	/** @dropped: Entries not kept because the set was full. */
	u64 dropped;
	/** @entries: The entries, oldest first. */
	struct list_head entries;
	/** @table: The entries, by hash. */
	DECLARE_HASHTABLE(table, UNVEIL_LEARNED_HASH_BITS);
};

/**
 * unveil_learned_alloc - Allocate an empty set of learned operations
 *
 * Returns: A set with one reference, or NULL if memory is short.
 */
struct unveil_learned *unveil_learned_alloc(void)
{
	struct unveil_learned *learned;

	learned = kzalloc(sizeof(*learned), GFP_KERNEL_ACCOUNT);
	if (!learned)
		return NULL;
	refcount_set(&learned->usage, 1);
	mutex_init(&learned->lock);
	INIT_LIST_HEAD(&learned->entries);
	hash_init(learned->table);
	return learned;
}

/**
 * unveil_learned_get - Take a reference on a set of learned operations
 * @learned: Set the caller holds a reference on.
 *
 * Returns: @learned.
 */
struct unveil_learned *unveil_learned_get(struct unveil_learned *learned)
{
	refcount_inc(&learned->usage);
	return learned;
}

/**
 * unveil_learned_put - Drop a reference on a set of learned operations
 * @learned: Set, or NULL.
 *
 * Frees it with the last reference.
 */
void unveil_learned_put(struct unveil_learned *learned)
{
	struct unveil_learned_entry *entry, *next;

	if (!learned || !refcount_dec_and_test(&learned->usage))
		return;
	list_for_each_entry_safe(entry, next, &learned->entries, list)
		kfree(entry);
	mutex_destroy(&learned->lock);
	kfree(learned);
}

static struct unveil_learned_entry *
find_entry(struct unveil_learned *const learned, const u32 hash,
	   const char *const op, const char *const path)
{
	struct unveil_learned_entry *entry;

	hash_for_each_possible(learned->table, entry, hash_node, hash)
		if (entry->hash == hash && !strcmp(entry->op, op) &&
		    !strcmp(entry->path, path))
			return entry;
	return NULL;
}

/**
 * unveil_learned_add - Learn that a call needed more than the veil grants
 * @learned: Set of the current process's veil.
 * @op: Name of the operation, a string constant.
 * @path: The path as the reports show it.
 * @needed: Permissions the call needed.
 * @held: Permissions the rule nearest to @path grants.
 * @err: The error the call would have got (negative).
 *
 * Context: Process context that may sleep.  Takes @learned->lock.
 */
void unveil_learned_add(struct unveil_learned *const learned,
			const char *const op, const char *const path,
			const unveil_access_t needed,
			const unveil_access_t held, const int err)
{
	const size_t len = strlen(path);
	const size_t size = struct_size_t(struct unveil_learned_entry, path,
					  len + 1);
	const u32 hash = full_name_hash(NULL, path, len);
	struct unveil_learned_entry *entry;

	mutex_lock(&learned->lock);
	entry = find_entry(learned, hash, op, path);
	if (entry) {
		entry->needed |= needed;
		goto out_unlock;
	}
	if (learned->count >= UNVEIL_LEARNED_MAX ||
	    learned->bytes + size > UNVEIL_LEARNED_BYTES) {
		learned->dropped++;
		goto out_unlock;
	}
	entry = kmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!entry) {
		learned->dropped++;
		goto out_unlock;
	}
	entry->hash = hash;
	entry->op = op;
	entry->needed = needed;
	entry->held = held;
	entry->err = err;
	memcpy(entry->path, path, len + 1);
	hash_add(learned->table, &entry->hash_node, hash);
	list_add_tail(&entry->list, &learned->entries);
	learned->count++;
	learned->bytes += size;
out_unlock:
	mutex_unlock(&learned->lock);
}

/* Writes @path as the reports quote it, never cut. */
static void show_path(struct seq_file *const m, const char *const path)
{
	const unsigned char *c;

	for (c = path; *c; c++) {
		if (unveil_must_escape(*c))
			seq_printf(m, "\\x%02x", *c);
		else
			seq_putc(m, *c);
	}
}

/**
 * unveil_learned_show - Show what a learning veil would have refused
 * @m: The file being read.
 * @learned: Set, or NULL for a veil that does not learn.
 *
 * Context: Process context.  Takes @learned->lock.
 * Return: 0.
 */
int unveil_learned_show(struct seq_file *const m,
			struct unveil_learned *const learned)
{
	char needed[UNVEIL_ACCESS_LETTERS_SIZE], held[UNVEIL_ACCESS_LETTERS_SIZE];
	struct unveil_learned_entry *entry;

	if (!learned) {
		seq_puts(m, "learned 0 dropped 0\n");
		return 0;
	}
	mutex_lock(&learned->lock);
	seq_printf(m, "learned %u dropped %llu\n", learned->count,
		   learned->dropped);
	list_for_each_entry(entry, &learned->entries, list) {
		seq_printf(m, "op=%s needed=%s held=%s errno=%d path=\"",
			   entry->op, unveil_format_access(entry->needed, needed),
			   unveil_format_access(entry->held, held), -entry->err);
		show_path(m, entry->path);
		seq_puts(m, "\"\n");
	}
	mutex_unlock(&learned->lock);
	return 0;
}
