/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - The view of one process
 */

#ifndef _SECURITY_UNVEIL_VEIL_H
#define _SECURITY_UNVEIL_VEIL_H

#include <linux/bug.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/path.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "access.h"
#include "ruleset.h"
#include "setup.h"

struct unveil_learned;
struct unveil_refusals;

/**
 * struct unveil_veil - File system view of one process
 *
 * One veil belongs to one process (thread group) and is shared by all its
 * threads through the task blob of the thread-group leader (struct
 * unveil_task_security).  A child process gets a copy.  Once a process has
 * a veil, the pointer to it never changes for the rest of the process's
 * life.  Its whole life cycle is in veil.c.
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
	 * (see veil.c), alone by fork(), and after the process's
	 * &signal_struct.exec_update_lock by readers of its /proc files (see
	 * proc_files.c).
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
	 * @refusals: The last refusals to this process, shared with the veil
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
 * struct unveil_task_security - Task security blob
 *
 * Only the blob of a thread-group leader counts: every thread of a process
 * finds the veil of the process there, so a thread created at any moment
 * shares it and nothing has to be copied between threads.
 */
struct unveil_task_security {
	/**
	 * @veil: Counted reference, or NULL.  In the leader: the veil of the
	 * process, written once under &signal_struct.cred_guard_mutex with
	 * smp_store_release().  In another thread: the same veil, taken by an
	 * execve() that will make this thread the leader; written under the
	 * same mutex.  Released when the task is freed.
	 */
	struct unveil_veil *veil;
	/**
	 * @exec_unreadable: The execve() under way runs a program, or an
	 * interpreter, that the veil lets the task run but not read (see
	 * fs.c).  Written and read only by the task itself, from the opening of
	 * the program to the commit of the new credentials.
	 */
	bool exec_unreadable;
};

static __always_inline struct unveil_task_security *
unveil_task(const struct task_struct *const task)
{
	return task->security + unveil_blob_sizes.lbs_task;
}

/**
 * unveil_task_veil - Veil of the process of a task
 * @task: Current, or a task kept alive by the caller (RCU or a reference).
 *
 * Returns: The veil, or NULL if the process never called unveil().  The veil
 * lives as long as the thread-group leader of @task.
 */
static __always_inline struct unveil_veil *
unveil_task_veil(const struct task_struct *const task)
{
	/* Pairs with the smp_store_release() that publishes a new veil. */
	return smp_load_acquire(&unveil_task(READ_ONCE(task->group_leader))->veil);
}

static __always_inline struct unveil_veil *unveil_current_veil(void)
{
	return unveil_task_veil(current);
}

/**
 * unveil_current_rules - The rules of the current process
 *
 * Context: Under rcu_read_lock(), which keeps them alive.
 * Return: The rules, or NULL if the process has none (no veil yet).
 */
static __always_inline const struct unveil_ruleset *unveil_current_rules(void)
{
	struct unveil_veil *const veil = unveil_current_veil();

	return veil ? rcu_dereference(veil->rules) : NULL;
}

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
 * False until the first unveil() in the system.  Until then the framework
 * calls no hook of this module, but those that a module after it in the LSM
 * order implements too (security_add_hooks_disabled()): those return at
 * once, through a jump patched out of the code.
 *
 * Return: true once any process asked for a veil.
 */
static __always_inline bool unveil_used_anywhere(void)
{
	return static_branch_unlikely(&unveil_used);
}

void unveil_first_use(void);

struct unveil_veil *unveil_veil_copy(struct unveil_veil *src);
void unveil_veil_get(struct unveil_veil *veil);
bool unveil_veil_tryget(struct unveil_veil *veil);
void unveil_veil_put(struct unveil_veil *veil);

int unveil_current_veil_add_rule(const struct unveil_change *change);
int unveil_current_veil_lock(void);
int unveil_current_veil_learn(void);

int unveil_refuse(const char *op, const struct path *path,
		  unveil_access_t needed, unveil_access_t held, int err);

#endif /* _SECURITY_UNVEIL_VEIL_H */
