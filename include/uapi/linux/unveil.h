/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * unveil(2) user space API
 */

#ifndef _UAPI_LINUX_UNVEIL_H
#define _UAPI_LINUX_UNVEIL_H

/**
 * DOC: unveil_permissions
 *
 * The permission string of unveil() holds zero or more of these letters, in
 * any order, repeats allowed:
 *
 * - %UNVEIL_PERM_READ: read files, list directories, stat, chdir
 * - %UNVEIL_PERM_WRITE: write and truncate files, change their attributes
 * - %UNVEIL_PERM_EXEC: execute programs
 * - %UNVEIL_PERM_CREATE: create and remove files and directories
 *
 * A string longer than %UNVEIL_PERMISSIONS_MAX characters fails with
 * ENAMETOOLONG.
 */
#define UNVEIL_PERM_READ	'r'
#define UNVEIL_PERM_WRITE	'w'
#define UNVEIL_PERM_EXEC	'x'
#define UNVEIL_PERM_CREATE	'c'
#define UNVEIL_PERMISSIONS_MAX	4

#endif /* _UAPI_LINUX_UNVEIL_H */
