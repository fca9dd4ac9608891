/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libunveil: OpenBSD's unveil() on every Linux kernel; see unveil(2).
 *
 *	#include <unveil.h>		(or <unistd.h>, with pkg-config's flags)
 *
 *	if (unveil("/var/www", "r") || unveil(NULL, NULL))
 *		err(1, "unveil");
 *
 * Build with $(pkg-config --cflags --libs unveil).  unveil() makes the
 * system call where the unveil security module is active, emulates it with
 * Landlock where that is, and else fails with ENOSYS, unless the program
 * (unveil_permit_unprotected()) or the user (UNVEIL_UNPROTECTED=1) chose
 * to run unprotected.  unveil_mode() tells which is in force.
 */

#ifndef _LIBUNVEIL_UNVEIL_H
#define _LIBUNVEIL_UNVEIL_H

#ifdef __cplusplus
extern "C" {
#endif

/* What unveil() does in this process; see unveil_mode(). */
enum unveil_mode {
	UNVEIL_MODE_NONE,		/* it fails with ENOSYS */
	UNVEIL_MODE_KERNEL,		/* the system call: exact */
	UNVEIL_MODE_LANDLOCK,		/* emulated with Landlock */
	UNVEIL_MODE_UNPROTECTED,	/* it succeeds and confines nothing */
};

/*
 * Reveals @path with @permissions ("rwxc"), or locks the veil when both are
 * NULL.  Returns 0, or -1 with errno set.
 */
int unveil(const char *path, const char *permissions);

/* Which of the modes above unveil() uses in this process. */
enum unveil_mode unveil_mode(void);

/* Its name: "kernel", "landlock", "unprotected" or "none". */
const char *unveil_mode_name(enum unveil_mode mode);

/*
 * On a kernel with neither unveil nor Landlock, lets unveil() succeed
 * without confining anything (it warns once on stderr) instead of failing
 * with ENOSYS.  Does nothing where either is available.
 */
void unveil_permit_unprotected(void);

/*
 * Returns 1 if unveil() can add rules now, else 0 with errno ENOSYS (no
 * mode) or EPERM (the veil is locked).  No side effect.
 */
int unveil_supported(void);

/* Returns 1 if the unveil security module is active, else 0 (ENOSYS). */
int unveil_active(void);

#ifdef __cplusplus
}
#endif

#endif /* _LIBUNVEIL_UNVEIL_H */
