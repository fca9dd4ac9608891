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
 *
 * The last UNVEIL_REFUSALS denials are also kept, with no rate limit, in a
 * ring that the veil's owner reads from /proc/PID/attr/unveil/refusals:
 *
 *   refusals 2
 *   op=open needed=r held=- errno=2 pid=71 comm="cat" path="/etc/passwd"
 *   op=create needed=c held=r errno=13 pid=72 comm="sh" path="/srv/new"
 *
 * The first line counts every denial since the veil was made, the others are
 * the most recent ones, oldest first.  A process shares its ring with the
 * processes it forks (and they with theirs), so that a launcher can read
 * what the veil refused to a whole command.  The ring is allocated with the
 * veil; a denial only overwrites its oldest entry.
 */

#include <linux/audit.h>
#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/lsm_audit.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "access.h"
#include "common.h"
#include "learn.h"
#include "log.h"

static bool log_denials __read_mostly = true;
module_param(log_denials, bool, 0644);
MODULE_PARM_DESC(log_denials, "Log a line for each denial (rate-limited)");

/*
 * Quoted paths are cut to at most this many bytes, so that a line stays
 * within a kernel log record (1024 bytes) and keeps its newline.
 */
#define LOG_PATH_MAX	768

/*
 * Entries of a ring, and bytes of a quoted path in one (with its NUL): a
 * ring fits in 4 KiB.
 */
#define UNVEIL_REFUSALS		16
#define REFUSAL_PATH_MAX	152

static DEFINE_RATELIMIT_STATE(log_ratelimit, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);
/* Learning runs report a lot: they must not crowd out the denials. */
static DEFINE_RATELIMIT_STATE(learned_ratelimit, DEFAULT_RATELIMIT_INTERVAL,
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
	/** @path: The path as the reports show it. */
	const char *path;
	/** @learning: The veil only learns: the call goes on (learn.c). */
	bool learning;
};

/**
 * struct unveil_refusal - One denial, as a ring keeps it
 */
struct unveil_refusal {
	/** @op: Name of the operation; NULL for an entry never written. */
	const char *op;
	/** @pid: Counted reference to the thread group's PID. */
	struct pid *pid;
	/** @err: The error the call got, negative. */
	int err;
	/** @needed: Letters the operation needed. */
	char needed[UNVEIL_ACCESS_LETTERS_SIZE];
	/** @held: Letters of the nearest rule. */
	char held[UNVEIL_ACCESS_LETTERS_SIZE];
	/** @comm: The command name of the thread, quoted. */
	char comm[4 * TASK_COMM_LEN];
	/** @path: The path, quoted and cut to fit. */
	char path[REFUSAL_PATH_MAX];
};

/**
 * struct unveil_refusals - The most recent denials of a family of processes
 *
 * Allocated with a veil (charged to the memcg of the process that made it),
 * shared by the veils copied from it by fork(), freed with the last of them.
 */
struct unveil_refusals {
	/** @usage: Number of veils that point to this ring. */
	refcount_t usage;
	/**
	 * @lock: Protects @count and @entries; taken in process context,
	 * with nothing taken inside it.
	 */
	spinlock_t lock;
	/** @count: Denials recorded since the ring was made. */
	u64 count;
	/** @entries: Entry @count % UNVEIL_REFUSALS is written next. */
	struct unveil_refusal entries[UNVEIL_REFUSALS];
	/**
	 * @capabilities_reported: The capabilities reported already (see
	 * unveil_report_capability()); bits set atomically, never cleared.
	 */
	DECLARE_BITMAP(capabilities_reported, CAP_LAST_CAP + 1);
};

static_assert(sizeof(struct unveil_refusals) <= 4096);

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
	if (denial->learning)
		audit_log_format(ab, " learning=1");
	/* A file being created has no path yet: its directory's and name. */
	if (denial->audit.type == LSM_AUDIT_DATA_NONE && denial->path) {
		audit_log_format(ab, " path=");
		audit_log_untrustedstring(ab, denial->path);
	}
}

/*
 * Writes @text to @quoted (@max bytes) with unveil_must_escape() bytes as
 * \xHH, cut before an escape or byte that would take it past @max - 4
 * bytes and then ended with "...".
 */
