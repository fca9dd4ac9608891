/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Reporting refusals
 */

#ifndef _SECURITY_UNVEIL_LOG_H
#define _SECURITY_UNVEIL_LOG_H

#include <linux/path.h>

#include "record.h"

struct pid_namespace;
struct seq_file;
struct unveil_refusals;

struct unveil_refusals *unveil_refusals_alloc(void);
struct unveil_refusals *unveil_refusals_get(struct unveil_refusals *refusals);
void unveil_refusals_put(struct unveil_refusals *refusals);
int unveil_refusals_show(struct seq_file *m, struct pid_namespace *ns,
			 struct unveil_refusals *refusals);
const char *unveil_shown_path(const struct path *path, char *buf);
void unveil_report_refusal(struct unveil_refusals *refusals,
			   const struct unveil_record *record,
			   const struct path *path, bool learning);
void unveil_report_capability(struct unveil_refusals *refusals, int cap,
			      const char *name);

#endif /* _SECURITY_UNVEIL_LOG_H */
