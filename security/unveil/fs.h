/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - File system hooks
 */

#ifndef _SECURITY_UNVEIL_FS_H
#define _SECURITY_UNVEIL_FS_H

#include <linux/init.h>

__init void unveil_add_fs_hooks(void);

#endif /* _SECURITY_UNVEIL_FS_H */
