/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * <unistd.h> as OpenBSD has it: the system's, and unveil().  pkg-config's
 * "--cflags unveil" puts this directory before the system's, so that
 * programs written for OpenBSD build unchanged.
 */

#include_next <unistd.h>

#ifndef _LIBUNVEIL_UNISTD_H
#define _LIBUNVEIL_UNISTD_H
#include <unveil.h>
#endif
