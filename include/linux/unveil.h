/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - What the rest of the kernel calls
 */

#ifndef _LINUX_UNVEIL_H
#define _LINUX_UNVEIL_H

#include <linux/compiler_types.h>
#include <linux/types.h>

struct pid;
struct pid_namespace;
struct seq_file;
struct task_struct;

int proc_pid_unveil_rules(struct seq_file *m, struct pid_namespace *ns,
			  struct pid *pid, struct task_struct *task);
int proc_pid_unveil_refusals(struct seq_file *m, struct pid_namespace *ns,
			     struct pid *pid, struct task_struct *task);
int proc_pid_unveil_learned(struct seq_file *m, struct pid_namespace *ns,
			    struct pid *pid, struct task_struct *task);
ssize_t unveil_learn_write(struct task_struct *task, const char __user *buf,
			   size_t count, loff_t *ppos);

#endif /* _LINUX_UNVEIL_H */
