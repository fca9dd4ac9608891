/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Common definitions
 */

#ifndef _SECURITY_UNVEIL_COMMON_H
#define _SECURITY_UNVEIL_COMMON_H

#define UNVEIL_NAME "unveil"

#ifdef pr_fmt
#undef pr_fmt
#endif

#define pr_fmt(fmt) UNVEIL_NAME ": " fmt

#endif /* _SECURITY_UNVEIL_COMMON_H */
