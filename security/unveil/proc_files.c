// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - The files of /proc/PID/attr/unveil/
 *
 * /proc/PID/attr/unveil/rules shows the veil of a process to the process
 * itself and to whoever may read it as a debugger would (PTRACE_MODE_READ):
 *
 *   veiled yes
 *   locked no
 *   learning no
 *   rule rwc "/tmp"
 *   rule r "/etc/passwd"
 *
 * One "rule" line per rule, with its letters ("-" for none) and its path as
 * the process named it when it made the first rule in that directory,
 * quoted as every report quotes a path (record.c).
 *
 * /proc/PID/attr/unveil/refusals shows, to the same readers, the last
 * refusals under the veil (see log.c), unless the reader is veiled itself:
 * a hidden file that exists gets a refusal, one that does not exist gets
 * none, so a veiled process that read refusals, its own included (through
 * a descriptor opened before its veil), would learn what its veil hides.
 * /proc/PID/attr/unveil/learned shows what a learning veil would have
 * refused (see learn.c), to the same readers as the refusals.
 *
 * /proc/PID/attr/unveil/learn is written "1" by a process itself, before
 * its first rule, to learn instead of refuse.
 *
 * Locking: a reader takes references under the process's exec_update_lock
 * (for reading) and, inside it, the veil's lock; it shows a ring or a set
 * under their own lock after dropping both.  A write of "learn" takes the
 * locks of a change (see veil.c).
 */

#include <linux/cred.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/unveil.h>

#include "learn.h"
#include "log.h"
#include "record.h"
#include "ruleset.h"
#include "setup.h"
#include "veil.h"

/* The veil of the process of @task with a reference, or NULL. */
static struct unveil_veil *get_task_veil(struct task_struct *const task)
{
	struct unveil_veil *veil;

	rcu_read_lock();
	veil = pid_alive(task) ? unveil_task_veil(task) : NULL;
	if (veil && !unveil_veil_tryget(veil))
		veil = NULL;
	rcu_read_unlock();
	return veil;
}

/*
 * The rules of the process of @task with a reference (NULL if it has
 * none), whether they are locked and whether the veil learns.
 */
static struct unveil_ruleset *get_task_rules(struct task_struct *const task,
					     bool *const locked,
					     bool *const learning)
{
	struct unveil_veil *const veil = get_task_veil(task);
	struct unveil_ruleset *rules;

	*locked = false;
	*learning = false;
	if (!veil)
		return NULL;

	mutex_lock(&veil->lock);
	*locked = veil->locked;
	*learning = !!veil->learned;
	rules = rcu_dereference_protected(veil->rules,
					  lockdep_is_held(&veil->lock));
	if (rules)
		unveil_ruleset_get(rules);
	mutex_unlock(&veil->lock);
	unveil_veil_put(veil);
	return rules;
}

/*
 * The ring of refusals of the process of @task with a reference, or NULL if
 * it has no veil.
 */
static struct unveil_refusals *get_task_refusals(struct task_struct *const task)
{
	struct unveil_veil *const veil = get_task_veil(task);
	struct unveil_refusals *refusals = NULL;

	if (veil) {
		refusals = unveil_refusals_get(veil->refusals);
		unveil_veil_put(veil);
	}
	return refusals;
}

/*
 * What the veil of the process of @task learned, with a reference, or NULL
 * if it does not learn.
 */
static struct unveil_learned *get_task_learned(struct task_struct *const task)
{
	struct unveil_veil *const veil = get_task_veil(task);
	struct unveil_learned *learned = NULL;

	if (veil) {
		mutex_lock(&veil->lock);
		if (veil->learned)
			learned = unveil_learned_get(veil->learned);
		mutex_unlock(&veil->lock);
		unveil_veil_put(veil);
	}
	return learned;
}

/*
 * Whether the reader may see the veil of @task: it may read it as a
 * debugger would (PTRACE_MODE_READ), and so may whoever opened the file, so
 * that a descriptor passed to a more privileged reader shows nothing more.
 */
static bool may_read_veil(struct seq_file *const m,
			  struct task_struct *const task)
{
	const struct cred *const reader = override_creds(m->file->f_cred);
	bool allowed = ptrace_may_access(task, PTRACE_MODE_READ_FSCREDS);

	revert_creds(reader);
	return allowed && ptrace_may_access(task, PTRACE_MODE_READ_FSCREDS);
}

/*
 * Takes @task's exec_update_lock for reading and checks that the reader may
 * see its veil: 0 with the lock held, else an error without it.
 */
static int lock_readable_task(struct seq_file *const m,
			      struct task_struct *const task)
{
	int err;

	if (!unveil_initialized)
		return -EOPNOTSUPP;
	/* The same veil before and after the check: no execve() in between. */
	err = down_read_killable(&task->signal->exec_update_lock);
	if (err)
		return err;
	if (!may_read_veil(m, task)) {
		up_read(&task->signal->exec_update_lock);
		return -EACCES;
	}
	return 0;
}

/*
 * lock_readable_task(), and refuses a veiled reader: what it could read
 * would tell it which hidden files exist.
 */
static int lock_unveiled_reader(struct seq_file *const m,
				struct task_struct *const task)
{
	int err = lock_readable_task(m, task);

