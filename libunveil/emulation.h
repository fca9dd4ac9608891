/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libunveil: unveil() kept in user space, for kernels without the unveil
 * security module (landlock.c).
 */

#ifndef _LIBUNVEIL_EMULATION_H
#define _LIBUNVEIL_EMULATION_H

#include <stdbool.h>

/*
 * unveil() with the system call's checks and errors, its rules kept in
 * this process until unveil(NULL, NULL), which makes them a Landlock
 * domain if @enforce, else only locks them.
 */
int unveil_emulated(const char *path, const char *permissions, bool enforce);

/* Whether unveil(NULL, NULL) has locked the emulated veil. */
bool unveil_emulated_locked(void);

/*
 * 0 if a Landlock domain would bind everything that acts for the process,
 * else -1 with errno EBUSY (see ties.c), or the error of reading /proc.
 */
int unveil_check_ties(void);

/* The Landlock ABI version of the running kernel, or 0 without Landlock. */
int unveil_landlock_abi(void);

#endif /* _LIBUNVEIL_EMULATION_H */
