/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - The text of reports and of /proc/PID/attr/unveil/
 */

#ifndef _SECURITY_UNVEIL_RECORD_H
#define _SECURITY_UNVEIL_RECORD_H

#include <linux/sched.h>
#include <linux/types.h>

#include "access.h"

struct pid;
struct pid_namespace;
struct seq_buf;
struct seq_file;

/**
 * struct unveil_record - A refused call, as every report writes it
 *
 * Filled in by the caller for the time of one write; every pointer is
 * borrowed.
 */
struct unveil_record {
	/** @op: Name of the operation, such as "open". */
	const char *op;
	/** @needed: Permissions the call needed. */
	unveil_access_t needed;
	/** @held: Permissions of the rule nearest to @path, 0 if hidden. */
	unveil_access_t held;
	/** @err: The error the call got or would have got, negative. */
	int err;
	/** @pid: The process, as the reader sees it (0 where it cannot). */
	pid_t pid;
	/** @comm: The command name of the thread that made the call. */
	const char *comm;
	/** @path: The path, "" for a call that concerns none. */
	const char *path;
	/** @path_cut: @path is only the start of the path. */
	bool path_cut;
};

/**
 * struct unveil_kept - A refused call as a ring or a learned set keeps it
 *
 * Everything of a &struct unveil_record but its path, which the keeper
 * holds as it can.  Filled in by unveil_keep(); @pid is put by the keeper.
 */
struct unveil_kept {
	/** @op: Name of the operation, a string constant. */
	const char *op;
	/** @pid: Counted reference to the caller's thread group PID. */
	struct pid *pid;
	/** @err: The error the call got or would have got, negative. */
	int err;
	/** @needed: Permissions the call needed. */
	unveil_access_t needed;
	/** @held: Permissions of the rule nearest to the path. */
	unveil_access_t held;
	/** @comm: The command name of the thread that made the call. */
	char comm[TASK_COMM_LEN];
};

void unveil_record_current(struct unveil_record *record,
			   char comm[TASK_COMM_LEN]);
void unveil_keep(struct unveil_kept *kept, const struct unveil_record *record);
void unveil_seq_kept(struct seq_file *m, struct pid_namespace *ns,
		     const struct unveil_kept *kept, const char *path,
		     bool path_cut);
void unveil_write_record(struct seq_buf *s,
			 const struct unveil_record *record, size_t path_max);
void unveil_seq_record(struct seq_file *m, const struct unveil_record *record);
void unveil_seq_rule(struct seq_file *m, unveil_access_t access,
		     const char *dir, const char *name, size_t name_len);

#endif /* _SECURITY_UNVEIL_RECORD_H */
