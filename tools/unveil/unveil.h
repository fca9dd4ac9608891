/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * unveil(2) for C programs, with glibc or musl: see unveil(2).
 *
 *	#include <unveil.h>
 *
 *	if (unveil("/var/www", "r") || unveil(NULL, NULL))
 *		err(1, "unveil");
 *
 * syscall(2) must be declared: that is the default, but strict standard modes
 * (-std=c11) need _DEFAULT_SOURCE or _GNU_SOURCE.  The permission letters are
 * in <linux/unveil.h>.
 *
 * unveil(2) is not in mainline Linux, so its number is not reserved: mainline
 * 6.13 and later give 463 to setxattrat(2).  unveil() therefore asks the
 * kernel first, with lsm_list_modules(2), whether the unveil security module
 * is active, and fails with ENOSYS without making the call when it is not.
 */

#ifndef _UNVEIL_H
#define _UNVEIL_H

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Older system headers: the numbers in the x86 and generic syscall tables. */
#if defined(__x86_64__) && defined(__ILP32__)
#define __UNVEIL_NR(n) (0x40000000 + (n))	/* x32 */
#elif defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || \
	defined(__riscv) || defined(__loongarch__) || defined(__arm__) || \
	defined(__powerpc__) || defined(__s390__)
#define __UNVEIL_NR(n) (n)
#elif defined(__alpha__)
#define __UNVEIL_NR(n) ((n) + 110)
#else
#error "unveil(2): no system call number known for this architecture"
#endif
#ifndef __NR_unveil
#define __NR_unveil __UNVEIL_NR(463)
#endif
#ifndef __NR_lsm_list_modules
#define __NR_lsm_list_modules __UNVEIL_NR(461)
#endif
#ifndef LSM_ID_UNVEIL
#define LSM_ID_UNVEIL 114
#endif

/*
 * Returns 1 if the running kernel lists the unveil security module as
 * active, else 0 with errno ENOSYS.  Kernels before 6.8 have no
 * lsm_list_modules(2) and no unveil.
 */
static inline int unveil_active(void)
{
	enum { MAX_LSMS = 64 };
	uint64_t ids[MAX_LSMS];
	uint32_t size = sizeof(ids);
	long i, n;

	n = syscall(__NR_lsm_list_modules, ids, &size, 0);
	for (i = 0; i < n && i < MAX_LSMS; i++)
		if (ids[i] == LSM_ID_UNVEIL)
			return 1;
	errno = ENOSYS;
	return 0;
}

/*
 * Reveals @path with @permissions ("rwxc"), or locks the veil when both are
 * NULL.  Returns 0, or -1 with errno set; ENOSYS when unveil is not active.
 */
static inline int unveil(const char *path, const char *permissions)
{
	if (!unveil_active())
		return -1;
	return syscall(__NR_unveil, path, permissions);
}

/*
 * Returns 1 if unveil() can add rules now, else 0 with errno ENOSYS (unveil
 * is not active: not built in, or not enabled at boot) or EPERM (the veil
 * is locked).  No side effect: a permission string of five characters
 * fails with ENAMETOOLONG after those checks, before the path is looked at.
 */
static inline int unveil_supported(void)
{
	return unveil("", "rrrrr") == -1 && errno == ENAMETOOLONG;
}

#endif /* _UNVEIL_H */
