// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - What a rule makes inspectable
 *
 * On Linux, realpath(3) lives in user space (glibc, gnulib, git, Python,
 * Go, Node, Rust): it lstat()s or readlink()s every ancestor of a path.
 * So that it works on every visible path, unveil() makes inspectable (see
 * UNVEIL_ACCESS_INSPECT) the real ancestors of a rule's target, and every
 * directory and symlink the path given to unveil() names on the way to it,
 * as OpenBSD did before realpath(3) moved into its kernel.  This reveals
 * only the metadata of directories the process named itself.
 */

#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "inspect.h"
#include "object.h"

static int grow(struct unveil_inspect_set *const set)
{
	struct unveil_inspectable *entries;
	u32 capacity;

	if (set->count < set->capacity)
		return 0;
	capacity = max(16u, 2 * set->capacity);
	entries = kvrealloc(set->entries, array_size(capacity, sizeof(*entries)),
			    GFP_KERNEL_ACCOUNT);
	if (!entries)
		return -ENOMEM;
	set->entries = entries;
	set->capacity = capacity;
	return 0;
}

/*
 * Adds the directory @dir, or the name @name in it (NULL for @dir itself).
 * A file system going away meanwhile is no error: there is nothing to see.
 */
static int add(struct unveil_inspect_set *const set, struct dentry *const dir,
	       const char *const name, const size_t len)
{
	struct unveil_inspectable *entry;
	struct unveil_object *object;
	int err;

	/* Past what a ruleset may hold: no need to look further. */
	if (set->count >= UNVEIL_MAX_INSPECTABLE)
		return -E2BIG;
	err = grow(set);
	if (err)
		return err;
	object = unveil_get_object(dir);
	if (IS_ERR(object))
		return PTR_ERR(object) == -ENOMEM ? -ENOMEM : 0;
	entry = &set->entries[set->count];
	entry->object = object;
	entry->name = NULL;
	if (name) {
		entry->name = kmemdup_nul(name, len, GFP_KERNEL_ACCOUNT);
		if (!entry->name) {
			unveil_object_put(object);
			return -ENOMEM;
		}
	}
	set->count++;
	return 0;
}

/*
 * The real ancestors of @start up to the root of the mount namespace, and
 * @start itself unless @skip_start.  The directories that mounts cover are
 * left out: no lookup ends on them.
 */
static int add_ancestors(struct unveil_inspect_set *const set,
			 const struct path *const start, bool skip_start)
{
	struct path pos = *start;
	struct dentry *parent;
	int err = 0;

	path_get(&pos);
	for (;;) {
		if (!skip_start)
			err = add(set, pos.dentry, NULL, 0);
		skip_start = false;
		if (err)
			break;
		while (pos.dentry == pos.mnt->mnt_root)
			if (!follow_up(&pos))
				goto out;
		parent = dget_parent(pos.dentry);
		dput(pos.dentry);
		pos.dentry = parent;
		/* A disconnected directory (from a file handle) ends here. */
		if (IS_ROOT(parent) && parent != pos.mnt->mnt_root)
			break;
	}
out:
	path_put(&pos);
	return err;
}

/*
 * Moves @pos to its parent as ".." does: never above @root, and onto what
 * is mounted there.
 */
static void dot_dot(struct path *const pos, const struct path *const root)
{
	struct dentry *parent;

	while (!path_equal(pos, root)) {
		if (pos->dentry != pos->mnt->mnt_root) {
			parent = dget_parent(pos->dentry);
			dput(pos->dentry);
			pos->dentry = parent;
			follow_down(pos, 0);
			return;
		}
		if (!follow_up(pos))
			return;
	}
}

/*
 * Looks up, from @pos, the component @name of @len bytes of @pathname, and
 * moves @pos to it.  A symlink is added by its name, and followed; a
 * directory before the @last component is added.  Returns 0, -ENOMEM or
 * -E2BIG, which fail unveil(), or another error to stop looking (not a
 * directory, gone meanwhile).
 */
static int step(struct unveil_inspect_set *const set, struct path *const pos,
		const char *const pathname, const char *const name,
		const size_t len, const bool last)
{
	char *const component = kmemdup_nul(name, len, GFP_KERNEL);
	struct path next;
	char *prefix;
	int err;

	if (!component)
		return -ENOMEM;
	/* One plain component: vfs_path_lookup()'s root plays no part. */
	err = vfs_path_lookup(pos->dentry, pos->mnt, component, 0, &next);
	kfree(component);
	if (err)
		return err;
	if (d_is_symlink(next.dentry)) {
		path_put(&next);
		err = add(set, pos->dentry, name, len);
		if (err || last)
			return err ?: -ENOENT;
		prefix = kmemdup_nul(pathname, name + len - pathname, GFP_KERNEL);
		if (!prefix)
			return -ENOMEM;
		err = kern_path(prefix, LOOKUP_FOLLOW, &next);
		kfree(prefix);
		if (err)
			return err;
	}
	if (!d_is_dir(next.dentry)) {
		path_put(&next);
		return -ENOTDIR;
	}
	if (!last) {
		err = add(set, next.dentry, NULL, 0);
		if (err) {
			path_put(&next);
			return err;
		}
	}
	path_put(pos);
	*pos = next;
	return 0;
}

/* The directories and symlinks that @pathname names on the way. */
static int add_named(struct unveil_inspect_set *const set,
		     const char *const pathname)
{
	const char *name = pathname, *end;
	struct path root, pos;
	int err = 0;

	get_fs_root(current->fs, &root);
	if (*pathname == '/') {
		pos = root;
		path_get(&pos);
	} else {
		get_fs_pwd(current->fs, &pos);
	}
	for (;;) {
		while (*name == '/')
			name++;
		if (!*name)
			break;
		end = strchrnul(name, '/');
		if (end - name == 2 && name[0] == '.' && name[1] == '.')
			dot_dot(&pos, &root);
		else if (end - name != 1 || name[0] != '.')
			err = step(set, &pos, pathname, name, end - name,
				   !end[strspn(end, "/")]);
		if (err)
			break;
		name = end;
	}
	path_put(&pos);
	path_put(&root);
	/* The rule's own lookup succeeded: only these are its errors. */
	return err == -ENOMEM || err == -E2BIG ? err : 0;
}

/**
 * unveil_inspect_set_collect - Find what a rule makes inspectable
 * @set: Empty set to fill.
 * @pathname: The path given to unveil().
 * @dir: The unveiled directory, or the directory of the unveiled name.
 * @dir_rule: Whether @dir is the unveiled directory: its own rule decides
 *            what may be done to it, its ancestors become inspectable.
 *
 * Returns: 0, -ENOMEM, or -E2BIG past %UNVEIL_MAX_INSPECTABLE entries: the
 * set then holds what was found so far.
 */
int unveil_inspect_set_collect(struct unveil_inspect_set *const set,
			       const char *const pathname,
			       const struct path *const dir,
			       const bool dir_rule)
{
	int err = add_ancestors(set, dir, dir_rule);

	return err ?: add_named(set, pathname);
}

/**
 * unveil_inspect_set_release - Drop what a set holds
 * @set: Set filled by unveil_inspect_set_collect(), or empty.
 */
void unveil_inspect_set_release(struct unveil_inspect_set *const set)
{
	u32 i;

	for (i = 0; i < set->count; i++) {
		unveil_object_put(set->entries[i].object);
		kfree(set->entries[i].name);
	}
	kvfree(set->entries);
}
