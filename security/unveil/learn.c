// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Learning what a program needs
 *
 * A process that writes "1" to /proc/self/attr/unveil/learn before its first
 * unveil() gets a learning veil: every check is made as under any veil, but
 * a call the veil would refuse is allowed, reported ("learned" instead of
 * "refused" in the log line, learning=1 in the audit record) and added to a
 * set that the veil's owner reads from /proc/PID/attr/unveil/learned:
 *
 *   learned 2 dropped 0
 *   op=open needed=r held=- errno=2 pid=71 comm="python3" path="/etc/passwd"
 *   op=create needed=wc held=r errno=13 pid=72 comm="sh" path="/srv/new"
 *
 * Each operation on a path is listed once, in the order first seen, with
 * the letters of every such call; the rest is what the first one was and
 * would have got, written as every report writes a refusal (record.c).
 * Unlike the ring of refusals (log.c), paths are never cut: a launcher turns
 * them into rules.  The set is shared, as the ring is, by the
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
#include <linux/pid.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/stringhash.h>

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
	/**
	 * @kept: The first such call, with the letters all of them needed.
	 */
	struct unveil_kept kept;
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
	list_for_each_entry_safe(entry, next, &learned->entries, list) {
		put_pid(entry->kept.pid);
		kfree(entry);
	}
	mutex_destroy(&learned->lock);
	kfree(learned);
}

static struct unveil_learned_entry *
find_entry(struct unveil_learned *const learned, const u32 hash,
	   const char *const op, const char *const path)
{
	struct unveil_learned_entry *entry;

	hash_for_each_possible(learned->table, entry, hash_node, hash)
		if (entry->hash == hash && !strcmp(entry->kept.op, op) &&
		    !strcmp(entry->path, path))
			return entry;
	return NULL;
}

/**
 * unveil_learned_add - Learn that a call needed more than the veil grants
 * @learned: Set of the current process's veil.
 * @record: The call, made by the current process, with a path that is not
 *          cut.
 *
 * Context: Process context that may sleep.  Takes @learned->lock.
 */
void unveil_learned_add(struct unveil_learned *const learned,
			const struct unveil_record *const record)
{
	const size_t len = strlen(record->path);
	const size_t size = struct_size_t(struct unveil_learned_entry, path,
					  len + 1);
	const u32 hash = full_name_hash(NULL, record->path, len);
	struct unveil_learned_entry *entry;

	mutex_lock(&learned->lock);
	entry = find_entry(learned, hash, record->op, record->path);
	if (entry) {
		entry->kept.needed |= record->needed;
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
	unveil_keep(&entry->kept, record);
	memcpy(entry->path, record->path, len + 1);
	hash_add(learned->table, &entry->hash_node, hash);
	list_add_tail(&entry->list, &learned->entries);
	learned->count++;
	learned->bytes += size;
out_unlock:
	mutex_unlock(&learned->lock);
}

/**
 * unveil_learned_show - Show what a learning veil would have refused
 * @m: The file being read.
 * @ns: PID namespace the reader sees PIDs in.
 * @learned: Set, or NULL for a veil that does not learn.
 *
 * Context: Process context.  Takes @learned->lock.
 * Return: 0.
 */
int unveil_learned_show(struct seq_file *const m,
			struct pid_namespace *const ns,
			struct unveil_learned *const learned)
{
	struct unveil_learned_entry *entry;

	if (!learned) {
		seq_puts(m, "learned 0 dropped 0\n");
		return 0;
	}
	mutex_lock(&learned->lock);
	seq_printf(m, "learned %u dropped %llu\n", learned->count,
		   learned->dropped);
	list_for_each_entry(entry, &learned->entries, list)
		unveil_seq_kept(m, ns, &entry->kept, entry->path, false);
	mutex_unlock(&learned->lock);
	return 0;
}
