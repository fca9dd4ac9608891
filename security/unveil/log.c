// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Reporting refusals
 *
 * Every call a veil refuses (or, learning, would refuse) gives an audit
 * record while audit is enabled, and a kernel log line unless the
 * administrator turned them off with unveil.log_refusals=0 (boot) or
 * /sys/module/unveil/parameters/log_refusals.  The log lines are
 * rate-limited, as a veiled process can cause refusals as fast as it
 * likes; audit has its own rate limit and backlog.  Nothing here runs
 * unless a check already failed.  Refusals to act on another process
 * (task.c) are not reported: they are decided under task_lock(), where
 * nothing may sleep, and concern no path.
 *
 * The last UNVEIL_REFUSALS refusals are also kept, with no rate limit, in a
 * ring that the veil's owner reads from /proc/PID/attr/unveil/refusals:
 *
 *   refusals 2
 *   op=open needed=r held=- errno=2 pid=71 comm="cat" path="/etc/passwd"
 *   op=create needed=c held=r errno=13 pid=72 comm="sh" path="/srv/new"
 *
 * The first line counts every refusal since the veil was made, the others
 * are the most recent ones, oldest first, written as every report writes a
 * refusal (record.c).  A process shares its ring with the processes it
 * forks (and they with theirs), so that a launcher can read what the veil
 * refused to a whole command.  The ring is allocated with the veil; a
 * refusal only overwrites its oldest entry.
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
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "common.h"
#include "log.h"
#include "record.h"

static bool log_refusals __read_mostly = true;
module_param(log_refusals, bool, 0644);
MODULE_PARM_DESC(log_refusals, "Log a line for each refusal (rate-limited)");

/*
 * A log line fits in a kernel log record (1024 bytes) with its newline: at
 * most LOG_PATH_MAX bytes of quoted path.  Without memory for it, the line
 * goes without its path, on the stack.
 */
#define LOG_LINE_MAX	1000
#define LOG_PATH_MAX	768
#define LOG_SHORT_LINE	224

/*
 * Entries of a ring, and bytes of a path in one (with its NUL): a ring fits
 * in 4 KiB.
 */
#define UNVEIL_REFUSALS		16
#define REFUSAL_PATH_MAX	192

static DEFINE_RATELIMIT_STATE(log_ratelimit, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);
/* Learning runs report a lot: they must not crowd out the refusals. */
static DEFINE_RATELIMIT_STATE(learned_ratelimit, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

/**
 * struct audited_refusal - A refusal, as common_lsm_audit() reports it
 */
struct audited_refusal {
	/** @audit: The process and the path. */
	struct common_audit_data audit;
	/** @record: The refusal. */
	const struct unveil_record *record;
	/** @learning: The veil only learns: the call goes on. */
	bool learning;
};

/**
 * struct unveil_refusal - One refusal, as a ring keeps it
 */
struct unveil_refusal {
	/** @kept: The call; its @op is NULL for an entry never written. */
	struct unveil_kept kept;
	/** @path_cut: @path is only the start of the path. */
	bool path_cut;
	/** @path: The path, cut to fit. */
	char path[REFUSAL_PATH_MAX];
};

/**
 * struct unveil_refusals - The most recent refusals to a family of processes
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
	/** @count: Refusals recorded since the ring was made. */
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
	const struct audited_refusal *const refusal =
		container_of(data, struct audited_refusal, audit);

	audit_log_format(ab, "lsm=" UNVEIL_NAME " op=%s", refusal->record->op);
}

static void audit_post(struct audit_buffer *const ab, void *const data)
{
	const struct audited_refusal *const refusal =
		container_of(data, struct audited_refusal, audit);
	const struct unveil_record *const record = refusal->record;
	char needed[UNVEIL_ACCESS_LETTERS_SIZE], held[UNVEIL_ACCESS_LETTERS_SIZE];

	audit_log_format(ab, " needed=%s held=%s errno=%d",
			 unveil_format_access(record->needed, needed),
			 unveil_format_access(record->held, held),
			 -record->err);
	if (refusal->learning)
		audit_log_format(ab, " learning=1");
	/* A file being created has no path yet: its directory's and name. */
	if (refusal->audit.type == LSM_AUDIT_DATA_NONE && *record->path) {
		audit_log_format(ab, " path=");
		audit_log_untrustedstring(ab, record->path);
	}
}

static void log_line(const struct unveil_record *const record,
		     const bool learning, const gfp_t gfp)
{
	char short_line[LOG_SHORT_LINE];
	char *const line = kmalloc(LOG_LINE_MAX, gfp);
	struct seq_buf s;

	if (line)
		seq_buf_init(&s, line, LOG_LINE_MAX);
	else
		seq_buf_init(&s, short_line, sizeof(short_line));
	unveil_write_record(&s, record, line ? LOG_PATH_MAX : 0);
	pr_notice("%s %s\n", learning ? "learned" : "refused", seq_buf_str(&s));
	kfree(line);
}

/**
 * unveil_shown_path - The path of a file as the reports show it
 * @path: The file.
 * @buf: Room for the path, PATH_MAX bytes.
 *
 * A file being created (a negative dentry, not hashed yet) is shown as its
 * directory's path and its name: d_path() would add " (deleted)".
 *
 * Return: The path, in @buf, or "?" if it does not fit.
 */
