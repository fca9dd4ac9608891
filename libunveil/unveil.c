// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libunveil: which unveil() this process gets, and the system call.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unveil.h"
#include "emulation.h"

/* The kernel's own wrappers (tools/unveil/unveil.h), under other names. */
#define unveil unveil_system_call
#define unveil_active unveil_module_active
#define unveil_supported unveil_system_call_supported
#include "../tools/unveil/unveil.h"
#undef unveil
#undef unveil_active
#undef unveil_supported

/* What the shared library exports: the functions of <unveil.h>. */
#define PUBLIC __attribute__((visibility("default")))

/* Set once, by the first call that needs it; the same in every thread. */
static int mode = -1;
static bool unprotected_permitted, warned;

static bool unprotected_asked(void)
{
	const char *env = secure_getenv("UNVEIL_UNPROTECTED");

	return __atomic_load_n(&unprotected_permitted, __ATOMIC_RELAXED) ||
	       (env && !strcmp(env, "1"));
}

PUBLIC enum unveil_mode unveil_mode(void)
{
	int found = __atomic_load_n(&mode, __ATOMIC_RELAXED);

	if (found != -1)
		return found;
	if (unveil_module_active())
		found = UNVEIL_MODE_KERNEL;
	else if (unveil_landlock_abi())
		found = UNVEIL_MODE_LANDLOCK;
	else if (unprotected_asked())
		found = UNVEIL_MODE_UNPROTECTED;
	else
		return UNVEIL_MODE_NONE;
	__atomic_store_n(&mode, found, __ATOMIC_RELAXED);
	return found;
}

PUBLIC const char *unveil_mode_name(enum unveil_mode which)
{
	switch (which) {
	case UNVEIL_MODE_KERNEL:
		return "kernel";
	case UNVEIL_MODE_LANDLOCK:
		return "landlock";
	case UNVEIL_MODE_UNPROTECTED:
		return "unprotected";
	default:
		return "none";
	}
}

PUBLIC void unveil_permit_unprotected(void)
{
	__atomic_store_n(&unprotected_permitted, true, __ATOMIC_RELAXED);
}

PUBLIC int unveil(const char *path, const char *permissions)
{
	switch (unveil_mode()) {
	case UNVEIL_MODE_KERNEL:
		return unveil_system_call(path, permissions);
	case UNVEIL_MODE_LANDLOCK:
		return unveil_emulated(path, permissions, true);
	case UNVEIL_MODE_UNPROTECTED:
		if (!__atomic_exchange_n(&warned, true, __ATOMIC_RELAXED))
			fputs("unveil: this kernel has neither unveil nor Landlock: running unprotected, as asked\n",
			      stderr);
		return unveil_emulated(path, permissions, false);
	default:
		errno = ENOSYS;
		return -1;
	}
}

PUBLIC int unveil_supported(void)
{
	switch (unveil_mode()) {
	case UNVEIL_MODE_KERNEL:
		return unveil_system_call_supported();
	case UNVEIL_MODE_LANDLOCK:
	case UNVEIL_MODE_UNPROTECTED:
		if (!unveil_emulated_locked())
			return 1;
		errno = EPERM;
		return 0;
	default:
		errno = ENOSYS;
		return 0;
	}
}

PUBLIC int unveil_active(void)
{
	return unveil_module_active();
}
