/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - The view of one process
 */

#ifndef _SECURITY_UNVEIL_VEIL_H
#define _SECURITY_UNVEIL_VEIL_H

#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/types.h>

#include "ruleset.h"

struct unveil_learned;
struct unveil_refusals;

/**
 * struct unveil_veil - File system view of one process
 *
 * One veil belongs to one process (thread group) and is shared by all its
 * threads through the task blob of the thread-group leader (see task.h).  A
 * child process gets a copy.  Once a process has a veil, the pointer to it
 * never changes for the rest of the process's life.
 */
struct unveil_veil {
	/**
	 * @usage: Number of task blobs that point to this veil: the
	 * thread-group leader's, and that of a thread in the middle of an
	 * execve() that will make it the leader.
	 */
	refcount_t usage;
	/**
	 * @lock: Serialises changes of this veil (unveil() in any thread of
	 * the process) against each other and against copies made by fork().
	 * Taken after &signal_struct.cred_guard_mutex when the veil changes
	 * (unveil_current_veil_lock()), alone by readers and fork().
	 */
	struct mutex lock;
	/**
	 * @locked: Set by unveil(NULL, NULL), never cleared, never with
	 * @learned.  Written under @lock; read locklessly with READ_ONCE().
	 */
	bool locked;
	/**
	 * @rules: The rules, NULL until the first successful
	 * unveil(path, permissions): the file system is veiled as soon as it
	 * is set.  Counted reference, replaced under @lock with
	 * rcu_assign_pointer(); read under RCU.
	 */
	struct unveil_ruleset __rcu *rules;
	/**
	 * @refusals: The last denials of this process, shared with the veil
	 * it was copied from and those copied from it (see log.c).  Counted
	 * reference, set when the veil is made, never changed.
	 */
	struct unveil_refusals *refusals;
	/**
	 * @learned: NULL, or the set of what this veil would have refused,
	 * shared as @refusals is: the veil only learns (see learn.c).  Set
	 * under @lock before @rules, with the release of
	 * rcu_assign_pointer(); a check that found rules reads it after
	 * smp_rmb().  Counted reference, never changed once @rules is set.
	 */
	struct unveil_learned *learned;
	/** @rcu: Frees the veil after concurrent lockless readers are done. */
	struct rcu_head rcu;
};

/**
 * unveil_veil_is_active - Whether a veil hides anything
 * @veil: Veil, or NULL.
 *
 * Returns: true once the process made a successful unveil(path, ...).
 */
static inline bool unveil_veil_is_active(struct unveil_veil *const veil)
{
	return veil && rcu_access_pointer(veil->rules);
}

DECLARE_STATIC_KEY_FALSE(unveil_used);

/**
 * unveil_used_anywhere - Whether any process may have a veil
 *
 * False until the first unveil() in the system: until then the hooks return
 * at once, through a jump patched out of the code.
 *
 * Return: true once any process asked for a veil.
 */
static __always_inline bool unveil_used_anywhere(void)
{
	return static_branch_unlikely(&unveil_used);
}

void unveil_veil_first_use(void);
struct unveil_veil *unveil_veil_alloc(void);
struct unveil_veil *unveil_veil_copy(struct unveil_veil *src);
int unveil_veil_learn(struct unveil_veil *veil);
void unveil_veil_get(struct unveil_veil *veil);
bool unveil_veil_tryget(struct unveil_veil *veil);
void unveil_veil_put(struct unveil_veil *veil);

#endif /* _SECURITY_UNVEIL_VEIL_H */
