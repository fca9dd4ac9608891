// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libunveil: unveil() emulated with Landlock.
 *
 * Landlock cannot add a rule to a domain once it is in force, and every
 * later domain only narrows it.  So the rules are kept here, with the
 * system call's checks and errors, and made one Landlock domain at
 * unveil(NULL, NULL): until then nothing is hidden.  A rule holds an
 * O_PATH descriptor of its directory, so that it follows the directory
 * as the kernel's rules do, and checks at the lock that the descriptor is
 * still that directory (the program may have closed it and opened another
 * file under its number).  A rule on a name holds its parent's and the
 * name, and finds the file again at the lock, never through a symlink.
 * Landlock grants creating and removing only on a whole directory tree, so
 * a rule that lets a file be created or removed by name cannot be kept:
 * unveil() refuses it.  The differences this leaves are listed in
 * unveil(2), "Without the unveil security module".
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/landlock.h>

#include "emulation.h"

/* The system call numbers, as the generic table has them. */
#if defined(__alpha__)
#define LANDLOCK_NR(n) ((n) + 110)
#else
#define LANDLOCK_NR(n) (n)
#endif
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset LANDLOCK_NR(444)
#define __NR_landlock_add_rule LANDLOCK_NR(445)
#define __NR_landlock_restrict_self LANDLOCK_NR(446)
#endif

/* Rights of later ABIs than the system's headers may know. */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif

#define FS(right) LANDLOCK_ACCESS_FS_##right

/* What each letter grants, in the order of letters[]. */
static const char letters[] = "rwxc";
static const uint64_t letter_rights[] = {
	FS(READ_FILE) | FS(READ_DIR),
	FS(WRITE_FILE) | FS(TRUNCATE),
	FS(EXECUTE),
	FS(MAKE_REG) | FS(MAKE_DIR) | FS(MAKE_SYM) | FS(MAKE_SOCK) |
		FS(MAKE_FIFO) | FS(REMOVE_FILE) | FS(REMOVE_DIR) | FS(REFER),
};

/* Handled and never granted: a device node would reach past the veil. */
#define DEVICE_RIGHTS (FS(MAKE_CHAR) | FS(MAKE_BLOCK))

/* The rights Landlock accepts in a rule on a file that is not a directory. */
#define FILE_RIGHTS (FS(READ_FILE) | FS(WRITE_FILE) | FS(EXECUTE) | \
		     FS(TRUNCATE))

#define LETTER_CREATE (1u << 3)

/* As the kernel's (security/unveil/ruleset.h). */
#define MAX_RULES_OF_A_KIND 1024

/*
 * One rule: on the directory @dir (@name NULL), or on @name in @dir.  @dev
 * and @ino are @dir's, to find the rule again for the same directory.
 */
struct rule {
	int dir;
	char *name;
	dev_t dev;
	ino_t ino;
	unsigned int letters;
};

/*
 * The process's rules and lock; every thread's calls take @veil_lock, and
 * so does fork(), so that the child gets them whole.
 */
static pthread_mutex_t veil_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_handlers = PTHREAD_ONCE_INIT;
static struct rule *rules;
static size_t nr_rules, nr_name_rules;
static bool locked;

struct ruleset_attr {
	uint64_t handled_access_fs;
};

