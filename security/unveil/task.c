// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Processes: fork, execve, exit, and acting on other processes
 *
 * Locking: execve() holds &signal_struct.cred_guard_mutex, under which a
 * veil is created and changed (see veil.c), so a veil never changes during
 * one.  The checks on other processes read veils under RCU without a lock.
 * The capability check reads only the current process's veil, without a
 * lock, and may run in atomic context.
 */

#include <linux/binfmts.h>
#include <linux/capability.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/io_uring.h>
#include <linux/lockdep.h>
#include <linux/lsm_hooks.h>
#include <linux/mm.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/string.h>

#include "common.h"
#include "log.h"
#include "procfs.h"
#include "setup.h"
#include "task.h"
#include "veil.h"

static int hook_task_alloc(struct task_struct *const task,
			   const unsigned long clone_flags)
{
	struct unveil_veil *const parent_veil = unveil_current_veil();
	struct unveil_veil *veil;

	if (!parent_veil)
		return 0;
	/*
	 * clone3() into a cgroup does what a write to its cgroup.procs does,
	 * through a descriptor that may be O_PATH: no rule judges it.  (A
	 * 32-bit kernel passes only the low half of the flags: there the
	 * flag never gets here.)
	 */
	if ((clone_flags & CLONE_INTO_CGROUP) &&
	    unveil_veil_is_active(parent_veil)) {
		const int err = unveil_refuse("clone_into_cgroup", NULL, 0, 0,
					      -EPERM);

		if (err)
			return err;
	}
	/* Threads find the veil of their process in its leader. */
	if (clone_flags & CLONE_THREAD)
		return 0;
	veil = unveil_veil_copy(parent_veil);
	if (!veil)
		return -ENOMEM;
	unveil_task(task)->veil = veil;
	return 0;
}

static void hook_task_free(struct task_struct *const task)
{
	unveil_veil_put(unveil_task(task)->veil);
}

/*
 * Called with cred_guard_mutex held, before the new program's credentials are
 * computed and before de_thread() makes the calling thread the leader.
 */
static int hook_bprm_creds_for_exec(struct linux_binprm *const bprm)
{
	struct unveil_task_security *const self = unveil_task(current);
	struct unveil_veil *const veil = unveil_current_veil();

	lockdep_assert_held(&current->signal->cred_guard_mutex);
	if (!veil)
		return 0;

	/* The veil stays across execve(): the thread becomes the leader. */
	if (!thread_group_leader(current) && self->veil != veil) {
		if (WARN_ON_ONCE(self->veil))
			unveil_veil_put(self->veil);
		unveil_veil_get(veil);
		self->veil = veil;
	}

	/*
	 * Also covers a thread cloned while unveil() or the start of learning
	 * (written under cred_guard_mutex too) set no_new_privs.
	 */
	if (unveil_veil_is_active(veil) || veil->learned) {
		task_set_no_new_privs(current);
		bprm->unsafe |= LSM_UNSAFE_NO_NEW_PRIVS;
	}
	return 0;
}

/*
 * A veiled process must not use another process to see or do what its own
 * veil forbids (ptrace, /proc/PID/mem, process_vm_writev(), pidfd_getfd()),
 * nor tie itself to one with PTRACE_TRACEME: if @veiled has a veil, @other
 * must be veiled at least as strictly.  Processes share a ruleset only
 * until one of them changes its rules (unveil() changes a shared ruleset in
 * a copy), so this is checked as "has the same rules, and is locked if
 * @veiled is":
 * the threads of a process, and children that did not change their rules
 * since fork(), qualify.  An unlocked child could otherwise be made to
 * unveil more for a locked parent.
 */
static int check_peer_veil(const struct task_struct *const veiled,
			   const struct task_struct *const other)
{
	struct unveil_veil *veil, *other_veil;
	int err = 0;

	rcu_read_lock();
	veil = unveil_task_veil(veiled);
	if (unveil_veil_is_active(veil)) {
		/* A released task's leader may be gone: treat it as unveiled. */
		other_veil = pid_alive(other) ? unveil_task_veil(other) : NULL;
		if (!other_veil || rcu_dereference(other_veil->rules) !=
				   rcu_dereference(veil->rules) ||
		    (READ_ONCE(veil->locked) && !READ_ONCE(other_veil->locked)))
			err = -EPERM;
	}
	rcu_read_unlock();
	return err;
}

/* Whether a thread of the current process traces another process. */
static bool traces_another_process(void)
{
	struct task_struct *thread;
	bool traces = false;

	read_lock(&tasklist_lock);
	for_each_thread(current, thread) {
		if (!list_empty(&thread->ptraced)) {
			traces = true;
			break;
		}
	}
	read_unlock(&tasklist_lock);
	return traces;
}

/*
 * Whether another process uses the memory or the descriptor table of the
 * current one: a child of clone(CLONE_VM or CLONE_FILES) without
 * CLONE_THREAD, or the parent of a vfork() child.  Every thread holds a
 * user of the memory, and a reader of /proc may hold one for a while: only
 * more users than threads, or a shared table, are worth the search.
 */
