// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - The view of one process
 */

#include <linux/errno.h>
#include <linux/lockdep.h>
#include <linux/slab.h>

#include "learn.h"
#include "log.h"
#include "veil.h"

DEFINE_STATIC_KEY_FALSE(unveil_used);

/**
 * unveil_veil_first_use - Make the hooks look for veils from now on
 *
 * Called before a process creates its veil, even one that only locks.  Only
 * the first call in the system changes anything: it patches the code of
 * every CPU before it returns, so a hook that starts after the veil exists
 * looks for it.
 */
void unveil_veil_first_use(void)
{
	if (!static_key_enabled(&unveil_used))
		static_branch_enable(&unveil_used);
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
 * unveil_veil_alloc - Allocate an empty veil, charged to the caller's memcg
 *
 * Returns: A veil with one reference and a ring of denials of its own, that
 * hides nothing and is not locked, or NULL if memory is short.
 */
struct unveil_veil *unveil_veil_alloc(void)
{
	return alloc_veil(unveil_refusals_alloc());
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
 * unveil_veil_learn - Make a veil learn instead of refuse
 * @veil: Veil of the current process, with @veil->lock held.
 *
 * Only before the first rule: a process that has rules, its own or its
 * parent's, must never stop enforcing them.
 *
 * Returns: 0 (also if it already learns), -EPERM if the veil has rules or
 * is locked, or -ENOMEM.
 */
int unveil_veil_learn(struct unveil_veil *const veil)
{
	struct unveil_learned *learned;

	lockdep_assert_held(&veil->lock);
	if (veil->locked || rcu_access_pointer(veil->rules))
		return -EPERM;
	if (veil->learned)
		return 0;
	learned = unveil_learned_alloc();
	if (!learned)
		return -ENOMEM;
	/* Published to checks by the rcu_assign_pointer() of the first rules. */
	WRITE_ONCE(veil->learned, learned);
	return 0;
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
