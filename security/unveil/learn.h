/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Learning what a program needs
 */

#ifndef _SECURITY_UNVEIL_LEARN_H
#define _SECURITY_UNVEIL_LEARN_H

#include "access.h"

struct seq_file;
struct unveil_learned;

struct unveil_learned *unveil_learned_alloc(void);
struct unveil_learned *unveil_learned_get(struct unveil_learned *learned);
void unveil_learned_put(struct unveil_learned *learned);
void unveil_learned_add(struct unveil_learned *learned, const char *op,
			const char *path, unveil_access_t needed,
			unveil_access_t held, int err);
int unveil_learned_show(struct seq_file *m, struct unveil_learned *learned);

#endif /* _SECURITY_UNVEIL_LEARN_H */