static bool shares_with_another_process(void)
{
	struct files_struct *const files = current->files;
	struct mm_struct *const mm = current->mm;
	struct task_struct *process, *thread;
	bool shares = false;

	if (atomic_read(&mm->mm_users) <= get_nr_threads(current) &&
	    atomic_read(&files->count) <= 1)
		return false;
	rcu_read_lock();
	for_each_process(process) {
		if (same_thread_group(process, current) ||
		    (process->flags & PF_KTHREAD))
			continue;
		for_each_thread(process, thread) {
			if (READ_ONCE(thread->mm) == mm ||
			    READ_ONCE(thread->files) == files) {
				shares = true;
				break;
			}
		}
		if (shares)
			break;
	}
	rcu_read_unlock();
	return shares;
}

/* Whether a thread of another process issues the requests of @file's ring. */
static bool is_ring_of_another_process(struct file *const file)
{
	const pid_t tgid = io_uring_sqpoll_tgid(file);

	return tgid && tgid != task_tgid_nr(current);
}

static bool maps_ring_of_another_process(void)
{
	struct mm_struct *const mm = current->mm;
	struct vm_area_struct *vma;
	struct vma_iterator vmi;
	bool maps = false;

	if (!IS_ENABLED(CONFIG_IO_URING))
		return false;
	mmap_read_lock(mm);
	vma_iter_init(&vmi, mm, 0);
	for_each_vma(vmi, vma) {
		if (vma->vm_file && is_ring_of_another_process(vma->vm_file)) {
			maps = true;
			break;
		}
	}
	mmap_read_unlock(mm);
	return maps;
}

/*
 * Whether @file is /proc/PID/mem (or a thread's) of another process: the
 * only file of procfs by that name that reads and writes with unsigned
 * offsets, and holds the memory it reaches.
 */
static bool is_memory_of_another_process(const struct file *const file)
{
	const struct dentry *const dentry = file->f_path.dentry;

	return unveil_is_procfs(dentry) &&
	       (file->f_op->fop_flags & FOP_UNSIGNED_OFFSET) &&
	       !strcmp(dentry->d_name.name, "mem") &&
	       file->private_data != current->mm;
}

static int holds_memory_of_another_process(const void *const unused,
					   struct file *const file,
					   const unsigned int fd)
{
	return is_memory_of_another_process(file);
}

/**
 * unveil_current_is_tied - Tell whether the current process can act as
 * another one
 *
 * What a process set up before its veil stays: its open descriptors, and
 * also its ways to act as another process, which would then act under
 * another veil or none.  It may trace one, share its memory or its
 * descriptors with one, map an io_uring SQPOLL ring whose thread is
 * another process's (the thread issues what the process writes in the
 * ring), or hold another process's /proc/PID/mem open.  While it does, its
 * veil may not be made, changed or locked.  After the veil, the hooks
 * below and check_peer_veil() refuse new ties to a process that is not
 * veiled at least as strictly.  Only the process itself makes or changes
 * its veil, so until it is locked, a thread that ties the process in the
 * meantime could as well have unveiled what it wanted.
 *
 * Return: True if the current process holds such a tie.
 */
bool unveil_current_is_tied(void)
{
	return traces_another_process() || shares_with_another_process() ||
	       maps_ring_of_another_process() ||
	       iterate_fd(current->files, 0, holds_memory_of_another_process,
			  NULL);
}

/*
 * Called with @child's task_lock() held.  Besides check_peer_veil(): a
 * process that is not dumpable, such as one that runs a program the veil
 * lets it run but not read (see fs.c), is out of reach of a veiled one,
 * CAP_SYS_PTRACE notwithstanding.
 */
static int hook_ptrace_access_check(struct task_struct *const child,
				    const unsigned int mode)
{
	const int err = check_peer_veil(current, child);

	if (err || !child->mm || get_dumpable(child->mm) == SUID_DUMP_USER ||
	    !unveil_veil_is_active(unveil_current_veil()))
		return err;
	return -EPERM;
}

static int hook_ptrace_traceme(struct task_struct *const parent)
{
	return check_peer_veil(current, parent);
}

/*
 * Capabilities that reach files, or the kernel itself, around every path a
 * veil judges, named as reports show them; NULL for any other.  They
 * mount and enter namespaces (where other mounts show other files), use
 * file handles, file-system ioctls and quota files, load modules and BPF or
 * perf programs that read any memory, do raw I/O, make device nodes and
 * boot another kernel; they set up the kernel's own services that open
 * files by paths their caller chose, in kernel threads that no veil judges
 * (CAP_NET_ADMIN: the ksmbd file server's shares, DRBD's backing devices,
 * the pinned BPF programs of iptables' bpf match); or they read what the
 * kernel records of every file (audit watches and records, the kernel log
 * with its refusals) and turn those records off.  The capabilities that
 * only override owners and modes (CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_CHOWN,
 * ...) keep their meaning: the veil is checked besides them.
 */
