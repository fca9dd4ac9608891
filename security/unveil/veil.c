// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - The view of one process
 *
 * The whole life of a veil: the global key that the hooks test, creation by
 * a process's first unveil() (or learning), the rules it gains, no_new_privs,
 * the lock, copies for new processes, and the end; and what a veil does
 * with a call it would refuse (unveil_refuse()): report it, and refuse it or
 * only learn it.
 *
 * Locking: a veil is created and changed under the process's
 * &signal_struct.cred_guard_mutex, then the veil's own &unveil_veil.lock
 * (begin_change()); execve() holds the former too, so a veil never changes
 * during one.  The leader's blob points to the veil from its creation on
 * (written once, read with acquire semantics); the checks read a veil's
 * rules under RCU without a lock.
 */

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/lockdep.h>
#include <linux/lsm_hooks.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "learn.h"
#include "log.h"
#include "task.h"
#include "veil.h"

DEFINE_STATIC_KEY_FALSE(unveil_used);

/**
 * unveil_first_use - Make the hooks work from now on
 *
 * Called before a process ties an object to a file or creates its veil,
 * even one that only locks.  Only the first call in the system changes
 * anything: it makes the framework call the hooks (which it does not do
 * until then, see unveil_init()) and the hooks look for veils.  Both patch
 * the code of every CPU before they return, so a hook that starts after
 * the veil or the object exists sees it.
 *
 * Context: Process context, may sleep; no lock held.
 */
void unveil_first_use(void)
{
	if (!static_key_enabled(&unveil_used)) {
		security_enable_hooks(&unveil_lsmid);
		static_branch_enable(&unveil_used);
	}
}

/*
 * An empty veil with one reference that keeps @refusals (a reference the
 * caller gives it), charged to the caller's memcg; NULL if memory is short.
 */
static struct unveil_veil *alloc_veil(struct unveil_refusals *refusals)
{
	struct unveil_veil *veil;

	if (!refusals)
		return NULL;
	veil = kzalloc(sizeof(*veil), GFP_KERNEL_ACCOUNT);
	if (!veil) {
		unveil_refusals_put(refusals);
		return NULL;
	}
	refcount_set(&veil->usage, 1);
	mutex_init(&veil->lock);
	veil->refusals = refusals;
	return veil;
}

/**
 * unveil_veil_copy - Copy a veil for a new process
 * @src: Veil of the parent process.
 *
 * Returns: A new veil with one reference, the same rules (shared: whichever
 * process calls unveil() next changes a copy), lock and learning state as
 * @src at one instant, or NULL if memory is short.
 */
struct unveil_veil *unveil_veil_copy(struct unveil_veil *src)
{
	struct unveil_ruleset *rules;
	struct unveil_veil *veil;

	veil = alloc_veil(unveil_refusals_get(src->refusals));
	if (!veil)
		return NULL;
	mutex_lock(&src->lock);
	veil->locked = src->locked;
	if (src->learned)
		veil->learned = unveil_learned_get(src->learned);
	rules = rcu_dereference_protected(src->rules,
					  lockdep_is_held(&src->lock));
	if (rules)
		unveil_ruleset_get(rules);
	RCU_INIT_POINTER(veil->rules, rules);
	mutex_unlock(&src->lock);
	return veil;
}

/**
 * unveil_veil_get - Take a reference on a veil
 * @veil: Veil the caller already holds a reference on (directly or through
 *        a task it keeps alive).
 */
void unveil_veil_get(struct unveil_veil *veil)
{
	refcount_inc(&veil->usage);
}

/**
 * unveil_veil_tryget - Take a reference on a veil found under RCU
 * @veil: Veil read under rcu_read_lock(); its process may be going away.
 *
 * Returns: true with a reference, false if the last one is gone.
 */
bool unveil_veil_tryget(struct unveil_veil *veil)
{
	return refcount_inc_not_zero(&veil->usage);
}

