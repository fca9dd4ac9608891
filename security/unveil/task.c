// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Processes: fork, execve, exit, and acting on other processes
 *
 * Locking: execve() holds &signal_struct.cred_guard_mutex, under which a
 * veil is created and changed (see veil.c), so a veil never changes during
 * one.  The checks on other processes read veils under RCU without a lock.
 */

#include <linux/binfmts.h>
#include <linux/lockdep.h>
#include <linux/lsm_hooks.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/security.h>

#include "common.h"
#include "setup.h"
#include "task.h"
#include "veil.h"

static int hook_task_alloc(struct task_struct *const task,
			   const unsigned long clone_flags)
{
	struct unveil_veil *parent_veil, *veil;

	/* Threads find the veil of their process in its leader. */
	if (clone_flags & CLONE_THREAD)
		return 0;

	parent_veil = unveil_current_veil();
	if (!parent_veil)
		return 0;
	veil = unveil_veil_copy(parent_veil);
	if (!veil)
		return -ENOMEM;
	unveil_task(task)->veil = veil;
	return 0;
}

static void hook_task_free(struct task_struct *const task)
{
	unveil_veil_put(unveil_task(task)->veil);
}

/*
 * Called with cred_guard_mutex held, before the new program's credentials are
 * computed and before de_thread() makes the calling thread the leader.
 */
static int hook_bprm_creds_for_exec(struct linux_binprm *const bprm)
{
	struct unveil_task_security *const self = unveil_task(current);
	struct unveil_veil *const veil = unveil_current_veil();

	lockdep_assert_held(&current->signal->cred_guard_mutex);
	if (!veil)
		return 0;

	/* The veil stays across execve(): the thread becomes the leader. */
	if (!thread_group_leader(current) && self->veil != veil) {
		if (WARN_ON_ONCE(self->veil))
			unveil_veil_put(self->veil);
		unveil_veil_get(veil);
		self->veil = veil;
	}

	/*
	 * Also covers a thread cloned while unveil() or the start of learning
	 * (written under cred_guard_mutex too) set no_new_privs.
	 */
	if (unveil_veil_is_active(veil) || veil->learned) {
		task_set_no_new_privs(current);
		bprm->unsafe |= LSM_UNSAFE_NO_NEW_PRIVS;
	}
	return 0;
}

/*
 * A veiled process must not use another process to see or do what its own
 * veil forbids (ptrace, /proc/PID/mem, process_vm_writev(), pidfd_getfd()),
 * nor tie itself to one with PTRACE_TRACEME: if @veiled has a veil, @other
 * must be veiled at least as strictly.  Processes share a ruleset only
 * until one of them changes its rules (unveil() changes a shared ruleset in
 * a copy), so this is checked as "has the same rules, and is locked if
 * @veiled is":
 * the threads of a process, and children that did not change their rules
 * since fork(), qualify.  An unlocked child could otherwise be made to
 * unveil more for a locked parent.
 */
static int check_peer_veil(const struct task_struct *const veiled,
			   const struct task_struct *const other)
{
	struct unveil_veil *veil, *other_veil;
	int err = 0;

	rcu_read_lock();
	veil = unveil_task_veil(veiled);
	if (unveil_veil_is_active(veil)) {
		/* A released task's leader may be gone: treat it as unveiled. */
		other_veil = pid_alive(other) ? unveil_task_veil(other) : NULL;
		if (!other_veil || rcu_dereference(other_veil->rules) !=
				   rcu_dereference(veil->rules) ||
		    (READ_ONCE(veil->locked) && !READ_ONCE(other_veil->locked)))
			err = -EPERM;
	}
	rcu_read_unlock();
	return err;
}

static int hook_ptrace_access_check(struct task_struct *const child,
				    const unsigned int mode)
{
	return check_peer_veil(current, child);
}

static int hook_ptrace_traceme(struct task_struct *const parent)
{
	return check_peer_veil(current, parent);
}

static struct security_hook_list unveil_task_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(task_alloc, hook_task_alloc),
	LSM_HOOK_INIT(task_free, hook_task_free),
	LSM_HOOK_INIT(bprm_creds_for_exec, hook_bprm_creds_for_exec),
	LSM_HOOK_INIT(ptrace_access_check, hook_ptrace_access_check),
	LSM_HOOK_INIT(ptrace_traceme, hook_ptrace_traceme),
};

/**
 * unveil_add_task_hooks - Register the process life cycle hooks
 */
__init void unveil_add_task_hooks(void)
{
	security_add_hooks(unveil_task_hooks, ARRAY_SIZE(unveil_task_hooks),
			   &unveil_lsmid);
}
