// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Reporting denials
 *
 * Every file system denial gives an audit record while audit is enabled,
 * and a kernel log line unless the administrator turned them off with
 * unveil.log_denials=0 (boot) or /sys/module/unveil/parameters/log_denials.
 * The log lines are rate-limited, as a veiled process can cause denials as
 * fast as it likes; audit has its own rate limit and backlog.  Nothing here
 * runs unless a check already failed.  Refusals to act on another process
 * (task.c) are not reported: they are decided under task_lock(), where
 * nothing may sleep, and concern no path.
 */

#include <linux/audit.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/lsm_audit.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "access.h"
#include "common.h"
#include "log.h"

static bool log_denials __read_mostly = true;
module_param(log_denials, bool, 0644);
MODULE_PARM_DESC(log_denials, "Log a line for each denial (rate-limited)");

/*
 * Quoted paths are cut to at most this many bytes, so that a line stays
 * within a kernel log record (1024 bytes) and keeps its newline.
 */
#define LOG_PATH_MAX	768

static DEFINE_RATELIMIT_STATE(log_ratelimit, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

/**
 * struct denial - One denial, as the reports show it
 */
struct denial {
	/** @audit: What common_lsm_audit() reports: the process, the path. */
	struct common_audit_data audit;
	/** @op: Name of the operation. */
	const char *op;
	/** @needed: Letters the operation needed. */
	char needed[UNVEIL_ACCESS_LETTERS_SIZE];
	/** @held: Letters of the nearest rule ("-" for none, or if hidden). */
	char held[UNVEIL_ACCESS_LETTERS_SIZE];
	/** @err: The error the call got, negative. */
	int err;
};

static void audit_pre(struct audit_buffer *const ab, void *const data)
{
	const struct denial *const denial =
		container_of(data, struct denial, audit);

	audit_log_format(ab, "lsm=" UNVEIL_NAME " op=%s", denial->op);
}

static void audit_post(struct audit_buffer *const ab, void *const data)
{
	const struct denial *const denial =
		container_of(data, struct denial, audit);

	audit_log_format(ab, " needed=%s held=%s errno=%d", denial->needed,
			 denial->held, -denial->err);
}

/*
 * @text with every byte that could end the line early, fake a field or
 * reach a terminal (controls, quote, backslash, DEL and above) as \xHH,
 * cut before an escape or byte that would take it past @max - 3 bytes and
 * then ended with "...".  Returns a kmalloc()ed string, or NULL.
 */
static char *quote(const char *const text, const size_t max)
{
	char *const quoted = kmalloc(max + 1, GFP_KERNEL);
	char *pos = quoted;
	const unsigned char *c;

	if (!quoted)
		return NULL;
	for (c = text; *c; c++) {
		const bool escape = *c < ' ' || *c >= 0x7f || *c == '"' ||
				    *c == '\\';

		if (pos - quoted + (escape ? 4 : 1) > max - 3) {
			memcpy(pos, "...", 3);
			pos += 3;
			break;
		}
		if (escape)
			pos += sprintf(pos, "\\x%02x", *c);
		else
			*pos++ = *c;
	}
	*pos = '\0';
	return quoted;
}

static void log_line(const struct denial *const denial,
		     const struct path *const path)
{
	char comm[TASK_COMM_LEN], *buf = NULL, *quoted_comm, *quoted_path;
	const char *name = "";

	if (path) {
		buf = __getname();
		name = buf ? d_path(path, buf, PATH_MAX) : ERR_PTR(-ENOMEM);
		if (IS_ERR(name))
			name = "?";
	}
	quoted_path = quote(name, LOG_PATH_MAX);
	/* Room for every byte of a name escaped, and "...". */
	quoted_comm = quote(get_task_comm(comm, current), 4 * TASK_COMM_LEN);
	pr_notice("denied op=%s needed=%s held=%s errno=%d pid=%d comm=\"%s\" path=\"%s\"\n",
		  denial->op, denial->needed, denial->held, -denial->err,
		  task_tgid_nr(current), quoted_comm ?: "?",
		  quoted_path ?: "?");
	kfree(quoted_comm);
	kfree(quoted_path);
	if (buf)
		__putname(buf);
}

/**
 * unveil_log_denial - Report a denial
 * @op: Name of the operation, such as "open".
 * @path: The object the operation was refused, or NULL if it concerns none.
 * @needed: Permissions the operation needed.
 * @held: Permissions the rule nearest to @path grants, 0 if it is hidden.
 * @err: The error returned to the process (negative).
 *
 * Context: Process context that may sleep: every file system hook that
 * refuses something runs in one.
 */
void unveil_log_denial(const char *const op, const struct path *const path,
		       const unveil_access_t needed,
		       const unveil_access_t held, const int err)
{
	struct denial denial = { .op = op, .err = err };

	might_sleep();
	unveil_format_access(needed, denial.needed);
	unveil_format_access(held, denial.held);
	if (audit_enabled) {
		if (path) {
			denial.audit.type = LSM_AUDIT_DATA_PATH;
			denial.audit.u.path = *path;
		} else {
			denial.audit.type = LSM_AUDIT_DATA_NONE;
		}
		common_lsm_audit(&denial.audit, audit_pre, audit_post);
	}
	if (READ_ONCE(log_denials) && ___ratelimit(&log_ratelimit, UNVEIL_NAME))
		log_line(&denial, path);
}
