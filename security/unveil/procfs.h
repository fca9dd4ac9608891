/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Directories of procfs, named the same in every instance
 */

#ifndef _SECURITY_UNVEIL_PROCFS_H
#define _SECURITY_UNVEIL_PROCFS_H

#include <linux/dcache.h>
#include <linux/magic.h>
#include <linux/pid.h>
#include <linux/types.h>

/**
 * struct unveil_proc_key - What a directory of procfs is, in any instance
 *
 * Set when its object is made, never changed, released with the object.
 */
struct unveil_proc_key {
	/**
	 * @process: For a directory of a process (/proc/PID and below): the
	 * process, that is the struct pid of its thread group, with a
	 * reference.  NULL elsewhere.
	 */
	struct pid *process;
	/**
	 * @path: The path below the process's directory, or below the root
	 * of procfs without @process: "" for that directory itself, else
	 * "/name" for each directory down to this one.  A thread's own
	 * directory (/proc/TID) is "/task/TID" of its process, and the
	 * number of a thread is its number in the initial PID namespace.
	 * NULL for an object on another file system.
	 */
	const char *path;
};

/**
 * struct unveil_proc_pos - Where in procfs a check is
 *
 * Found under RCU, valid under it.
 */
struct unveil_proc_pos {
	/** @process_dir: The directory of a process that the check is in, or NULL. */
	const struct dentry *process_dir;
	/** @process: The process of @process_dir, NULL if it is gone. */
	struct pid *process;
	/** @thread: With @process, the thread of @process_dir, 0 for the process itself. */
	pid_t thread;
	/** @ns: The PID namespace that the instance of procfs shows. */
	struct pid_namespace *ns;
};

static inline bool unveil_is_procfs(const struct dentry *const dentry)
{
	return dentry->d_sb->s_magic == PROC_SUPER_MAGIC;
}

int unveil_proc_key_init(struct unveil_proc_key *key, struct dentry *dir);
void unveil_proc_key_release(struct unveil_proc_key *key);

void unveil_proc_pos_init(struct unveil_proc_pos *pos,
			  const struct dentry *dentry);
bool unveil_proc_key_names(const struct unveil_proc_key *key,
			   const struct dentry *dir,
			   const struct unveil_proc_pos *pos);

#endif /* _SECURITY_UNVEIL_PROCFS_H */
