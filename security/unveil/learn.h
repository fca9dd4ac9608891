/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Learning what a program needs
 */

#ifndef _SECURITY_UNVEIL_LEARN_H
#define _SECURITY_UNVEIL_LEARN_H

#include "record.h"

struct pid_namespace;
struct seq_file;
struct unveil_learned;

struct unveil_learned *unveil_learned_alloc(void);
struct unveil_learned *unveil_learned_get(struct unveil_learned *learned);
void unveil_learned_put(struct unveil_learned *learned);
void unveil_learned_add(struct unveil_learned *learned,
			const struct unveil_record *record);
int unveil_learned_show(struct seq_file *m, struct pid_namespace *ns,
			struct unveil_learned *learned);

#endif /* _SECURITY_UNVEIL_LEARN_H */