/**
 * unveil_veil_put - Drop a reference on a veil, freeing it after the last
 * @veil: Veil, or NULL.
 *
 * May be called in any context, including RCU callbacks (task freeing).
 */
void unveil_veil_put(struct unveil_veil *veil)
{
	if (veil && refcount_dec_and_test(&veil->usage)) {
		unveil_ruleset_put(rcu_dereference_protected(veil->rules, true));
		unveil_refusals_put(veil->refusals);
		unveil_learned_put(veil->learned);
		kfree_rcu(veil, rcu);
	}
}

/*
 * The veil of the current process, created if needed: an empty veil with a
 * ring of refusals of its own, that hides nothing and is not locked.  NULL
 * if memory is short.  cred_guard_mutex serialises the creation against
 * other threads and execve().
 */
static struct unveil_veil *current_veil_create(void)
{
	struct unveil_task_security *const leader =
		unveil_task(current->group_leader);
	struct unveil_veil *veil;

	lockdep_assert_held(&current->signal->cred_guard_mutex);
	veil = leader->veil;
	if (veil)
		return veil;
	veil = alloc_veil(unveil_refusals_alloc());
	if (veil) {
		/* Pairs with unveil_task_veil(): readers see it initialised. */
		smp_store_release(&leader->veil, veil);
	}
	return veil;
}

/*
 * Locks the veil of the current process for a change, creating it if
 * needed.  Lock order: cred_guard_mutex, then &unveil_veil.lock; the veil's
 * lock serialises the change against fork() and readers.  Returns the veil,
 * or an ERR_PTR(): -ENOMEM, or -EINTR if a fatal signal came first.
 */
static struct unveil_veil *begin_change(void)
{
	struct unveil_veil *veil;
	int err;

	unveil_first_use();
	err = mutex_lock_killable(&current->signal->cred_guard_mutex);
	if (err)
		return ERR_PTR(err);
	veil = current_veil_create();
	if (!veil) {
		mutex_unlock(&current->signal->cred_guard_mutex);
		return ERR_PTR(-ENOMEM);
	}
	mutex_lock(&veil->lock);
	return veil;
}

static void end_change(struct unveil_veil *const veil)
{
	mutex_unlock(&veil->lock);
	mutex_unlock(&current->signal->cred_guard_mutex);
}

/*
 * Sets no_new_privs in every thread of the current process.  A thread
 * being cloned right now may miss it; the execve() hook sets it again for
 * any execve() under a veil.
 */
static void set_no_new_privs(void)
{
	struct task_struct *thread;

	/* No execve() in between, which would need it already. */
	lockdep_assert_held(&current->signal->cred_guard_mutex);
	rcu_read_lock();
	for_each_thread(current, thread)
		task_set_no_new_privs(thread);
	rcu_read_unlock();
}

/**
 * unveil_current_veil_add_rule - Add a rule to the veil of the current
 * process, creating the veil if needed
 * @change: The rule, with everything it needs already allocated.
 *
 * The first rule veils the file system and sets no_new_privs in every thread
 * of the process.
 *
 * Returns: 0, -EPERM if the veil is locked, -EBUSY if the process can act
 * as another one (unveil_current_is_tied()), -E2BIG past the limits or
 * -ENOMEM (the veil is then unchanged), or -EINTR if a fatal signal came
 * first.
 */
int unveil_current_veil_add_rule(const struct unveil_change *const change)
{
	struct unveil_veil *const veil = begin_change();
	struct unveil_ruleset *old, *new;
	int err = 0;

	if (IS_ERR(veil))
		return PTR_ERR(veil);
	if (veil->locked) {
		err = -EPERM;
		goto out;
	}
	if (unveil_current_is_tied()) {
		err = -EBUSY;
		goto out;
	}
	old = rcu_dereference_protected(veil->rules,
					lockdep_is_held(&veil->lock));
	new = unveil_ruleset_add(old, change);
	if (IS_ERR(new)) {
		err = PTR_ERR(new);
		goto out;
	}
	rcu_assign_pointer(veil->rules, new);
	unveil_ruleset_put(old);
	if (!old)
		set_no_new_privs();
out:
	end_change(veil);
	return err;
}

