/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Process life cycle hooks
 */

#ifndef _SECURITY_UNVEIL_TASK_H
#define _SECURITY_UNVEIL_TASK_H

#include <linux/init.h>
#include <linux/types.h>

bool unveil_current_is_tied(void);
__init void unveil_add_task_hooks(void);

#endif /* _SECURITY_UNVEIL_TASK_H */
