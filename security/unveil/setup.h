/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unveil LSM - Security framework setup
 */

#ifndef _SECURITY_UNVEIL_SETUP_H
#define _SECURITY_UNVEIL_SETUP_H

#include <linux/lsm_hooks.h>

extern bool unveil_initialized;

extern struct lsm_blob_sizes unveil_blob_sizes;
extern const struct lsm_id unveil_lsmid;

#endif /* _SECURITY_UNVEIL_SETUP_H */
