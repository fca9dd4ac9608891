/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Reporting denials
 */

#ifndef _SECURITY_UNVEIL_LOG_H
#define _SECURITY_UNVEIL_LOG_H

#include <linux/path.h>

#include "access.h"

struct pid_namespace;
struct seq_file;
struct unveil_learned;
struct unveil_refusals;

struct unveil_refusals *unveil_refusals_alloc(void);
struct unveil_refusals *unveil_refusals_get(struct unveil_refusals *refusals);
void unveil_refusals_put(struct unveil_refusals *refusals);
int unveil_refusals_show(struct seq_file *m, struct pid_namespace *ns,
			 struct unveil_refusals *refusals);
void unveil_report_capability(struct unveil_refusals *refusals, int cap,
			      const char *name);
void unveil_report_denial(struct unveil_refusals *refusals,
			  struct unveil_learned *learned, const char *op,
			  const struct path *path, unveil_access_t needed,
			  unveil_access_t held, int err);

#endif /* _SECURITY_UNVEIL_LOG_H */