int unveil_landlock_abi(void)
{
	long abi = syscall(__NR_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? 0 : abi;
}

/* The rights an ABI knows: REFER came with 2, TRUNCATE with 3. */
static uint64_t known_rights(int abi)
{
	uint64_t rights = (FS(REFER) * 2 - 1) | FS(TRUNCATE);

	if (abi < 2)
		rights &= ~FS(REFER);
	if (abi < 3)
		rights &= ~FS(TRUNCATE);
	return rights;
}

static int parse_letters(const char *s, unsigned int *out)
{
	const char *at;

	for (*out = 0; *s; s++) {
		at = strchr(letters, *s);
		if (!at)
			return -1;
		*out |= 1u << (at - letters);
	}
	return 0;
}

static uint64_t rights_of(unsigned int letters_set)
{
	uint64_t rights = 0;
	size_t i;

	for (i = 0; i < sizeof(letter_rights) / sizeof(*letter_rights); i++)
		if (letters_set & (1u << i))
			rights |= letter_rights[i];
	return rights;
}

static int fail(int err)
{
	errno = err;
	return -1;
}

/*
 * Splits @path into the directory it names a file in and the file's
 * name, following a symlink at the end as unveil() does.  Returns the
 * directory opened O_PATH and the name in *@name (to free), or -1.
 */
static int open_parent(const char *path, char **name)
{
	char *resolved = NULL, *copy, *slash, *base;
	const char *dir_path;
	struct stat st;
	int dir = -1;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		/* A dangling one: its own name, which grants nothing. */
		resolved = realpath(path, NULL);
		if (!resolved && errno != ENOENT)
			return -1;
		if (resolved)
			path = resolved;
	}
	copy = strdup(path);
	free(resolved);
	if (!copy)
		return -1;
	slash = strrchr(copy, '/');
	base = slash ? slash + 1 : copy;
	dir_path = !slash ? "." : slash == copy ? "/" : copy;
	if (slash)
		*slash = '\0';
	if (!*base)
		errno = ENOENT;
	else
		dir = open(dir_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	*name = dir < 0 ? NULL : strdup(base);
	free(copy);
	if (dir >= 0 && !*name) {
		close(dir);
		return -1;
	}
	return dir;
}

static struct rule *find_rule(const struct rule *key)
{
	size_t i;

	for (i = 0; i < nr_rules; i++)
		if (rules[i].dev == key->dev && rules[i].ino == key->ino &&
		    !rules[i].name == !key->name &&
		    (!key->name || !strcmp(rules[i].name, key->name)))
			return &rules[i];
	return NULL;
}

/* Adds @rule, or replaces the letters of the same one.  Takes its dir. */
static int keep_rule(struct rule *rule)
{
	struct rule *same = find_rule(rule), *grown;
	size_t of_kind = rule->name ? nr_name_rules : nr_rules - nr_name_rules;

	if (same) {
		same->letters = rule->letters;
		close(rule->dir);
		free(rule->name);
		return 0;
	}
	grown = of_kind < MAX_RULES_OF_A_KIND ?
		reallocarray(rules, nr_rules + 1, sizeof(*rules)) : NULL;
	if (!grown) {
		close(rule->dir);
		free(rule->name);
		return fail(of_kind < MAX_RULES_OF_A_KIND ? ENOMEM : E2BIG);
	}
	rules = grown;
	rules[nr_rules++] = *rule;
	nr_name_rules += !!rule->name;
	return 0;
}

/*
 * unveil(@path, @permissions), in the system call's order of checks; a
 * name with "c" fails if the rule is to be @enforced (see above).
 */
static int add_rule(const char *path, const char *permissions, bool enforced)
{
	struct rule rule = { .name = NULL };
	unsigned int letters_set;
	struct stat st;

	if (strnlen(permissions, 5) >= 5 || strnlen(path, PATH_MAX) >= PATH_MAX)
		return fail(ENAMETOOLONG);
	if (!*path)
		return fail(EINVAL);
	rule.dir = open(path, O_PATH | O_CLOEXEC);
	if (rule.dir >= 0 && fstat(rule.dir, &st)) {
		close(rule.dir);
		return -1;
	}
	if (rule.dir < 0 || !S_ISDIR(st.st_mode)) {
		if (rule.dir >= 0)
			close(rule.dir);
		else if (errno != ENOENT)
			return -1;
		rule.dir = open_parent(path, &rule.name);
		if (rule.dir < 0)
			return -1;
		if (fstat(rule.dir, &st)) {
			close(rule.dir);
			free(rule.name);
			return -1;
		}
	}
	rule.dev = st.st_dev;
	rule.ino = st.st_ino;
	if (parse_letters(permissions, &letters_set) ||
	    (enforced && rule.name && (letters_set & LETTER_CREATE))) {
		close(rule.dir);
		free(rule.name);
		return fail(letters_set & LETTER_CREATE ? EOPNOTSUPP : EINVAL);
	}
	rule.letters = letters_set;
	if (keep_rule(&rule))
		return -1;
	/* As the system call: never gain privileges under a veil. */
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

/* Whether the descriptor of @rule is still the directory it opened. */
static bool rule_still_holds(const struct rule *rule)
{
	struct stat st;

	return !fstat(rule->dir, &st) && S_ISDIR(st.st_mode) &&
	       st.st_dev == rule->dev && st.st_ino == rule->ino;
}

/*
 * The Landlock rule for @rule: on a directory, the rights of its letters;
 * on a name, on what it names now, unless that is missing or a symlink
 * (which would lead anywhere).  Returns the descriptor to use (*@opened
 * if it is a new one), or -1 for no rule.
 */
static int rule_target(const struct rule *rule, uint64_t *rights,
		       int *opened)
{
	struct stat st;

	*rights = rights_of(rule->letters);
	*opened = -1;
	if (!rule->name)
		return rule->dir;
	*opened = openat(rule->dir, rule->name,
			 O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (*opened < 0 || fstat(*opened, &st) || S_ISLNK(st.st_mode))
		return -1;
	if (!S_ISDIR(st.st_mode))
		*rights &= FILE_RIGHTS;
	return *opened;
}

/* The checks, then the domain, for enforce_rules(). */
static int make_domain(void)
{
	int abi = unveil_landlock_abi(), ruleset, fd, opened, err = 0;
	struct landlock_path_beneath_attr beneath;
	struct ruleset_attr attr;
	uint64_t rights;
	size_t i;

	if (!abi)
		return fail(ENOSYS);
	for (i = 0; i < nr_rules; i++)
		if (!rule_still_holds(&rules[i]))
			return fail(EBADF);
	if (unveil_check_ties())
		return -1;
	attr.handled_access_fs = known_rights(abi);
	ruleset = syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0)
		return -1;
	for (i = 0; i < nr_rules && !err; i++) {
		fd = rule_target(&rules[i], &rights, &opened);
		beneath.allowed_access = rights & attr.handled_access_fs &
					 ~DEVICE_RIGHTS;
		beneath.parent_fd = fd;
		if (fd >= 0 && beneath.allowed_access &&
		    syscall(__NR_landlock_add_rule, ruleset,
			    LANDLOCK_RULE_PATH_BENEATH, &beneath, 0))
			err = errno;
		if (opened >= 0)
			close(opened);
	}
	if (!err && syscall(__NR_landlock_restrict_self, ruleset, 0))
		err = errno;
	close(ruleset);
	return err ? fail(err) : 0;
}

/*
 * Makes the rules the process's Landlock domain.  Signals are blocked from
 * the checks to restrict_self(): a handler could start a thread or a ring
 * that the checks did not see.
 */
static int enforce_rules(void)
{
	sigset_t all, old;
	int ret;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = make_domain();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

static void forget_rules(void)
{
	size_t i;

	for (i = 0; i < nr_rules; i++) {
		close(rules[i].dir);
		free(rules[i].name);
	}
	free(rules);
	rules = NULL;
	nr_rules = nr_name_rules = 0;
}

static void take_veil_lock(void)
{
	pthread_mutex_lock(&veil_lock);
}

static void drop_veil_lock(void)
{
	pthread_mutex_unlock(&veil_lock);
}

static void register_fork_handlers(void)
{
	pthread_atfork(take_veil_lock, drop_veil_lock, drop_veil_lock);
}

int unveil_emulated(const char *path, const char *permissions, bool enforce)
{
	int ret = 0;

	pthread_once(&fork_handlers, register_fork_handlers);
	pthread_mutex_lock(&veil_lock);
	if (locked)
		ret = fail(EPERM);
	else if (!path != !permissions)
		ret = fail(EFAULT);
	else if (path)
		ret = add_rule(path, permissions, enforce);
	else if (enforce && nr_rules)
		ret = enforce_rules();
	if (!ret && !path) {
		locked = true;
		forget_rules();
	}
	pthread_mutex_unlock(&veil_lock);
	return ret;
}

bool unveil_emulated_locked(void)
{
	bool ret;

	pthread_mutex_lock(&veil_lock);
	ret = locked;
	pthread_mutex_unlock(&veil_lock);
	return ret;
}
