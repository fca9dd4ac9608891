// SPDX-License-Identifier: GPL-2.0
/*
 * unveil - run a command under an unveil(2) veil
 *
 * Usage: unveil [-r PATH] [-w PATH] [-x PATH] [-c PATH] [--perm LETTERS PATH]
 *               [-l|--lock] [--path] [--no-defaults] [--] CMD [ARGS...]
 *
 * The command, its ELF loader and its libraries are unveiled too; the
 * veil is kept across execve().  See unveil(1).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/unveil.h>

#include "unveil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum {
	EXIT_USAGE = 2,
	EXIT_UNVEIL = 3,
	EXIT_LOCKED = 4,
	EXIT_NO_UNVEIL = 5,
	EXIT_CANNOT_RUN = 126,
	EXIT_NOT_FOUND = 127,
};

/* Bit i of a permission set stands for letters[i]. */
static const char letters[] = {
	UNVEIL_PERM_READ, UNVEIL_PERM_WRITE, UNVEIL_PERM_EXEC,
	UNVEIL_PERM_CREATE, '\0'
};

/*
 * What nearly every program needs and that holds none of a user's data,
 * where it exists: the loader and libraries of dynamically linked
 * programs, locales and time zones, and the devices programs open without
 * asking (/dev/null for output they drop, /dev/urandom for temporary names).
 */
static const struct {
	const char *path;
	const char *letters;
} defaults[] = {
	{ "/lib", "rx" },
	{ "/lib64", "rx" },
	{ "/usr/lib", "rx" },
	{ "/usr/lib64", "rx" },
	{ "/usr/local/lib", "rx" },
	{ "/etc/ld.so.cache", "r" },
	{ "/usr/share/locale", "r" },
	{ "/usr/lib/locale", "r" },
	{ "/etc/localtime", "r" },
	{ "/usr/share/zoneinfo", "r" },
	{ "/dev/null", "rw" },
	{ "/dev/zero", "r" },
	{ "/dev/random", "r" },
	{ "/dev/urandom", "r" },
};

struct rule {
	const char *path;	/* as first given, for messages */
	char *key;		/* where it leads: what unveil() gets */
	unsigned int perms;
};

static struct rule *rules;
static size_t nr_rules;

static const char usage[] =
"usage: unveil [options] [--] CMD [ARGS...]\n"
"Run CMD with only the given paths visible (unveil(2)); the veil is kept\n"
"across execve().\n"
"\n"
"  -r PATH               unveil PATH for reading\n"
"  -w PATH               unveil PATH for writing\n"
"  -x PATH               unveil PATH for executing\n"
"  -c PATH               unveil PATH for creating and removing\n"
"  --perm LETTERS PATH   unveil PATH with zero or more of the letters rwxc\n"
"  -l, --lock            lock the veil: CMD cannot change it\n"
"  --path                unveil each directory of $PATH rx, for commands\n"
"                        that run others (tar runs gzip)\n"
"  --no-defaults         do not unveil the defaults below\n"
"  -h, --help            show this help\n"
"\n"
"Options naming the same file or directory add up their letters.  CMD, as\n"
"found in PATH, is unveiled rx.  Unless --no-defaults is given, these are\n"
"unveiled where they exist: /lib, /lib64, /usr/lib, /usr/lib64 and\n"
"/usr/local/lib rx; /etc/ld.so.cache, /usr/share/locale, /usr/lib/locale,\n"
"/etc/localtime and /usr/share/zoneinfo r; /dev/null rw; /dev/zero,\n"
"/dev/random and /dev/urandom r.  What the veil refuses is logged by the\n"
"kernel (dmesg) with the path, the letters needed and those held.\n"
"\n"
"Exit status: CMD's; 2 bad options; 3 unveil() refused a path; 4 the veil\n"
"is locked; 5 the kernel has no unveil(2); 126 CMD could not run;\n"
"127 CMD was not found.  See unveil(1).\n";