/**
 * unveil_current_veil_lock - Forbid any further change of the veil of the
 * current process: unveil(NULL, NULL)
 *
 * A learning veil is never locked: it would promise what it does not do.
 *
 * Returns: 0 (also if it was locked already), -EPERM if the veil is
 * learning, -EBUSY if the process can act as another one, -ENOMEM if the
 * veil had to be created, or -EINTR if a fatal signal came first.
 */
int unveil_current_veil_lock(void)
{
	struct unveil_veil *const veil = begin_change();
	int err = 0;

	if (IS_ERR(veil))
		return PTR_ERR(veil);
	if (veil->learned)
		err = -EPERM;
	else if (!veil->locked && unveil_current_is_tied())
		err = -EBUSY;
	else
		WRITE_ONCE(veil->locked, true);
	end_change(veil);
	return err;
}

/**
 * unveil_current_veil_learn - Make the veil of the current process learn
 * instead of refuse
 *
 * Only before the first rule: a process that has rules, its own or its
 * parent's, must never stop enforcing them.  As under any veil, no program
 * gains privileges: no_new_privs is set in every thread.
 *
 * Returns: 0 (also if it already learns), -EPERM if the veil has rules or
 * is locked, -ENOMEM, or -EINTR if a fatal signal came first.
 */
int unveil_current_veil_learn(void)
{
	struct unveil_veil *const veil = begin_change();
	struct unveil_learned *learned;
	int err = 0;

	if (IS_ERR(veil))
		return PTR_ERR(veil);
	if (veil->locked || rcu_access_pointer(veil->rules)) {
		err = -EPERM;
		goto out;
	}
	if (!veil->learned) {
		learned = unveil_learned_alloc();
		if (!learned) {
			err = -ENOMEM;
			goto out;
		}
		/*
		 * Published to checks by the rcu_assign_pointer() of the
		 * first rules.
		 */
		WRITE_ONCE(veil->learned, learned);
	}
	set_no_new_privs();
out:
	end_change(veil);
	return err;
}

/**
 * unveil_refuse - Report a call the veil of the current process refuses, and
 * refuse it unless the veil only learns, which learns it instead
 * @op: Name of the operation, such as "open".
 * @path: The object the operation was refused, or NULL if it concerns none.
 * @needed: Permissions the operation needed.
 * @held: Permissions the rule nearest to @path grants, 0 if it is hidden.
 * @err: The error for the process (negative).
 *
 * Context: Process context that may sleep: every file system hook that
 * refuses something runs in one.
 * Return: @err, or 0 if the veil of the current process is learning.
 */
int unveil_refuse(const char *const op, const struct path *const path,
		  const unveil_access_t needed, const unveil_access_t held,
		  const int err)
{
	struct unveil_veil *const veil = unveil_current_veil();
	struct unveil_record record = {
		.op = op,
		.needed = needed,
		.held = held,
		.err = err,
		.path = "",
	};
	struct unveil_learned *learned;
	char comm[TASK_COMM_LEN];
	char *buf = NULL;

	if (WARN_ON_ONCE(!veil))
		return err;
	unveil_record_current(&record, comm);
	/*
	 * Called after a check found rules.  Pairs with their
	 * rcu_assign_pointer(), which unveil_current_veil_learn() came
	 * before: having seen rules, see @learned.
	 */
	smp_rmb();
	learned = READ_ONCE(veil->learned);
	if (path) {
		buf = __getname();
		record.path = buf ? unveil_shown_path(path, buf) : "?";
	}
	unveil_report_refusal(veil->refusals, &record, path, learned);
	if (learned)
		unveil_learned_add(learned, &record);
	if (buf)
		__putname(buf);
	return learned ? 0 : err;
}
