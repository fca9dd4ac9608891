/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - What a rule makes inspectable
 */

#ifndef _SECURITY_UNVEIL_INSPECT_H
#define _SECURITY_UNVEIL_INSPECT_H

#include <linux/path.h>
#include <linux/types.h>

#include "ruleset.h"

/**
 * struct unveil_inspect_set - Directories and names that one unveil() call
 * makes inspectable
 *
 * Owned by the unveil() call that fills it: each entry holds a reference
 * on its object and its own copy of its name.
 */
struct unveil_inspect_set {
	/** @entries: The directories and names. */
	struct unveil_inspectable *entries;
	/** @count: Number of entries used. */
	u32 count;
	/** @capacity: Number of entries allocated. */
	u32 capacity;
};

int unveil_inspect_set_collect(struct unveil_inspect_set *set,
			       const char *pathname, const struct path *dir,
			       bool dir_rule);
void unveil_inspect_set_release(struct unveil_inspect_set *set);

#endif /* _SECURITY_UNVEIL_INSPECT_H */