static void usage_error(const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		fputs("unveil: ", stderr);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fputs("Try 'unveil --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

static void *must(void *p)
{
	if (!p) {
		fputs("unveil: out of memory\n", stderr);
		exit(EXIT_FAILURE);
	}
	return p;
}

static unsigned int parse_letters(const char *s)
{
	unsigned int perms = 0;
	const char *found;

	for (; *s; s++) {
		found = strchr(letters, *s);
		if (!found)
			usage_error("'%c' is not a permission letter (%s)", *s,
				    letters);
		perms |= 1u << (found - letters);
	}
	return perms;
}

/*
 * Where PATH leads, with symlinks followed as unveil() follows them: the
 * path itself, or for a missing final name its real directory and the
 * name.  Anything else is left for unveil() to report.
 */
static char *resolve(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *real = realpath(path, NULL);
	char *dir, *parent, *key;

	if (real)
		return real;
	if (errno != ENOENT || !*path || (slash && !slash[1]))
		return must(strdup(path));
	parent = must(slash ? strndup(path, slash - path + 1) : strdup("."));
	dir = realpath(parent, NULL);
	free(parent);
	if (!dir)
		return must(strdup(path));
	if (asprintf(&key, "%s/%s", strcmp(dir, "/") ? dir : "",
		     slash ? slash + 1 : path) < 0)
		must(NULL);
	free(dir);
	return key;
}

static void add_rule(const char *path, unsigned int perms)
{
	char *key = resolve(path);
	size_t i;

	for (i = 0; i < nr_rules; i++) {
		if (!strcmp(rules[i].key, key)) {
			rules[i].perms |= perms;
			free(key);
			return;
		}
	}
	rules[nr_rules++] = (struct rule){ path, key, perms };
}

/*
 * Where execvp() would run CMD from, looked up now, before the new rules:
 * the first file in PATH that may be executed, else the first that exists
 * but may not (execv() then says why), else NULL.
 */
static char *find_command(const char *cmd)
{
	const char *dirs = getenv("PATH");
	char *found = NULL, *path;
	const char *end;

	if (strchr(cmd, '/'))
		return must(strdup(cmd));
	if (!dirs)
		dirs = "/bin:/usr/bin";
	for (;; dirs = end + 1) {
		end = strchrnul(dirs, ':');
		if (asprintf(&path, "%.*s%s%s", (int)(end - dirs), dirs,
			     end == dirs ? "" : "/", cmd) < 0)
			must(NULL);
		if (!access(path, X_OK)) {
			free(found);
			return path;
		}
		if (errno == EACCES && !found)
			found = path;
		else
			free(path);
		if (!*end)
			return found;
	}
}

/* Number of directories in $PATH, at most (empty entries included). */
static size_t path_dirs(void)
{
	const char *dirs = getenv("PATH");
	size_t n = 1;

	for (; dirs && *dirs; dirs++)
		n += *dirs == ':';
	return n;
}

/* Unveils rx each directory of $PATH that exists (not the empty entries). */
static void add_path_dirs(void)
{
	char *dirs = must(strdup(getenv("PATH") ?: "/bin:/usr/bin"));
	char *dir, *rest = dirs;

	while ((dir = strsep(&rest, ":")))
		if (*dir && !access(dir, F_OK))
			add_rule(must(strdup(dir)), parse_letters("rx"));
	/* The rules keep pointing into @dirs. */
}

static void unveil_failed(const char *what)
{
	fprintf(stderr, "unveil: %s: %s\n", what, strerror(errno));
	exit(EXIT_UNVEIL);
}

/* Exits with a clear message unless unveil() can add rules. */
static void check_support(void)
{
	if (unveil_supported())
		return;
	if (errno == EPERM) {
		fprintf(stderr, "unveil: the veil is locked: %s\n",
			strerror(errno));
		exit(EXIT_LOCKED);
	}
	if (errno == EOPNOTSUPP)
		fputs("unveil: unveil(2) is built in but was not enabled at boot (lsm=)\n",
		      stderr);
	else
		fprintf(stderr, "unveil: this kernel has no unveil(2) system call (%d: %s)\n",
			__NR_unveil, strerror(errno));
	exit(EXIT_NO_UNVEIL);
}

int main(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "perm", required_argument, NULL, 'p' },
		{ "lock", no_argument, NULL, 'l' },
		{ "no-defaults", no_argument, NULL, 'n' },
		{ "path", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	char granted[sizeof(letters)], *cmd;
	bool lock = false, use_defaults = true, use_path = false;
	size_t i, j, n;
	int opt, err;

	rules = must(calloc(argc + ARRAY_SIZE(defaults) + path_dirs(),
			    sizeof(*rules)));
	while ((opt = getopt_long(argc, argv, "+r:w:x:c:lh", options,
				  NULL)) != -1) {
		switch (opt) {
		case 'r':
		case 'w':
		case 'x':
		case 'c':
			add_rule(optarg, parse_letters((char[]){ opt, '\0' }));
			break;
		case 'p':
			if (optind >= argc)
				usage_error("--perm needs LETTERS and a PATH");
			add_rule(argv[optind++], parse_letters(optarg));
			break;
		case 'l':
			lock = true;
			break;
		case 'n':
			use_defaults = false;
			break;
		case 'P':
			use_path = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			usage_error(NULL);
		}
	}
	if (optind >= argc)
		usage_error("no command given");
	check_support();

	cmd = find_command(argv[optind]);
	if (!cmd) {
		fprintf(stderr, "unveil: %s: command not found\n",
			argv[optind]);
		return EXIT_NOT_FOUND;
	}
	add_rule(cmd, parse_letters("rx"));
	for (i = 0; use_defaults && i < ARRAY_SIZE(defaults); i++)
		if (!access(defaults[i].path, F_OK))
			add_rule(defaults[i].path,
				 parse_letters(defaults[i].letters));
	if (use_path)
		add_path_dirs();

	for (i = 0; i < nr_rules; i++) {
		for (j = 0, n = 0; letters[j]; j++)
			if (rules[i].perms & (1u << j))
				granted[n++] = letters[j];
		granted[n] = '\0';
		if (unveil(rules[i].key, granted))
			unveil_failed(rules[i].path);
	}
	if (lock && unveil(NULL, NULL))
		unveil_failed("unveil(NULL, NULL)");

	execv(cmd, argv + optind);
	err = errno;
	fprintf(stderr, "unveil: %s: %s%s\n", cmd, strerror(err),
		err == ENOENT && !access(cmd, F_OK) ?
		" (its interpreter is missing or hidden)" : "");
	return err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