static void quote_into(char *const quoted, const size_t max,
		       const char *const text)
{
	char *pos = quoted;
	const unsigned char *c;

	for (c = text; *c; c++) {
		const bool escape = unveil_must_escape(*c);

		if (pos - quoted + (escape ? 4 : 1) > max - 4) {
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
}

/* quote_into() a kmalloc()ed string of @max bytes; NULL if memory is short. */
static char *quote(const char *const text, const size_t max, const gfp_t gfp)
{
	char *const quoted = kmalloc(max, gfp);

	if (quoted)
		quote_into(quoted, max, text);
	return quoted;
}

/*
 * The command name of the current task in @comm, without the task lock
 * (as lsm_audit.c does): a report may come from under any lock, that one
 * included.
 */
static char *current_comm(char *const comm)
{
	memcpy(comm, current->comm, TASK_COMM_LEN);
	comm[TASK_COMM_LEN - 1] = '\0';
	return comm;
}

static void log_line(const struct denial *const denial, const gfp_t gfp)
{
	char comm[TASK_COMM_LEN], *quoted_comm, *quoted_path;

	quoted_path = quote(denial->path ?: "", LOG_PATH_MAX + 1, gfp);
	/* Room for every byte of a name escaped, and "...". */
	quoted_comm = quote(current_comm(comm), 4 * TASK_COMM_LEN + 4, gfp);
	pr_notice("%s op=%s needed=%s held=%s errno=%d pid=%d comm=\"%s\" path=\"%s\"\n",
		  denial->learning ? "learned" : "denied", denial->op,
		  denial->needed, denial->held, -denial->err,
		  task_tgid_nr(current), quoted_comm ?: "?", quoted_path ?: "?");
	kfree(quoted_comm);
	kfree(quoted_path);
}

/*
 * The path of @path in @buf (PATH_MAX bytes), or an error.  A file being
 * created (a negative dentry, not hashed yet) is shown as its directory's
 * path and its name: d_path() would add " (deleted)".
 */
static const char *shown_path(const struct path *const path, char *const buf)
{
	struct dentry *const dentry = path->dentry;
	const struct path dir = { .mnt = path->mnt, .dentry = dentry->d_parent };
	const int dir_room = PATH_MAX - NAME_MAX - 1;
	char *shown;

	if (!d_is_negative(dentry) || IS_ROOT(dentry))
		return d_path(path, buf, PATH_MAX);
	/* The directory's path ends at buf[dir_room - 1], the name after it. */
	shown = d_path(&dir, buf, dir_room);
	if (!IS_ERR(shown))
		snprintf(buf + dir_room - 1, PATH_MAX - dir_room + 1, "%s%pd",
			 strcmp(shown, "/") ? "/" : "", dentry);
	return shown;
}

static void record(struct unveil_refusals *const refusals,
		   const struct denial *const denial)
{
	struct unveil_refusal *entry;
	char comm[TASK_COMM_LEN];
	struct pid *old_pid;

	current_comm(comm);
	spin_lock(&refusals->lock);
	entry = &refusals->entries[refusals->count++ % UNVEIL_REFUSALS];
	old_pid = entry->pid;
	entry->op = denial->op;
	entry->pid = get_pid(task_tgid(current));
	entry->err = denial->err;
	memcpy(entry->needed, denial->needed, sizeof(entry->needed));
	memcpy(entry->held, denial->held, sizeof(entry->held));
	quote_into(entry->comm, sizeof(entry->comm), comm);
	quote_into(entry->path, sizeof(entry->path), denial->path ?: "");
	spin_unlock(&refusals->lock);
	put_pid(old_pid);
}

/**
 * unveil_refusals_alloc - Allocate an empty ring of denials
 *
 * Returns: A ring with one reference, or NULL if memory is short.
 */
struct unveil_refusals *unveil_refusals_alloc(void)
{
	struct unveil_refusals *refusals;

	refusals = kzalloc(sizeof(*refusals), GFP_KERNEL_ACCOUNT);
	if (!refusals)
		return NULL;
	refcount_set(&refusals->usage, 1);
	spin_lock_init(&refusals->lock);
	return refusals;
}

/**
 * unveil_refusals_get - Take a reference on a ring of denials
 * @refusals: Ring the caller holds a reference on.
 *
 * Returns: @refusals.
 */
struct unveil_refusals *unveil_refusals_get(struct unveil_refusals *refusals)
{
	refcount_inc(&refusals->usage);
	return refusals;
}

/**
 * unveil_refusals_put - Drop a reference on a ring of denials
 * @refusals: Ring, or NULL.
 *
 * Frees it with the last reference.
 */
void unveil_refusals_put(struct unveil_refusals *refusals)
{
	size_t i;

	if (!refusals || !refcount_dec_and_test(&refusals->usage))
		return;
	for (i = 0; i < UNVEIL_REFUSALS; i++)
		put_pid(refusals->entries[i].pid);
	kfree(refusals);
}

/**
 * unveil_refusals_show - Show a ring of denials
 * @m: The file being read.
 * @ns: PID namespace the reader sees PIDs in.
 * @refusals: Ring, or NULL for a process without a veil.
 *
 * Context: Process context.  Takes @refusals->lock.
 * Return: 0, or -ENOMEM.
 */
int unveil_refusals_show(struct seq_file *const m,
			 struct pid_namespace *const ns,
			 struct unveil_refusals *const refusals)
{
	struct unveil_refusal *entries, *entry;
	u64 count, i, first;

	if (!refusals) {
		seq_puts(m, "refusals 0\n");
		return 0;
	}
	/* A copy, so that seq_printf() runs without the lock. */
	entries = kmalloc(sizeof(refusals->entries), GFP_KERNEL);
	if (!entries)
		return -ENOMEM;
	spin_lock(&refusals->lock);
	count = refusals->count;
	memcpy(entries, refusals->entries, sizeof(refusals->entries));
	for (i = 0; i < UNVEIL_REFUSALS; i++)
		get_pid(entries[i].pid);
	spin_unlock(&refusals->lock);

	seq_printf(m, "refusals %llu\n", count);
	first = count > UNVEIL_REFUSALS ? count - UNVEIL_REFUSALS : 0;
	for (i = first; i < count; i++) {
		entry = &entries[i % UNVEIL_REFUSALS];
		seq_printf(m, "op=%s needed=%s held=%s errno=%d pid=%d comm=\"%s\" path=\"%s\"\n",
			   entry->op, entry->needed, entry->held, -entry->err,
			   pid_nr_ns(entry->pid, ns), entry->comm,
			   entry->path);
	}
	for (i = 0; i < UNVEIL_REFUSALS; i++)
		put_pid(entries[i].pid);
	kfree(entries);
	return 0;
}

/**
 * unveil_report_denial - Report a call that a veil refuses
 * @refusals: The ring of denials of the veil.
 * @learned: The set of a learning veil, which learns the call, or NULL.
 * @op: Name of the operation, such as "open".
 * @path: The object the operation was refused, or NULL if it concerns none.
 * @needed: Permissions the operation needed.
 * @held: Permissions the rule nearest to @path grants, 0 if it is hidden.
 * @err: The error for the process (negative), even if it only learns.
 *
 * Context: Process context that may sleep; without @path and @learned, any
 * task context.
 */
void unveil_report_denial(struct unveil_refusals *const refusals,
			  struct unveil_learned *const learned,
			  const char *const op, const struct path *const path,
			  const unveil_access_t needed,
			  const unveil_access_t held, const int err)
{
	struct denial denial = { .op = op, .err = err, .learning = !!learned };
	const bool may_sleep = path || learned;
	char *buf = NULL;

	might_sleep_if(may_sleep);
	unveil_format_access(needed, denial.needed);
	unveil_format_access(held, denial.held);
	if (path) {
		buf = __getname();
		denial.path = buf ? shown_path(path, buf) : ERR_PTR(-ENOMEM);
		if (IS_ERR(denial.path))
			denial.path = "?";
	}
	if (!WARN_ON_ONCE(!refusals))
		record(refusals, &denial);
	if (learned)
		unveil_learned_add(learned, op, denial.path ?: "", needed, held,
				   err);
	if (audit_enabled) {
		if (path && !d_is_negative(path->dentry)) {
			denial.audit.type = LSM_AUDIT_DATA_PATH;
			denial.audit.u.path = *path;
		} else {
			denial.audit.type = LSM_AUDIT_DATA_NONE;
		}
		common_lsm_audit(&denial.audit, audit_pre, audit_post);
	}
	if (READ_ONCE(log_denials) &&
	    ___ratelimit(learned ? &learned_ratelimit : &log_ratelimit,
			 UNVEIL_NAME))
		log_line(&denial, may_sleep ? GFP_KERNEL : GFP_NOWAIT);
	if (buf)
		__putname(buf);
}

/**
 * unveil_report_capability - Report a capability that a veil refuses, the
 * first time
 * @refusals: The ring of denials of the veil.
 * @cap: The capability.
 * @name: Its name as the reports show it, such as "cap_sys_admin".
 *
 * Programs ask for some capabilities over and over (listing the extended
 * attributes of each file on ext4 asks for CAP_SYS_ADMIN): each is reported
 * once for the family of processes that share @refusals, so that it does
 * not crowd out the denials of paths.
 *
 * Context: Task context with interrupts enabled, also atomic.
 */
void unveil_report_capability(struct unveil_refusals *const refusals,
			      const int cap, const char *const name)
{
	if (WARN_ON_ONCE(!cap_valid(cap)) ||
	    test_and_set_bit(cap, refusals->capabilities_reported))
		return;
	unveil_report_denial(refusals, NULL, name, NULL, 0, 0, -EPERM);
}
