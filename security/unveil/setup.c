// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Security framework setup
 */

#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <uapi/linux/lsm.h>

#include "common.h"
#include "fs.h"
#include "object.h"
#include "setup.h"
#include "task.h"
#include "veil.h"

bool unveil_initialized __ro_after_init;

const struct lsm_id unveil_lsmid = {
	.name = UNVEIL_NAME,
	.id = LSM_ID_UNVEIL,
};

struct lsm_blob_sizes unveil_blob_sizes __ro_after_init = {
	.lbs_inode = sizeof(struct unveil_inode_security),
	.lbs_superblock = sizeof(struct unveil_superblock_security),
	.lbs_task = sizeof(struct unveil_task_security),
};

/*
 * The hooks are added disabled: the framework calls them once a process
 * first uses unveil, so that a kernel that builds it in costs nothing until
 * then.
 */
static int __init unveil_init(void)
{
	unveil_add_task_hooks();
	unveil_add_object_hooks();
	unveil_add_fs_hooks();
	unveil_initialized = true;
	/* The framework has turned the blob sizes into this module's offsets. */
	pr_info("Up and running (blob offsets: task %d, inode %d, superblock %d).\n",
		unveil_blob_sizes.lbs_task, unveil_blob_sizes.lbs_inode,
		unveil_blob_sizes.lbs_superblock);
	return 0;
}

DEFINE_LSM(UNVEIL_NAME) = {
	.name = UNVEIL_NAME,
	.init = unveil_init,
	.blobs = &unveil_blob_sizes,
};