	if (!err && unveil_veil_is_active(unveil_current_veil())) {
		up_read(&task->signal->exec_update_lock);
		err = -EACCES;
	}
	return err;
}

/**
 * proc_pid_unveil_rules - Show the veil of a process
 * @m: The file being read.
 * @ns: Unused.
 * @pid: Unused.
 * @task: A thread of the process, with a reference held by procfs.
 *
 * Returns: 0, -EACCES if the reader may not inspect @task, -EOPNOTSUPP if
 * unveil is not enabled, or an error if a signal interrupted the wait for
 * an execve() of @task.
 */
int proc_pid_unveil_rules(struct seq_file *const m,
			  struct pid_namespace *const ns,
			  struct pid *const pid, struct task_struct *const task)
{
	struct unveil_ruleset *rules;
	bool locked, learning;
	int err;
	u32 d, n;

	err = lock_readable_task(m, task);
	if (err)
		return err;
	rules = get_task_rules(task, &locked, &learning);
	up_read(&task->signal->exec_update_lock);

	seq_printf(m, "veiled %s\nlocked %s\nlearning %s\n",
		   rules ? "yes" : "no", locked ? "yes" : "no",
		   learning ? "yes" : "no");
	/* Nothing changes a ruleset that a reader holds. */
	for (d = 0; rules && d < rules->num_ordered; d++) {
		const struct unveil_dir *const dir =
			&rules->dirs[rules->order[d]];
		const struct unveil_names *const names = dir->names;

		if (unveil_dir_is_dead(dir))
			continue;
		/* Inspectable entries are not rules. */
		if (dir->has_rule)
			unveil_seq_rule(m, dir->access, dir->shown->path,
					NULL, 0);
		for (n = 0; names && n < names->count; n++)
			if (names->entries[n].is_rule)
				unveil_seq_rule(m, names->entries[n].access,
						dir->shown->path,
						names->entries[n].name,
						names->entries[n].len);
	}
	unveil_ruleset_put(rules);
	return 0;
}

/**
 * proc_pid_unveil_refusals - Show the last refusals under a process's veil
 * @m: The file being read.
 * @ns: PID namespace of the procfs instance: PIDs are shown as seen there.
 * @pid: Unused.
 * @task: A thread of the process, with a reference held by procfs.
 *
 * Returns: 0, -EACCES if the reader is veiled or may not inspect @task,
 * -EOPNOTSUPP if unveil is not enabled, -ENOMEM, or an error if a signal
 * interrupted the wait for an execve() of @task.
 */
int proc_pid_unveil_refusals(struct seq_file *const m,
			     struct pid_namespace *const ns,
			     struct pid *const pid,
			     struct task_struct *const task)
{
	struct unveil_refusals *refusals;
	int err;

	err = lock_unveiled_reader(m, task);
	if (err)
		return err;
	refusals = get_task_refusals(task);
	up_read(&task->signal->exec_update_lock);
	err = unveil_refusals_show(m, ns, refusals);
	unveil_refusals_put(refusals);
	return err;
}

/**
 * proc_pid_unveil_learned - Show what a process's veil would have refused
 * @m: The file being read.
 * @ns: PID namespace of the procfs instance: PIDs are shown as seen there.
 * @pid: Unused.
 * @task: A thread of the process, with a reference held by procfs.
 *
 * Returns: 0, -EACCES if the reader is veiled or may not inspect @task,
 * -EOPNOTSUPP if unveil is not enabled, or an error if a signal
 * interrupted the wait for an execve() of @task.
 */
int proc_pid_unveil_learned(struct seq_file *const m,
			    struct pid_namespace *const ns,
			    struct pid *const pid,
			    struct task_struct *const task)
{
	struct unveil_learned *learned;
	int err;

	err = lock_unveiled_reader(m, task);
	if (err)
		return err;
	learned = get_task_learned(task);
	up_read(&task->signal->exec_update_lock);
	err = unveil_learned_show(m, ns, learned);
	unveil_learned_put(learned);
	return err;
}

/**
 * unveil_learn_write - Make the veil of the current process learn
 * @task: The process the file belongs to, with a reference held by procfs.
 * @buf: What the process writes: "1", with or without a newline.
 * @count: Bytes in @buf.
 * @ppos: Position in the file.
 *
 * Sets no_new_privs, as the first rule does: a set-user-ID program must not
 * run with a veil that only learns, nor have what it does recorded where
 * the process that ran it can read it.
 *
 * Returns: @count, -EACCES if @task is not a thread of the current process,
 * -EINVAL for anything but "1" at the start of the file, -EPERM if the
 * process has rules or a locked veil, -EOPNOTSUPP if unveil is not
 * enabled, -EFAULT, -ENOMEM, or -EINTR if a fatal signal came first.
 */
ssize_t unveil_learn_write(struct task_struct *const task,
			   const char __user *const buf, const size_t count,
			   loff_t *const ppos)
{
	char value[3] = {};
	int err;

	if (!unveil_initialized)
		return -EOPNOTSUPP;
	if (!same_thread_group(task, current))
		return -EACCES;
	if (*ppos || !count || count >= sizeof(value))
		return -EINVAL;
	if (copy_from_user(value, buf, count))
		return -EFAULT;
	if (strcmp(value, "1") && strcmp(value, "1\n"))
		return -EINVAL;

	err = unveil_current_veil_learn();
	return err ?: count;
}
