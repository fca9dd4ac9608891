/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Process life cycle
 */

#ifndef _SECURITY_UNVEIL_TASK_H
#define _SECURITY_UNVEIL_TASK_H

#include <linux/sched.h>
#include <linux/sched/signal.h>

#include "setup.h"
#include "veil.h"

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
	/* Pairs with unveil_current_veil_create(). */
	return smp_load_acquire(&unveil_task(READ_ONCE(task->group_leader))->veil);
}

static __always_inline struct unveil_veil *unveil_current_veil(void)
{
	return unveil_task_veil(current);
}

struct unveil_veil *unveil_current_veil_create(void);
struct unveil_veil *unveil_current_veil_lock(void);
void unveil_current_veil_unlock(struct unveil_veil *veil);
void unveil_current_set_no_new_privs(void);

__init void unveil_add_task_hooks(void);

#endif /* _SECURITY_UNVEIL_TASK_H */