static const char *refused_capability(const int cap)
{
	switch (cap) {
	case CAP_SYS_ADMIN:
		return "cap_sys_admin";
	case CAP_SYS_MODULE:
		return "cap_sys_module";
	case CAP_SYS_RAWIO:
		return "cap_sys_rawio";
	case CAP_SYS_BOOT:
		return "cap_sys_boot";
	case CAP_BPF:
		return "cap_bpf";
	case CAP_PERFMON:
		return "cap_perfmon";
	case CAP_MKNOD:
		return "cap_mknod";
	case CAP_NET_ADMIN:
		return "cap_net_admin";
	case CAP_AUDIT_CONTROL:
		return "cap_audit_control";
	case CAP_AUDIT_READ:
		return "cap_audit_read";
	case CAP_SYSLOG:
		return "cap_syslog";
	default:
		return NULL;
	}
}

/*
 * A veiled process has none of the capabilities refused_capability()
 * names, in any user namespace, when it uses its own credentials.  The
 * credentials the kernel chose for work of its own are not its: an overlay
 * copying a file up with its mounter's (and reading its trusted.* xattrs),
 * or faccessat() with its own, changed to check for the real user (an
 * io_uring personality of other credentials is refused: see below).
 * Outside task context, current is not the one asking.  Probes
 * (CAP_OPT_NOAUDIT) are refused without a report, as audit would not report
 * them either, and so are checks made with interrupts disabled, under locks
 * that interrupts take (the report takes locks of its own).
 */
static int hook_capable(const struct cred *const cred,
			struct user_namespace *const ns, const int cap,
			const unsigned int opts)
{
	struct unveil_veil *veil;
	const char *name;

	if (!unveil_used_anywhere())
		return 0;
	name = refused_capability(cap);
	if (!name || !in_task() || cred != current_real_cred())
		return 0;
	veil = unveil_current_veil();
	if (!unveil_veil_is_active(veil))
		return 0;
	if (!(opts & CAP_OPT_NOAUDIT) && !irqs_disabled())
		unveil_report_capability(veil->refusals, cap, name);
	return -EPERM;
}

/*
 * The thread of another process's io_uring SQPOLL ring issues the requests
 * that a process writes in the ring's memory: a veiled process maps such a
 * ring only if that process is veiled at least as strictly.
 */
static int hook_mmap_file(struct file *const file, const unsigned long reqprot,
			  const unsigned long prot, const unsigned long flags)
{
	struct task_struct *maker;
	pid_t tgid;
	int err;

	if (!unveil_used_anywhere() || !file ||
	    !unveil_veil_is_active(unveil_current_veil()))
		return 0;
	tgid = io_uring_sqpoll_tgid(file);
	if (!tgid || tgid == task_tgid_nr(current))
		return 0;
	rcu_read_lock();
	maker = find_task_by_pid_ns(tgid, &init_pid_ns);
	err = maker ? check_peer_veil(current, maker) : -EPERM;
	rcu_read_unlock();
	if (!err)
		return 0;
	return unveil_refuse("mmap_sqpoll_ring", NULL, 0, 0, -EPERM);
}

/*
 * Another process's /proc/PID/mem reads and writes its memory with no
 * further check: a veiled process may not receive one (SCM_RIGHTS,
 * pidfd_getfd()), as it may not open one of a process that is not veiled
 * at least as strictly.
 */
static int hook_file_receive(struct file *const file)
{
	if (!unveil_used_anywhere() || !is_memory_of_another_process(file) ||
	    !unveil_veil_is_active(unveil_current_veil()))
		return 0;
	return unveil_refuse("receive_process_memory", NULL, 0, 0, -EPERM);
}

#ifdef CONFIG_IO_URING
/*
 * A personality runs an io_uring request with the credentials the process
 * had when it registered them.  hook_capable() judges only the process's
 * own, so a veiled process may use only a personality that holds those:
 * one from before it changed its credentials (dropped a capability, or
 * changed its user) would be a way past the refused capabilities.
 */
static int hook_uring_override_creds(const struct cred *const new)
{
	if (!unveil_used_anywhere() || new == current_real_cred() ||
	    !unveil_veil_is_active(unveil_current_veil()))
		return 0;
	return unveil_refuse("io_uring_personality", NULL, 0, 0, -EPERM);
}
#endif /* CONFIG_IO_URING */

static struct security_hook_list unveil_task_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(task_alloc, hook_task_alloc),
	LSM_HOOK_INIT(task_free, hook_task_free),
	LSM_HOOK_INIT(bprm_creds_for_exec, hook_bprm_creds_for_exec),
	LSM_HOOK_INIT(ptrace_access_check, hook_ptrace_access_check),
	LSM_HOOK_INIT(ptrace_traceme, hook_ptrace_traceme),
	LSM_HOOK_INIT(capable, hook_capable),
	LSM_HOOK_INIT(mmap_file, hook_mmap_file),
	LSM_HOOK_INIT(file_receive, hook_file_receive),
#ifdef CONFIG_IO_URING
	LSM_HOOK_INIT(uring_override_creds, hook_uring_override_creds),
#endif
};

/**
 * unveil_add_task_hooks - Register the process life cycle hooks
 */
__init void unveil_add_task_hooks(void)
{
	security_add_hooks_disabled(unveil_task_hooks,
				    ARRAY_SIZE(unveil_task_hooks), &unveil_lsmid);
}