const char *unveil_shown_path(const struct path *const path, char *const buf)
{
	struct dentry *const dentry = path->dentry;
	const struct path dir = { .mnt = path->mnt, .dentry = dentry->d_parent };
	const int dir_room = PATH_MAX - NAME_MAX - 1;
	char *shown;

	if (!d_is_negative(dentry) || IS_ROOT(dentry)) {
		shown = d_path(path, buf, PATH_MAX);
		return IS_ERR(shown) ? "?" : shown;
	}
	/* The directory's path ends at buf[dir_room - 1], the name after it. */
	shown = d_path(&dir, buf, dir_room);
	if (IS_ERR(shown))
		return "?";
	snprintf(buf + dir_room - 1, PATH_MAX - dir_room + 1, "%s%pd",
		 strcmp(shown, "/") ? "/" : "", dentry);
	return shown;
}

static void keep_in_ring(struct unveil_refusals *const refusals,
			 const struct unveil_record *const record)
{
	struct unveil_refusal *entry;
	struct pid *old_pid;

	spin_lock(&refusals->lock);
	entry = &refusals->entries[refusals->count++ % UNVEIL_REFUSALS];
	old_pid = entry->kept.pid;
	unveil_keep(&entry->kept, record);
	entry->path_cut = strscpy(entry->path, record->path) < 0;
	spin_unlock(&refusals->lock);
	put_pid(old_pid);
}

/**
 * unveil_refusals_alloc - Allocate an empty ring of refusals
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
 * unveil_refusals_get - Take a reference on a ring of refusals
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
 * unveil_refusals_put - Drop a reference on a ring of refusals
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
		put_pid(refusals->entries[i].kept.pid);
	kfree(refusals);
}

/**
 * unveil_refusals_show - Show a ring of refusals
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
	/* A copy, so that the lines are written without the lock. */
	entries = kmalloc(sizeof(refusals->entries), GFP_KERNEL);
	if (!entries)
		return -ENOMEM;
	spin_lock(&refusals->lock);
	count = refusals->count;
	memcpy(entries, refusals->entries, sizeof(refusals->entries));
	for (i = 0; i < UNVEIL_REFUSALS; i++)
		get_pid(entries[i].kept.pid);
	spin_unlock(&refusals->lock);

	seq_printf(m, "refusals %llu\n", count);
	first = count > UNVEIL_REFUSALS ? count - UNVEIL_REFUSALS : 0;
	for (i = first; i < count; i++) {
		entry = &entries[i % UNVEIL_REFUSALS];
		unveil_seq_kept(m, ns, &entry->kept, entry->path,
				entry->path_cut);
	}
	for (i = 0; i < UNVEIL_REFUSALS; i++)
		put_pid(entries[i].kept.pid);
	kfree(entries);
	return 0;
}

/**
 * unveil_report_refusal - Report a call that a veil refuses
 * @refusals: The ring of refusals of the veil.
 * @record: The call, of the current process (unveil_record_current()).
 * @path: The file the call was refused, or NULL if it concerns none.
 * @learning: The veil only learns: the call goes on.
 *
 * Context: Process context that may sleep; without @path, any task
 * context.
 */
void unveil_report_refusal(struct unveil_refusals *const refusals,
			   const struct unveil_record *const record,
			   const struct path *const path, const bool learning)
{
	might_sleep_if(path);
	if (!WARN_ON_ONCE(!refusals))
		keep_in_ring(refusals, record);
	if (audit_enabled) {
		struct audited_refusal refusal = {
			.record = record,
			.learning = learning,
		};

		if (path && !d_is_negative(path->dentry)) {
			refusal.audit.type = LSM_AUDIT_DATA_PATH;
			refusal.audit.u.path = *path;
		} else {
			refusal.audit.type = LSM_AUDIT_DATA_NONE;
		}
		common_lsm_audit(&refusal.audit, audit_pre, audit_post);
	}
	if (READ_ONCE(log_refusals) &&
	    ___ratelimit(learning ? &learned_ratelimit : &log_ratelimit,
			 UNVEIL_NAME))
		log_line(record, learning, path ? GFP_KERNEL : GFP_NOWAIT);
}

/**
 * unveil_report_capability - Report a capability that a veil refuses, the
 * first time
 * @refusals: The ring of refusals of the veil.
 * @cap: The capability.
 * @name: Its name as the reports show it, such as "cap_sys_admin".
 *
 * Programs ask for some capabilities over and over (listing the extended
 * attributes of each file on ext4 asks for CAP_SYS_ADMIN): each is reported
 * once for the family of processes that share @refusals, so that it does
 * not crowd out the refusals of paths.
 *
 * Context: Task context with interrupts enabled, also atomic.
 */
void unveil_report_capability(struct unveil_refusals *const refusals,
			      const int cap, const char *const name)
{
	struct unveil_record record = {
		.op = name,
		.err = -EPERM,
		.path = "",
	};
	char comm[TASK_COMM_LEN];

	if (WARN_ON_ONCE(!cap_valid(cap)) ||
	    test_and_set_bit(cap, refusals->capabilities_reported))
		return;
	unveil_record_current(&record, comm);
	unveil_report_refusal(refusals, &record, NULL, false);
}
