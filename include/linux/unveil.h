/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - What the rest of the kernel calls
 */

#ifndef _LINUX_UNVEIL_H
#define _LINUX_UNVEIL_H

struct pid;
struct pid_namespace;
struct seq_file;
struct task_struct;

int proc_pid_unveil_rules(struct seq_file *m, struct pid_namespace *ns,
			  struct pid *pid, struct task_struct *task);
int proc_pid_unveil_refusals(struct seq_file *m, struct pid_namespace *ns,
			     struct pid *pid, struct task_struct *task);

#endif /* _LINUX_UNVEIL_H */
