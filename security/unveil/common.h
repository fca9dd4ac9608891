/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Common definitions
 */

#ifndef _SECURITY_UNVEIL_COMMON_H
#define _SECURITY_UNVEIL_COMMON_H

#include <linux/types.h>

#define UNVEIL_NAME "unveil"

#ifdef pr_fmt
#undef pr_fmt
#endif

#define pr_fmt(fmt) UNVEIL_NAME ": " fmt

/*
 * Bytes that the reports write as \xHH: any that could end a line early,
 * fake a field or reach a terminal (controls, quote, backslash, DEL and
 * above).
 */
static inline bool unveil_must_escape(const unsigned char c)
{
	return c < ' ' || c >= 0x7f || c == '"' || c == '\\';
}

#endif /* _SECURITY_UNVEIL_COMMON_H */
