/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Reporting denials
 */

#ifndef _SECURITY_UNVEIL_LOG_H
#define _SECURITY_UNVEIL_LOG_H

#include <linux/path.h>

#include "access.h"

/*
 * Bytes that the reports write as \xHH: any that could end a line early,
 * fake a field or reach a terminal (controls, quote, backslash, DEL and
 * above).
 */
static inline bool unveil_must_escape(const unsigned char c)
{
	return c < ' ' || c >= 0x7f || c == '"' || c == '\\';
}

struct pid_namespace;
struct seq_file;
struct unveil_refusals;

struct unveil_refusals *unveil_refusals_alloc(void);
struct unveil_refusals *unveil_refusals_get(struct unveil_refusals *refusals);
void unveil_refusals_put(struct unveil_refusals *refusals);
int unveil_refusals_show(struct seq_file *m, struct pid_namespace *ns,
			 struct unveil_refusals *refusals);
int unveil_refuse(const char *op, const struct path *path,
		  unveil_access_t needed, unveil_access_t held, int err);

#endif /* _SECURITY_UNVEIL_LOG_H */
