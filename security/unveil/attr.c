// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Reading a veil back
 *
 * /proc/PID/attr/unveil/rules shows the veil of a process to the process
 * itself and to whoever may read it as a debugger would (PTRACE_MODE_READ):
 *
 *   veiled yes
 *   locked no
 *   rule rwc /tmp
 *   rule r /etc/passwd
 *
 * One "rule" line per rule, with its letters ("-" for none) and its path as
 * the process named it when it made the first rule in that directory.  In a
 * path, space, tab, newline and backslash are escaped in octal, as in
 * /proc/mounts.
 *
 * /proc/PID/attr/unveil/refusals shows, to the same readers, the last
 * denials under the veil (see log.c), unless the reader is veiled itself:
 * a hidden file that exists gets a refusal, one that does not exist gets
 * none, so a veiled process that read refusals, its own included (through
 * a descriptor opened before its veil), would learn what its veil hides.
 */

#include <linux/cred.h>
#include <linux/mutex.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/string_helpers.h>
#include <linux/unveil.h>

#include "access.h"
#include "log.h"
#include "ruleset.h"
#include "setup.h"
#include "task.h"
#include "veil.h"

static const char escaped[] = " \t\n\\";

static void show_rule(struct seq_file *const m, const unveil_access_t access,
		      const struct unveil_dir *const dir,
		      const struct unveil_name_rule *const name)
{
	const char *const path = dir->shown->path;
	const size_t dir_len = strlen(path);
	char letters[UNVEIL_ACCESS_LETTERS_SIZE];

	seq_printf(m, "rule %s ", unveil_format_access(access, letters));
	seq_escape(m, path, escaped);
	if (name) {
		if (!dir_len || path[dir_len - 1] != '/')
			seq_putc(m, '/');
		seq_escape_mem(m, name->name, name->len, ESCAPE_OCTAL, escaped);
	}
	seq_putc(m, '\n');
}

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
 * none), and whether they are locked.
 */
static struct unveil_ruleset *get_task_rules(struct task_struct *const task,
					     bool *const locked)
{
	struct unveil_veil *const veil = get_task_veil(task);
	struct unveil_ruleset *rules;

	*locked = false;
	if (!veil)
		return NULL;

	mutex_lock(&veil->lock);
	*locked = veil->locked;
	rules = rcu_dereference_protected(veil->rules,
					  lockdep_is_held(&veil->lock));
	if (rules)
		unveil_ruleset_get(rules);
	mutex_unlock(&veil->lock);
	unveil_veil_put(veil);
	return rules;
}

/*
 * The ring of denials of the process of @task with a reference, or NULL if
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
	bool locked;
	int err;
	u32 d, n;

	err = lock_readable_task(m, task);
	if (err)
		return err;
	rules = get_task_rules(task, &locked);
	up_read(&task->signal->exec_update_lock);

	seq_printf(m, "veiled %s\nlocked %s\n", rules ? "yes" : "no",
		   locked ? "yes" : "no");
	for (d = 0; rules && d < rules->num_dirs; d++) {
		const struct unveil_dir *const dir = &rules->dirs[d];

		if (unveil_dir_is_dead(dir))
			continue;
		/* Inspectable entries are not rules. */
		if (dir->has_rule)
			show_rule(m, dir->access, dir, NULL);
		for (n = 0; n < dir->num_names; n++)
			if (dir->names[n].is_rule)
				show_rule(m, dir->names[n].access, dir,
					  &dir->names[n]);
	}
	unveil_ruleset_put(rules);
	return 0;
}

/**
 * proc_pid_unveil_refusals - Show the last denials under a process's veil
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

	err = lock_readable_task(m, task);
	if (err)
		return err;
	if (unveil_veil_is_active(unveil_current_veil())) {
		up_read(&task->signal->exec_update_lock);
		return -EACCES;
	}
	refusals = get_task_refusals(task);
	up_read(&task->signal->exec_update_lock);
	err = unveil_refusals_show(m, ns, refusals);
	unveil_refusals_put(refusals);
	return err;
}
