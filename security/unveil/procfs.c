// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Directories of procfs, named the same in every instance
 *
 * procfs shows a process in many directories: /proc/PID, /proc/TID for
 * each of its threads (which readdir does not list, but a lookup finds),
 * and all of them again in every other instance of procfs, each directory
 * with an inode of its own.  A rule tied to one inode would hold there
 * only, and a process hidden in /proc would show through /proc/TID or
 * through another mount of procfs.  So an object on procfs also keeps a key
 * (struct unveil_proc_key): the process, and the path below its directory,
 * or the path below the root of procfs for what is no process's.  Checks
 * in procfs find rules by key (see find_match_proc() in fs.c): for rules,
 * every instance of procfs is one tree, in which each process has one
 * directory, whatever thread or namespace names it.
 */

#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/threads.h>

#include "procfs.h"

/* Longest "/task/%d". */
#define TASK_NR_MAX (sizeof("/task/") + 11)

/* The name of @dentry, under RCU. */
static const char *name_of(const struct dentry *const dentry)
{
	/*
	 * Read once, as in dentry_cmp(), it ends with a NUL whatever a
	 * rename does meanwhile (none does on procfs).
	 */
	return smp_load_acquire(&dentry->d_name.name);
}

/* A name of procfs that is a PID in the instance's namespace. */
static bool parse_nr(const char *const name, pid_t *const nr)
{
	unsigned int n;

	if (kstrtouint(name, 10, &n) || !n || n > PID_MAX_LIMIT)
		return false;
	*nr = n;
	return true;
}

/*
 * The process whose directory is named @name in an instance of procfs that
 * shows @ns, and in @thread the number of the thread it is the directory
 * of (in the initial namespace), or 0 for the process's own.  Returns NULL
 * if there is no such process.  The caller holds rcu_read_lock().
 */
static struct pid *process_of(const char *const name,
			      struct pid_namespace *const ns,
			      pid_t *const thread)
{
	struct task_struct *task;
	struct pid *pid, *process;
	pid_t nr;

	if (!parse_nr(name, &nr))
		return NULL;
	pid = find_pid_ns(nr, ns);
	task = pid ? pid_task(pid, PIDTYPE_PID) : NULL;
	if (!task)
		return NULL;
	process = task_tgid(task);
	*thread = pid == process ? 0 : pid_nr(pid);
	return process;
}

/*
 * The number, in the initial namespace, of the thread that a directory of
 * a process's task/ directory shows; 0 if there is none.  The caller holds
 * rcu_read_lock().
 */
static pid_t thread_nr(const char *const name, struct pid_namespace *const ns)
{
	pid_t nr;

	return parse_nr(name, &nr) ? pid_nr(find_pid_ns(nr, ns)) : 0;
}

/**
 * unveil_proc_key_init - Find the key of a directory of procfs
 * @key: Empty key to fill.
 * @dir: A directory of procfs, on a path the caller holds.
 *
 * Return: 0, -ENAMETOOLONG or -ENOMEM.
 */
int unveil_proc_key_init(struct unveil_proc_key *const key,
			 struct dentry *const dir)
{
	struct pid_namespace *const ns = proc_pid_ns(dir->d_sb);
	char *const buf = __getname();
	char *const out = kmalloc(PATH_MAX, GFP_KERNEL_ACCOUNT);
	char *cursor, *name;
	bool first = true, in_task = false;
	size_t len = 0;
	int err = 0;

