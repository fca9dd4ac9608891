/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Reporting denials
 */

#ifndef _SECURITY_UNVEIL_LOG_H
#define _SECURITY_UNVEIL_LOG_H

#include <linux/path.h>

#include "access.h"

void unveil_log_denial(const char *op, const struct path *path,
		       unveil_access_t needed, unveil_access_t held, int err);

#endif /* _SECURITY_UNVEIL_LOG_H */
