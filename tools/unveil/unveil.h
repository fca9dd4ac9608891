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
 */

#ifndef _UNVEIL_H
#define _UNVEIL_H

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Older system headers: the number in the x86 and generic syscall tables. */
#ifndef __NR_unveil
#if defined(__x86_64__) && defined(__ILP32__)
#define __NR_unveil (0x40000000 + 463)	/* x32 */
#elif defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || \
	defined(__riscv) || defined(__loongarch__)
#define __NR_unveil 463
#else
#error "unveil(2): no system call number known for this architecture"
#endif
#endif

/*
 * Reveals @path with @permissions ("rwxc"), or locks the veil when both are
 * NULL.  Returns 0, or -1 with errno set.
 */
static inline int unveil(const char *path, const char *permissions)
{
	return syscall(__NR_unveil, path, permissions);
}

/*
 * Returns 1 if unveil() can add rules now, else 0 with errno ENOSYS (the
 * kernel has no unveil), EOPNOTSUPP (built in, not enabled at boot) or EPERM
 * (the veil is locked).  No side effect: a permission string of five
 * characters fails with ENAMETOOLONG after those checks, before the path is
 * looked at.  Another errno means the number belongs to another system call
 * (mainline Linux 6.13 gave 463 to setxattrat).
 */
static inline int unveil_supported(void)
{
	return unveil("", "rrrrr") == -1 && errno == ENAMETOOLONG;
}

#endif /* _UNVEIL_H */
