/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Permissions of a rule
 */

#ifndef _SECURITY_UNVEIL_ACCESS_H
#define _SECURITY_UNVEIL_ACCESS_H

#include <linux/bits.h>
#include <linux/types.h>

/* Permissions, one bit per letter of unveil()'s permission string. */
#define UNVEIL_ACCESS_READ	BIT(0)	/* 'r' */
#define UNVEIL_ACCESS_WRITE	BIT(1)	/* 'w' */
#define UNVEIL_ACCESS_EXEC	BIT(2)	/* 'x' */
#define UNVEIL_ACCESS_CREATE	BIT(3)	/* 'c' */

/*
 * Not a letter: the call only looks at the object (stat, readlink,
 * access(F_OK)).  An inspectable object allows it, whatever the rules say.
 */
#define UNVEIL_ACCESS_INSPECT	BIT(4)

typedef u8 unveil_access_t;

/* Room for the letters of any permissions, with the NUL. */
#define UNVEIL_ACCESS_LETTERS_SIZE	5

int unveil_parse_access(const char *letters, unveil_access_t *access);
const char *unveil_format_access(unveil_access_t access, char *letters);

#endif /* _SECURITY_UNVEIL_ACCESS_H */