	if (!buf || !out) {
		err = -ENOMEM;
		goto out;
	}
	cursor = dentry_path_raw(dir, buf, PATH_MAX);
	if (IS_ERR(cursor)) {
		err = PTR_ERR(cursor);
		goto out;
	}
	out[0] = '\0';
	while ((name = strsep(&cursor, "/"))) {
		pid_t thread = 0;

		if (!*name)
			continue;
		if (first) {
			first = false;
			rcu_read_lock();
			key->process = get_pid(process_of(name, ns, &thread));
			rcu_read_unlock();
			if (key->process) {
				if (thread)
					len += scnprintf(out + len, PATH_MAX - len,
							 "/task/%d", thread);
				continue;
			}
		} else if (in_task) {
			in_task = false;
			rcu_read_lock();
			thread = thread_nr(name, ns);
			rcu_read_unlock();
			len += scnprintf(out + len, PATH_MAX - len, "/%d", thread);
			continue;
		}
		len += scnprintf(out + len, PATH_MAX - len, "/%s", name);
		in_task = key->process && !strcmp(name, "task");
	}
	if (len >= PATH_MAX - 1) {
		err = -ENAMETOOLONG;
		goto out;
	}
	key->path = kstrdup(out, GFP_KERNEL_ACCOUNT);
	if (!key->path)
		err = -ENOMEM;
out:
	if (err)
		unveil_proc_key_release(key);
	kfree(out);
	if (buf)
		__putname(buf);
	return err;
}

/**
 * unveil_proc_key_release - Drop what a key holds
 * @key: Key filled by unveil_proc_key_init(), or empty.
 *
 * The caller makes sure that no check reads it any more.
 */
void unveil_proc_key_release(struct unveil_proc_key *const key)
{
	put_pid(key->process);
	kfree(key->path);
	*key = (struct unveil_proc_key){};
}

/**
 * unveil_proc_pos_init - Find the process directory that a check is in
 * @pos: Position to fill.
 * @dentry: The object of the check, on procfs.
 *
 * Context: Under rcu_read_lock().
 */
void unveil_proc_pos_init(struct unveil_proc_pos *const pos,
			  const struct dentry *const dentry)
{
	const struct dentry *dir = dentry, *parent;

	*pos = (struct unveil_proc_pos){ .ns = proc_pid_ns(dentry->d_sb) };
	for (;;) {
		parent = READ_ONCE(dir->d_parent);
		/* The root of procfs. */
		if (parent == dir)
			return;
		if (READ_ONCE(parent->d_parent) == parent)
			break;
		dir = parent;
	}
	pos->process_dir = dir;
	pos->process = process_of(name_of(dir), pos->ns, &pos->thread);
}

/* Whether @path, @end bytes, is where @pos's process directory stands. */
static bool names_process_dir(const char *const path, const size_t end,
			      const struct unveil_proc_pos *const pos)
{
	char task[TASK_NR_MAX];

	if (!pos->thread)
		return !end;
	return end == scnprintf(task, sizeof(task), "/task/%d", pos->thread) &&
	       !memcmp(path, task, end);
}

/**
 * unveil_proc_key_names - Whether a key names a directory of procfs
 * @key: Key of an object.
 * @dir: A directory of procfs, the object of a check or one of its
 *       ancestors.
 * @pos: Where the check is, from unveil_proc_pos_init().
 *
 * Context: Under rcu_read_lock().  A rename (none on procfs) or a change of
 * the process's threads may race: the walk's rename_lock sequence, and the
 * process's directory going away, settle it as they do for every check.
 * Return: true if @key is that of @dir, in whatever instance of procfs.
 */
bool unveil_proc_key_names(const struct unveil_proc_key *const key,
			   const struct dentry *dir,
			   const struct unveil_proc_pos *const pos)
{
	size_t end = strlen(key->path);
	char nr[TASK_NR_MAX];

	for (;;) {
		const struct dentry *const parent = READ_ONCE(dir->d_parent);
		const char *name;
		size_t len;

		if (dir == pos->process_dir && pos->process)
			return key->process == pos->process &&
			       names_process_dir(key->path, end, pos);
		if (parent == dir)
			return !key->process && !end;
		name = name_of(dir);
		/* A thread, in the namespace of @key's numbers. */
		if (pos->process &&
		    !strcmp(name_of(parent), "task")) {
			const pid_t thread = thread_nr(name, pos->ns);

			if (!thread)
				return false;
			scnprintf(nr, sizeof(nr), "%d", thread);
			name = nr;
		}
		len = strlen(name);
		if (end < len + 1 || key->path[end - len - 1] != '/' ||
		    memcmp(key->path + end - len, name, len))
			return false;
		end -= len + 1;
		dir = parent;
	}
}
