// SPDX-License-Identifier: GPL-2.0
/*
 * unveil - run a command under an unveil(2) veil
 *
 * Usage: unveil [OPTION]... [--] CMD [ARGS...]; see unveil --help and
 * unveil(1).  The command, its ELF loader and its libraries are unveiled
 * too; the veil is kept across execve().
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/unveil.h>

#include "../../libunveil/unveil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#ifndef UNVEIL_VERSION
#define UNVEIL_VERSION "1.1"
#endif
#ifndef UNVEIL_PROFILE_DIR
#define UNVEIL_PROFILE_DIR "/usr/local/share/unveil/profiles"
#endif

/* As env(1) and chroot(1): the command's own codes stay unambiguous. */
enum {
	EXIT_LAUNCHER = 125,
	EXIT_CANNOT_RUN = 126,
	EXIT_NOT_FOUND = 127,
};

/* Bit i of a permission set stands for letters[i]. */
static const char letters[] = {
	UNVEIL_PERM_READ, UNVEIL_PERM_WRITE, UNVEIL_PERM_EXEC,
	UNVEIL_PERM_CREATE, '\0'
};

struct default_rule {
	const char *path;
	const char *letters;
};

/*
 * What nearly every program needs and that holds none of a user's data,
 * where it exists: the loader and libraries of dynamically linked
 * programs, locales and time zones, the names of users and groups (which
 * every user may read: ls -l, id -un and ssh-keygen turn ids into names),
 * OpenSSL's configuration (read by all that link libcrypto), the list of
 * file system types (libselinux reads it in coreutils), and the devices
 * programs open without asking (/dev/null for output they drop,
 * /dev/urandom for temporary names).
 */
static const struct default_rule defaults[] = {
	{ "/lib", "rx" },
	{ "/lib64", "rx" },
	{ "/usr/lib", "rx" },
	{ "/usr/lib64", "rx" },
	{ "/usr/local/lib", "rx" },
	{ "/etc/ld.so.cache", "r" },
	{ "/usr/share/locale", "r" },
	{ "/usr/lib/locale", "r" },
	{ "/etc/locale.alias", "r" },
	{ "/etc/localtime", "r" },
	{ "/usr/share/zoneinfo", "r" },
	{ "/etc/passwd", "r" },
	{ "/etc/group", "r" },
	{ "/etc/nsswitch.conf", "r" },
	{ "/etc/ssl/openssl.cnf", "r" },
	{ "/proc/filesystems", "r" },
	{ "/dev/null", "rw" },
	{ "/dev/zero", "r" },
	{ "/dev/random", "r" },
	{ "/dev/urandom", "r" },
};

/*
 * What a program on a terminal needs, when one of the standard streams is
 * a terminal: the controlling terminal, the terminal descriptions, and
 * /proc/self, where ttyname(3) finds the terminal's name.
 */
static const struct default_rule terminal_defaults[] = {
	{ "/dev/tty", "rw" },
	{ "/etc/terminfo", "r" },
	{ "/lib/terminfo", "r" },
	{ "/usr/share/terminfo", "r" },
	{ "/proc/self", "r" },
};

/*
 * One path to unveil: @path as given, unveiled as named so that the
 * symlinks on the way become inspectable; @key, where it leads, once the
 * options are all read.  A path that may be @missing is skipped when it
 * does not exist; one from a profile only when its directory does not
 * exist either: a rule on a name holds for what the command makes there
 * (a learned profile names what the command made).  An @alias leads where
 * an earlier rule does: both are unveiled, with the letters of both, and
 * shown once.  A rule @from_defaults is left out of the warnings about
 * Landlock: /usr/lib/locale "r" in /usr/lib "rx" gains an "x" that does
 * not matter.
 */
struct rule {
	const char *path;
	char *key;
	unsigned int perms;
	bool missing_ok;
	bool from_profile;
	bool from_defaults;
	bool alias;
};

static struct rule *rules;
static size_t nr_rules, rules_allocated;

static int *kept_fds;
static size_t nr_kept_fds;

/* With --report or --learn: the process that runs the command. */
static pid_t command_pid;

/*
 * With --learn: what the command needed beyond its rules, then the rules
 * that would have let it.
 */
struct learned {
	char *path;
	unsigned int perms;
	/* Only stat(): an ancestor of a rule allows it without a rule. */
	bool stat_only;
	bool made;
	bool made_dir;
};

static struct learned *learned;
static size_t nr_learned, learned_allocated;

static const char usage[] =
"usage: unveil [OPTION]... [--] CMD [ARGS...]\n"
"Run CMD with only the given paths visible (unveil(2)); the veil is kept\n"
"across execve().\n"
"\n"
"  -r PATH               unveil PATH for reading (r)\n"
"  -w PATH               unveil PATH for writing (w)\n"
"  -x PATH               unveil PATH for executing (x)\n"
"  -c PATH               unveil PATH for creating and removing (c)\n"
"  --perm LETTERS PATH   unveil PATH with zero or more of the letters rwxc\n"
"  --ro PATHS            unveil each of the comma-separated PATHS r\n"
"  --rx PATHS, --rw PATHS, --rwc PATHS\n"
"                        the same with rx, rw or rwc\n"
"  -v, --unveil LETTERS:PATHS\n"
"                        unveil each of PATHS with LETTERS (may be none)\n"
"  --profile FILE        read rules from FILE, \"LETTERS PATH\" a line (\"-\"\n"
"                        for none, # comments); a FILE without a slash is\n"
"                        one of the profiles in " UNVEIL_PROFILE_DIR "\n"
"  --ignore-missing      skip paths that do not exist\n"
"  -l, --lock            lock the veil: CMD cannot change it\n"
"  --path                unveil each directory of $PATH rx, for commands\n"
"                        that run others (tar runs gzip)\n"
"  --no-defaults         do not unveil the defaults below\n"
"  --chdir DIR           change to DIR first: relative paths, CMD's too,\n"
"                        start there\n"
"  --keep-fd N           keep descriptor N open for CMD (others above 2\n"
"                        are closed)\n"
"  --print-rules         print the rules, as a profile, and exit\n"
"  --report              when CMD exits, print the calls the veil refused to\n"
"                        it and to the processes it started\n"
"  --learn[=FILE]        refuse nothing, record instead; when CMD exits,\n"
"                        print the rules it needed beyond the given ones\n"
"                        (and write them to FILE, as a profile)\n"
"  -h, --help            show this help\n"
"  --version             show the version and how unveil() is made here\n"
"\n"
"Options naming the same file or directory add up their letters.  CMD, as\n"
"found in PATH, is unveiled rx.  Unless --no-defaults is given, these are\n"
"unveiled where they exist: /lib, /lib64, /usr/lib, /usr/lib64 and\n"
"/usr/local/lib rx; /etc/ld.so.cache, /usr/share/locale, /usr/lib/locale,\n"
"/etc/locale.alias, /etc/localtime, /usr/share/zoneinfo, /etc/passwd,\n"
"/etc/group, /etc/nsswitch.conf, /etc/ssl/openssl.cnf and\n"
"/proc/filesystems r; /dev/null rw; /dev/zero, /dev/random and\n"
"/dev/urandom r; and when a standard stream is a terminal,\n"
"/dev/tty and that terminal rw, /etc/terminfo, /lib/terminfo,\n"
"/usr/share/terminfo and /proc/self r.  What the veil refuses is logged by\n"
"the kernel (dmesg) with the path, the letters needed and those held.\n"
"On a kernel without the unveil security module, Landlock enforces a\n"
"weaker veil (a warning says so); see unveil(1).\n"
"\n"
"Exit status: CMD's; 125 the launcher failed (bad options, unveil(2)\n"
"refused a path or is not active, the veil is locked); 126 CMD could not\n"
"run; 127 CMD was not found.  See unveil(1).\n";

/* Prints "unveil: " and the message, and exits 125; @help adds a hint. */
static void __attribute__((noreturn, format(printf, 2, 3)))
exit_with_message(bool help, const char *fmt, ...)
{
	va_list ap;

	fputs("unveil: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (help)
		fputs("Try 'unveil --help' for more information.\n", stderr);
	exit(EXIT_LAUNCHER);
}

#define fail(...) exit_with_message(false, __VA_ARGS__)
#define usage_error(...) exit_with_message(true, __VA_ARGS__)

static void *must(void *p)
{
	if (!p)
		fail("out of memory");
	return p;
}

static unsigned int parse_letters(const char *s, size_t len)
{
	unsigned int perms = 0;
	const char *found;
	size_t i;

	for (i = 0; i < len; i++) {
		found = s[i] ? strchr(letters, s[i]) : NULL;
		if (!found)
			usage_error("'%c' is not a permission letter (%s)",
				    s[i], letters);
		perms |= 1u << (found - letters);
	}
	return perms;
}

static void add_rule(const char *path, unsigned int perms, bool missing_ok)
{
	if (!*path)
		usage_error("an empty path");
	if (nr_rules == rules_allocated) {
		rules_allocated = rules_allocated * 2 + 16;
		rules = must(reallocarray(rules, rules_allocated,
					  sizeof(*rules)));
	}
	rules[nr_rules++] = (struct rule){
		.path = path, .perms = perms, .missing_ok = missing_ok,
	};
}

/* Adds each path of a comma-separated list. */
static void add_rule_list(const char *list, unsigned int perms)
{
	char *copy = must(strdup(list)), *path, *rest = copy;

	while ((path = strsep(&rest, ",")))
		add_rule(path, perms, false);
	/* The rules keep pointing into @copy. */
}

/* -v LETTERS:PATHS */
static void add_unveil_option(const char *arg)
{
	const char *colon = strchr(arg, ':');

	if (!colon)
		usage_error("-v needs LETTERS:PATHS, got '%s'", arg);
	add_rule_list(colon + 1, parse_letters(arg, colon - arg));
}

/* Where a profile named without a slash is found. */
static char *profile_path(const char *name)
{
	char *path;

	if (strchr(name, '/'))
		return must(strdup(name));
	if (asprintf(&path, "%s/%s", UNVEIL_PROFILE_DIR, name) < 0)
		must(NULL);
	return path;
}

/* A profile's "~/x" is $HOME/x. */
static char *expand_home(const char *path)
{
	const char *home = getenv("HOME");
	char *expanded;

	if (strncmp(path, "~/", 2) && strcmp(path, "~"))
		return must(strdup(path));
	if (!home || !*home)
		return NULL;
	if (asprintf(&expanded, "%s%s", home, path + 1) < 0)
		must(NULL);
	return expanded;
}

/*
 * Reads a profile: one rule a line, LETTERS (or "-" for none), blanks and
 * the path, which runs to the end of the line; "#" starts a comment line.
 * A profile is meant for many machines: paths that do not exist here, and
 * paths under ~ without a HOME, are skipped.
 */
static void add_profile(const char *name)
{
	char *file = profile_path(name), *line = NULL, *path;
	size_t size = 0, number = 0, n;
	ssize_t len;
	FILE *f;

	f = fopen(file, "re");
	if (!f)
		fail("profile %s: %s", file, strerror(errno));
	while ((len = getline(&line, &size, f)) != -1) {
		number++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		n = strspn(line, " \t");
		if (!line[n] || line[n] == '#')
			continue;
		len = strcspn(line + n, " \t");
		path = line + n + len + strspn(line + n + len, " \t");
		if (!*path)
			fail("%s:%zu: a rule needs LETTERS and a PATH", file,
			     number);
		path = expand_home(path);
		if (!path)
			continue;
		if (len == 1 && line[n] == '-')
			len = 0;
		add_rule(path, parse_letters(line + n, len), true);
		rules[nr_rules - 1].from_profile = true;
	}
	if (ferror(f))
		fail("profile %s: %s", file, strerror(errno));
	fclose(f);
	free(line);
	free(file);
}

static void add_defaults(const struct default_rule *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		add_rule(list[i].path,
			 parse_letters(list[i].letters, strlen(list[i].letters)),
			 true);
		rules[nr_rules - 1].from_defaults = true;
	}
}

/* The terminal defaults, and each terminal of the standard streams. */
static void add_terminal_defaults(void)
{
	bool on_terminal = false;
	char *name;
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		if (!isatty(fd))
			continue;
		on_terminal = true;
		name = ttyname(fd);
		if (name)
			add_rule(must(strdup(name)), parse_letters("rw", 2),
				 true);
	}
	if (on_terminal)
		add_defaults(terminal_defaults, ARRAY_SIZE(terminal_defaults));
}

/* Unveils rx each directory of $PATH that exists (not the empty entries). */
static void add_path_dirs(void)
{
	char *dirs = must(strdup(getenv("PATH") ?: "/bin:/usr/bin"));
	char *dir, *rest = dirs;

	while ((dir = strsep(&rest, ":")))
		if (*dir)
			add_rule(dir, parse_letters("rx", 2), true);
	/* The rules keep pointing into @dirs. */
}

/*
 * Where PATH leads, with symlinks followed as unveil() follows them: the
 * path itself, or for a missing final name its real directory and the
 * name.  Anything else is left for unveil() to report.
 */
static char *resolve(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *real, *dir, *parent, *key;

	/*
	 * The process that unveils it is not always this one (--report and
	 * --learn fork first): unveil() follows /proc/self in the right one.
	 */
	if (!strncmp(path, "/proc/self", 10) &&
	    (!path[10] || path[10] == '/'))
		return must(strdup(path));
	real = realpath(path, NULL);
	if (real)
		return real;
	if (errno != ENOENT || (slash && !slash[1]))
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

static bool is_below(const char *dir, const char *path)
{
	size_t len = strlen(dir);

	if (!strcmp(dir, "/"))
		return path[0] == '/' && path[1];
	return !strncmp(dir, path, len) && path[len] == '/';
}

/* The first rule of the @n first that leads to @key, or NULL. */
static struct rule *first_rule_to(const char *key, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(rules[i].key, key))
			return &rules[i];
	return NULL;
}

/* Whether the directory that @path names a file in exists. */
static bool directory_exists(const char *path)
{
	char *dir = must(strdup(path)), *slash = strrchr(dir, '/');
	struct stat st;
	bool exists;

	if (slash)
		slash[slash == dir] = '\0';
	exists = !stat(slash ? dir : ".", &st) && S_ISDIR(st.st_mode);
	free(dir);
	return exists;
}

/* Whether the rule @r is for a path that is missing, and to be skipped. */
static bool skipped(const struct rule *r, bool ignore_missing)
{
	struct stat st;

	if (!(r->missing_ok || ignore_missing) || !stat(r->path, &st) ||
	    errno != ENOENT)
		return false;
	return ignore_missing || !r->from_profile || !directory_exists(r->path);
}

/*
 * Resolves every rule, drops the missing ones that may be missing, and
 * gives the rules that lead to the same place the letters of all of them
 * (/usr/bin/cc and /etc/alternatives/cc: each is unveiled as named).
 */
static void merge_rules(bool ignore_missing)
{
	struct rule *first;
	size_t i, n = 0;

	for (i = 0; i < nr_rules; i++) {
		if (skipped(&rules[i], ignore_missing))
			continue;
		rules[i].key = resolve(rules[i].path);
		first = first_rule_to(rules[i].key, n);
		if (first) {
			first->perms |= rules[i].perms;
			rules[i].alias = true;
		}
		rules[n++] = rules[i];
	}
	nr_rules = n;
	for (i = 0; i < nr_rules; i++)
		if (rules[i].alias)
			rules[i].perms = first_rule_to(rules[i].key, i)->perms;
}

/*
 * Says so when no rule lets the command read its current directory: paths
 * relative to it, and a return to it (find, tar -C), would fail.
 */
static void note_hidden_cwd(void)
{
	const struct rule *nearest = NULL;
	char *cwd = getcwd(NULL, 0);
	size_t i;

	if (!cwd)
		return;
	for (i = 0; i < nr_rules; i++)
		if ((!strcmp(rules[i].key, cwd) || is_below(rules[i].key, cwd)) &&
		    (!nearest || strlen(rules[i].key) > strlen(nearest->key)))
			nearest = &rules[i];
	if (!nearest || !(nearest->perms & parse_letters("r", 1)))
		fprintf(stderr, "unveil: the current directory %s is hidden from the command: -r . reveals it\n",
			cwd);
	free(cwd);
}

static const char *letters_of(unsigned int perms, char buf[sizeof(letters)])
{
	size_t i, n = 0;

	for (i = 0; letters[i]; i++)
		if (perms & (1u << i))
			buf[n++] = letters[i];
	buf[n] = '\0';
	return buf;
}

#define CREATE_BY_NAME \
	"fails: c on a file (unveil its directory with c)"

/*
 * Under Landlock (see unveil(2)): how the rule @r is not held exactly, or
 * NULL.  Landlock adds up the rights of a path's ancestors' rules, grants
 * creating and removing on whole directories only (unveil() refuses "c"
 * on a file), finds files when the veil is locked, and runs a program
 * only where it may also read it.
 */
static const char *landlock_gap(const struct rule *r)
{
	unsigned int above = 0, create = parse_letters("c", 1);
	unsigned int read = parse_letters("r", 1), run = parse_letters("x", 1);
	struct stat st;
	size_t i;

	if (r->from_defaults)
		return NULL;
	if ((stat(r->key, &st) || !S_ISDIR(st.st_mode)) && (r->perms & create))
		return CREATE_BY_NAME;
	if (stat(r->key, &st))
		return "grants nothing: the file does not exist";
	for (i = 0; i < nr_rules; i++)
		if (is_below(rules[i].key, r->key))
			above |= rules[i].perms;
	if (above & ~r->perms)
		return "takes no letter away from the rules above it";
	if ((r->perms & run) && !((r->perms | above) & read))
		return "runs nothing: x needs r as well";
	return NULL;
}

static size_t count_landlock_gaps(void)
{
	size_t i, n = 0;

	for (i = 0; i < nr_rules; i++)
		n += !rules[i].alias && landlock_gap(&rules[i]);
	return n;
}

static void print_rules(bool lock)
{
	bool landlock = unveil_mode() == UNVEIL_MODE_LANDLOCK;
	char buf[sizeof(letters)];
	const char *gap;
	size_t i;

	if (landlock)
		puts("# emulated with Landlock: hidden files give EACCES, stat() and attribute\n"
		     "# changes are not judged, and the veil is locked (see unveil(1))");
	for (i = 0; i < nr_rules; i++) {
		if (rules[i].alias)
			continue;
		gap = landlock ? landlock_gap(&rules[i]) : NULL;
		printf("%s %s%s%s\n", rules[i].perms ?
		       letters_of(rules[i].perms, buf) : "-", rules[i].key,
		       gap ? "\t# under Landlock it " : "", gap ? gap : "");
	}
	if (lock)
		puts("# then locked with unveil(NULL, NULL)");
}

/* Under Landlock, says once that the veil is weaker, and where. */
static void warn_if_emulated(void)
{
	size_t gaps;

	if (unveil_mode() != UNVEIL_MODE_LANDLOCK)
		return;
	gaps = count_landlock_gaps();
	fprintf(stderr, "unveil: warning: no unveil module in this kernel: Landlock enforces a weaker veil, locked (unveil(1))");
	if (gaps)
		fprintf(stderr, "; %zu rule%s not held exactly: see --print-rules",
			gaps, gaps == 1 ? "" : "s");
	fputc('\n', stderr);
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

/* Exits with a clear message unless unveil() can add rules. */
static void check_support(void)
{
	if (unveil_supported())
		return;
	if (errno == EPERM)
		fail("the veil is locked: %s", strerror(errno));
	if (errno == ENOSYS)
		fail("neither unveil(2) nor Landlock is active on this kernel (UNVEIL_UNPROTECTED=1 runs the command unprotected)");
	fail("unveil(2) cannot be used: %s", strerror(errno));
}

static void keep_fd(const char *arg)
{
	char *end;
	long fd;

	errno = 0;
	fd = strtol(arg, &end, 10);
	if (errno || *end || end == arg || fd < 0 || fd > INT_MAX)
		usage_error("--keep-fd needs a descriptor number, got '%s'",
			    arg);
	if (fcntl(fd, F_GETFD) == -1)
		fail("--keep-fd %ld: %s", fd, strerror(errno));
	kept_fds = must(reallocarray(kept_fds, nr_kept_fds + 1,
				     sizeof(*kept_fds)));
	kept_fds[nr_kept_fds++] = fd;
}

static int compare_fds(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Closes every descriptor above 2 that --keep-fd did not name. */
static void close_inherited_fds(void)
{
	unsigned int from = 3;
	size_t i;

	qsort(kept_fds, nr_kept_fds, sizeof(*kept_fds), compare_fds);
	for (i = 0; i < nr_kept_fds; i++) {
		if ((unsigned int)kept_fds[i] < from)
			continue;
		if ((unsigned int)kept_fds[i] > from &&
		    close_range(from, kept_fds[i] - 1, 0))
			fail("close_range: %s", strerror(errno));
		from = kept_fds[i] + 1;
	}
	if (close_range(from, ~0U, 0))
		fail("close_range: %s", strerror(errno));
}

static void forward_signal(int sig)
{
	kill(command_pid, sig);
}

/*
 * A refused call as /proc/PID/attr/unveil/refusals and learned write it
 * (the grammar is in unveil(2)).
 */
struct record {
	char op[32], needed[8], held[8];
	int err, pid;
	/* Decoded, allocated. */
	char *comm, *path;
	/* The kernel cut the path to fit. */
	bool path_cut;
};

/*
 * Decodes the quoted string at *@s (its bytes, its \xHH escapes) and moves
 * *@s past its closing quote and the "..." of a string cut to fit, which
 * sets *@cut.  Returns the string (allocated), or NULL if it is none.
 */
static char *parse_quoted(const char **s, bool *cut)
{
	const char *in = *s;
	char *text, *out;
	unsigned int byte;

	if (*in++ != '"')
		return NULL;
	text = out = must(malloc(strlen(in) + 1));
	for (; *in != '"'; in++) {
		if ((unsigned char)*in < ' ' || (unsigned char)*in >= 0x7f) {
			free(text);
			return NULL;
		}
		if (*in == '\\') {
			if (strspn(in + 2, "0123456789abcdef") < 2 ||
			    sscanf(in, "\\x%2x", &byte) != 1) {
				free(text);
				return NULL;
			}
			*out++ = byte;
			in += 3;
		} else {
			*out++ = *in;
		}
	}
	*out = '\0';
	in++;
	*cut = !strncmp(in, "...", 3);
	*s = in + (*cut ? 3 : 0);
	return text;
}

/* Parses one line of a record; false if it is none. */
static bool parse_record(const char *line, struct record *r)
{
	bool comm_cut;
	int n = 0;

	r->comm = r->path = NULL;
	if (sscanf(line, "op=%31s needed=%7s held=%7s errno=%d pid=%d comm=%n",
		   r->op, r->needed, r->held, &r->err, &r->pid, &n) != 5 || !n)
		return false;
	line += n;
	r->comm = parse_quoted(&line, &comm_cut);
	if (r->comm && !strncmp(line, " path=", 6)) {
		line += 6;
		r->path = parse_quoted(&line, &r->path_cut);
	}
	if (r->path && (!*line || !strcmp(line, "\n")))
		return true;
	free(r->comm);
	free(r->path);
	return false;
}

static void free_record(struct record *r)
{
	free(r->comm);
	free(r->path);
}

/*
 * Prints to standard error what /proc/PID/attr/unveil/refusals of the
 * exited (not yet reaped) command says: the count, then the last calls.
 */
static void print_refusals(pid_t pid)
{
	char path[64], *line = NULL;
	unsigned long long count;
	size_t size = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/attr/unveil/refusals", pid);
	f = fopen(path, "re");
	if (!f || getline(&line, &size, f) < 0 ||
	    sscanf(line, "refusals %llu", &count) != 1) {
		fprintf(stderr, "unveil: cannot read %s: %s\n", path,
			strerror(errno));
		goto out;
	}
	if (!count)
		fputs("unveil: the veil refused nothing\n", stderr);
	else if (count <= 16)
		fprintf(stderr, "unveil: the veil refused %llu call%s:\n",
			count, count == 1 ? "" : "s");
	else
		fprintf(stderr, "unveil: the veil refused %llu calls, the last 16 (%llu before them not kept):\n",
			count, count - 16);
	while (getline(&line, &size, f) > 0) {
		struct record record;

		if (!parse_record(line, &record))
			fail("--report: cannot parse: %s", line);
		free_record(&record);
		fprintf(stderr, "unveil:   %s", line);
	}
out:
	free(line);
	if (f)
		fclose(f);
}

/* Asks the kernel for a veil that records instead of refusing. */
static void start_learning(void)
{
	int fd = open("/proc/thread-self/attr/unveil/learn", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, "1", 1) != 1)
		fail("--learn: /proc/thread-self/attr/unveil/learn: %s",
		     strerror(errno));
	close(fd);
}

static unsigned int learned_letters(const char *s)
{
	return strcmp(s, "-") ? parse_letters(s, strlen(s)) : 0;
}

/*
 * Adds @path (taken) to the learned rules, or what it needed to its rule:
 * @stat_only if it was only looked at, @made if the command made it,
 * @made_dir if it made it a directory.
 */
static void learn_target(char *path, unsigned int perms, bool stat_only,
			 bool made, bool made_dir)
{
	size_t i;

	for (i = 0; i < nr_learned; i++) {
		if (!strcmp(learned[i].path, path)) {
			learned[i].perms |= perms;
			learned[i].stat_only &= stat_only;
			learned[i].made |= made;
			learned[i].made_dir |= made_dir;
			free(path);
			return;
		}
	}
	if (nr_learned == learned_allocated) {
		learned_allocated = learned_allocated * 2 + 16;
		learned = must(reallocarray(learned, learned_allocated,
					    sizeof(*learned)));
	}
	learned[nr_learned++] = (struct learned){
		path, perms, stat_only, made, made_dir
	};
}

/*
 * /proc/PID of the command, or of a process it started that is gone with
 * it, is /proc/self when it runs again: each process looks at its own.
 */
static char *self_path(char *path)
{
	char *end, *self;
	long pid;

	if (strncmp(path, "/proc/", 6))
		return path;
	errno = 0;
	pid = strtol(path + 6, &end, 10);
	if (end == path + 6 || errno || pid <= 0 || (*end && *end != '/'))
		return path;
	if (pid != command_pid && (!kill(pid, 0) || errno != ESRCH))
		return path;
	if (asprintf(&self, "/proc/self%s", end) < 0)
		must(NULL);
	free(path);
	return self;
}

static char *parent_of(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash == path)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	return path;
}

/* Operations that make a name. */
static bool is_making_op(const char *op)
{
	static const char *const ops[] = {
		"create", "mknod", "mkdir", "symlink", "link",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

/*
 * Reads one line of /proc/PID/attr/unveil/learned into a rule: the object,
 * or the name made, removed or renamed, with the letters it needed and
 * those it had.  A call that only looked (stat(), open(O_PATH)) needs no
 * rule on an ancestor of another rule, which is inspectable.  Returns false
 * for a call no rule allows.
 */
static bool learn_line(const char *line)
{
	struct record r;
	unsigned int perms;
	bool looked;
	char *path;

	if (!parse_record(line, &r))
		fail("--learn: cannot parse: %s", line);
	perms = learned_letters(r.needed);
	/* The mount family, and the capabilities: refused under any veil. */
	if (!perms && r.err == EPERM) {
		free_record(&r);
		return false;
	}
	looked = !perms || !strcmp(r.op, "stat");
	/* Where it is not inspectable, looking needs a rule that shows it. */
	if (!perms)
		perms = learned_letters("r");
	/* "?": the kernel could not name it (too long, no memory). */
	if (r.path[0] != '/') {
		free_record(&r);
		return false;
	}
	path = self_path(r.path);
	r.path = NULL;
	learn_target(path, perms | learned_letters(r.held), looked,
		     is_making_op(r.op), !strcmp(r.op, "mkdir"));
	free_record(&r);
	return true;
}


static size_t depth_of(const char *path)
{
	size_t depth = 0;

	for (; *path; path++)
		depth += *path == '/' && path[1];
	return depth;
}

static void drop_learned(size_t i)
{
	free(learned[i].path);
	learned[i] = learned[--nr_learned];
}

/*
 * A directory the command made is its own: one rule on its name, with the
 * letters of all that was done in it, covers it and all it holds (a rule
 * on a name holds for what is made there).
 */
static void fold_into_made_dirs(void)
{
	size_t i, j;

	for (i = 0; i < nr_learned; i++) {
		if (!learned[i].made_dir)
			continue;
		for (j = 0; j < nr_learned; j++) {
			if (!is_below(learned[i].path, learned[j].path))
				continue;
			learned[i].perms |= learned[j].perms;
			drop_learned(j);
			/* drop_learned() moved the last entry to @j. */
			if (i == nr_learned)
				i = j;
			j--;
		}
	}
}

/*
 * A name the command made and that is gone when it exits was a temporary
 * (sed -i, editors, mkstemp()): the next run picks another name, so its
 * directory gets the letters instead.
 */
static void generalize_temporaries(void)
{
	size_t i, n = nr_learned;
	struct stat st;

	for (i = 0; i < n; i++) {
		if (!learned[i].made || !lstat(learned[i].path, &st) ||
		    errno != ENOENT)
			continue;
		learn_target(parent_of(must(strdup(learned[i].path))),
			     learned[i].perms, false, false, false);
		drop_learned(i);
		/* drop_learned() moved the last entry to @i: look at it too. */
		if (n > nr_learned)
			n--;
		i--;
	}
}

/* Whether @dir holds a learned or a given rule. */
static bool is_ancestor_of_a_rule(const char *dir)
{
	size_t i;

	for (i = 0; i < nr_learned; i++)
		if (is_below(dir, learned[i].path))
			return true;
	for (i = 0; i < nr_rules; i++)
		if (is_below(dir, rules[i].key))
			return true;
	return false;
}

/* stat() of an ancestor of a rule needs no rule: it is inspectable. */
static void drop_inspectable(void)
{
	size_t i;

	for (i = 0; i < nr_learned; i++) {
		if (!learned[i].stat_only)
			continue;
		if (is_ancestor_of_a_rule(learned[i].path))
			drop_learned(i--);
	}
}

/* Whether @entry is one of the rules of @dir that coalesce_once() merges. */
static bool merges_into(const struct learned *entry, const char *dir,
			unsigned int perms)
{
	return entry->perms == perms && !entry->stat_only &&
	       is_below(dir, entry->path) &&
	       !strchr(entry->path + strlen(dir) + 1, '/');
}

/*
 * A directory (below the top level) where three or more rules with the same
 * letters would sit gets one rule instead; again, up the tree.  Only for
 * reading and executing: a rule never lets a command write, create or
 * remove more than it did.
 */
static bool coalesce_once(void)
{
	const unsigned int read = learned_letters("r");
	const unsigned int exec = learned_letters("x");
	size_t i, j, siblings;
	unsigned int perms;
	char *dir;

	for (i = 0; i < nr_learned; i++) {
		perms = learned[i].perms;
		if (perms & ~(read | exec) || learned[i].stat_only)
			continue;
		dir = parent_of(must(strdup(learned[i].path)));
		siblings = 0;
		for (j = 0; j < nr_learned; j++)
			siblings += merges_into(&learned[j], dir, perms);
		if (siblings < 3 || depth_of(dir) < 2) {
			free(dir);
			continue;
		}
		for (j = 0; j < nr_learned; j++)
			if (merges_into(&learned[j], dir, perms))
				drop_learned(j--);
		learn_target(dir, perms, false, false, false);
		return true;
	}
	return false;
}

static int compare_learned(const void *a, const void *b)
{
	return strcmp(((const struct learned *)a)->path,
		      ((const struct learned *)b)->path);
}

/*
 * The most specific rule wins: a rule below another one keeps that one's
 * letters, and is not needed when it adds none.  Sorted, a directory comes
 * before what is below it.
 */
static void drop_covered(void)
{
	struct learned *nearest;
	size_t i, j, kept = 0;

	qsort(learned, nr_learned, sizeof(*learned), compare_learned);
	for (i = 0; i < nr_learned; i++) {
		nearest = NULL;
		for (j = 0; j < kept; j++)
			if (is_below(learned[j].path, learned[i].path) &&
			    (!nearest ||
			     strlen(learned[j].path) > strlen(nearest->path)))
				nearest = &learned[j];
		if (nearest && !(learned[i].perms & ~nearest->perms)) {
			free(learned[i].path);
			continue;
		}
		if (nearest)
			learned[i].perms |= nearest->perms;
		learned[kept++] = learned[i];
	}
	nr_learned = kept;
}

/* The learned rules as a profile; a rule for what was only stat()ed says so. */
static void write_profile(FILE *out)
{
	char buf[sizeof(letters)];
	size_t i;

	for (i = 0; i < nr_learned; i++) {
		/* A profile's rule is a line: its path cannot hold a newline. */
		if (strchr(learned[i].path, '\n')) {
			fputs("# left out: a rule for a path with a newline in it\n",
			      out);
			continue;
		}
		if (learned[i].stat_only)
			fputs("# only looked at (stat, O_PATH), but r lets it be read too: review\n",
			      out);
		fprintf(out, "%s %s\n", letters_of(learned[i].perms, buf),
			learned[i].path);
	}
}

/* The learned rules, as -v options and as a profile (also to @file). */
static void print_learned(const char *file)
{
	char buf[sizeof(letters)];
	FILE *out;
	size_t i;

	fprintf(stderr, "unveil: learned %zu rule%s", nr_learned,
		nr_learned == 1 ? "" : "s");
	if (!nr_learned) {
		fputs(": the veil would have refused nothing\n", stderr);
	} else {
		fputs("; add them to the options:\nunveil:  ", stderr);
		for (i = 0; i < nr_learned; i++)
			fprintf(stderr, " -v %s:%s",
				letters_of(learned[i].perms, buf),
				learned[i].path);
		fputs("\nunveil: or as a profile:\n", stderr);
		write_profile(stderr);
	}
	if (!file)
		return;
	out = fopen(file, "we");
	if (!out)
		fail("--learn=%s: %s", file, strerror(errno));
	fputs("# learned by unveil --learn\n", out);
	write_profile(out);
	if (fclose(out))
		fail("--learn=%s: %s", file, strerror(errno));
}

/*
 * Reads /proc/PID/attr/unveil/learned of the exited (not yet reaped)
 * command, turns it into as few rules as it takes, and prints them.
 */
static void print_learned_rules(pid_t pid, const char *file)
{
	unsigned long long dropped;
	char path[64], *line = NULL;
	size_t size = 0;
	unsigned int count;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/attr/unveil/learned", pid);
	f = fopen(path, "re");
	if (!f || getline(&line, &size, f) < 0 ||
	    sscanf(line, "learned %u dropped %llu", &count, &dropped) != 2)
		fail("--learn: cannot read %s: %s", path, strerror(errno));
	while (getline(&line, &size, f) > 0)
		if (!learn_line(line))
			fprintf(stderr, "unveil: no rule allows %s", line);
	if (dropped)
		fprintf(stderr, "unveil: %llu calls were not recorded: run again with the rules below\n",
			dropped);
	fclose(f);
	free(line);

	fold_into_made_dirs();
	generalize_temporaries();
	drop_inspectable();
	while (coalesce_once())
		;
	drop_covered();
	print_learned(file);
}

/*
 * --report and --learn: waits for the command to exit, prints its refusals
 * or the rules it needed while it is a zombie (its veil lives as long as it
 * is not reaped), and returns its exit status, or 128 + the signal that
 * killed it.
 */
static int report_when_done(pid_t pid, bool report, bool learn,
			    const char *learn_file)
{
	struct sigaction forward = { .sa_handler = forward_signal };
	siginfo_t info;
	int status;

	command_pid = pid;
	/* The terminal sends these to the command as well. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	sigaction(SIGTERM, &forward, NULL);
	sigaction(SIGHUP, &forward, NULL);
	while (waitid(P_PID, pid, &info, WEXITED | WNOWAIT))
		if (errno != EINTR)
			fail("waitid: %s", strerror(errno));
	if (report)
		print_refusals(pid);
	if (learn)
		print_learned_rules(pid, learn_file);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			fail("waitpid: %s", strerror(errno));
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int main(int argc, char *argv[])
{
	enum {
		OPT_PERM = 256, OPT_RO, OPT_RX, OPT_RW, OPT_RWC, OPT_PROFILE,
		OPT_IGNORE_MISSING, OPT_PATH, OPT_NO_DEFAULTS, OPT_CHDIR,
		OPT_KEEP_FD, OPT_PRINT_RULES, OPT_REPORT, OPT_LEARN,
		OPT_VERSION,
	};
	static const struct option options[] = {
		{ "perm", required_argument, NULL, OPT_PERM },
		{ "ro", required_argument, NULL, OPT_RO },
		{ "rx", required_argument, NULL, OPT_RX },
		{ "rw", required_argument, NULL, OPT_RW },
		{ "rwc", required_argument, NULL, OPT_RWC },
		{ "unveil", required_argument, NULL, 'v' },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "ignore-missing", no_argument, NULL, OPT_IGNORE_MISSING },
		{ "lock", no_argument, NULL, 'l' },
		{ "path", no_argument, NULL, OPT_PATH },
		{ "no-defaults", no_argument, NULL, OPT_NO_DEFAULTS },
		{ "chdir", required_argument, NULL, OPT_CHDIR },
		{ "keep-fd", required_argument, NULL, OPT_KEEP_FD },
		{ "print-rules", no_argument, NULL, OPT_PRINT_RULES },
		{ "report", no_argument, NULL, OPT_REPORT },
		{ "learn", optional_argument, NULL, OPT_LEARN },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{}
	};
	static const char *const list_letters[] = {
		[OPT_RO - OPT_RO] = "r", [OPT_RX - OPT_RO] = "rx",
		[OPT_RW - OPT_RO] = "rw", [OPT_RWC - OPT_RO] = "rwc",
	};
	bool lock = false, use_defaults = true, use_path = false;
	bool ignore_missing = false, print_only = false, report = false;
	bool learn = false;
	const char *chdir_to = NULL, *learn_file = NULL;
	char buf[sizeof(letters)], *cmd = NULL;
	int opt, err;
	size_t i;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:r:w:x:c:v:lh", options,
				  NULL)) != -1) {
		switch (opt) {
		case 'r':
		case 'w':
		case 'x':
		case 'c':
			add_rule(optarg, parse_letters((char[]){ opt }, 1),
				 false);
			break;
		case OPT_PERM:
			if (optind >= argc)
				usage_error("--perm needs LETTERS and a PATH");
			add_rule(argv[optind++],
				 parse_letters(optarg, strlen(optarg)), false);
			break;
		case OPT_RO:
		case OPT_RX:
		case OPT_RW:
		case OPT_RWC:
			add_rule_list(optarg, parse_letters(
				list_letters[opt - OPT_RO],
				strlen(list_letters[opt - OPT_RO])));
			break;
		case 'v':
			add_unveil_option(optarg);
			break;
		case OPT_PROFILE:
			add_profile(optarg);
			break;
		case OPT_IGNORE_MISSING:
			ignore_missing = true;
			break;
		case 'l':
			lock = true;
			break;
		case OPT_PATH:
			use_path = true;
			break;
		case OPT_NO_DEFAULTS:
			use_defaults = false;
			break;
		case OPT_CHDIR:
			chdir_to = optarg;
			break;
		case OPT_KEEP_FD:
			keep_fd(optarg);
			break;
		case OPT_PRINT_RULES:
			print_only = true;
			break;
		case OPT_REPORT:
			report = true;
			break;
		case OPT_LEARN:
			learn = true;
			learn_file = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case OPT_VERSION:
			printf("unveil (unveil for Linux) " UNVEIL_VERSION
			       "\nunveil() here: %s\n",
			       unveil_mode_name(unveil_mode()));
			return 0;
		case ':':
			usage_error("option '%s' needs an argument",
				    argv[optind - 1]);
		default:
			if (optopt)
				usage_error("invalid option -- '%c'", optopt);
			usage_error("unrecognized option '%s'",
				    argv[optind - 1]);
		}
	}
	if (optind >= argc && !print_only)
		usage_error("no command given");
	if (chdir_to && chdir(chdir_to))
		fail("--chdir %s: %s", chdir_to, strerror(errno));
	if (!print_only)
		check_support();
	if ((report || learn) && unveil_mode() != UNVEIL_MODE_KERNEL)
		fail("--%s needs the unveil security module, which this kernel does not have",
		     learn ? "learn" : "report");

	if (optind < argc) {
		cmd = find_command(argv[optind]);
		if (!cmd) {
			fprintf(stderr, "unveil: %s: command not found\n",
				argv[optind]);
			return EXIT_NOT_FOUND;
		}
		add_rule(cmd, parse_letters("rx", 2), false);
	}
	if (use_defaults) {
		add_defaults(defaults, ARRAY_SIZE(defaults));
		add_terminal_defaults();
	}
	if (use_path)
		add_path_dirs();
	merge_rules(ignore_missing);

	if (print_only) {
		print_rules(lock);
		return 0;
	}
	if (!learn)
		note_hidden_cwd();
	warn_if_emulated();
	if (report || learn) {
		/* The veil is the command's: this process stays outside. */
		fflush(NULL);
		command_pid = fork();
		if (command_pid < 0)
			fail("fork: %s", strerror(errno));
		if (command_pid)
			return report_when_done(command_pid, report, learn,
						learn_file);
	}
	if (learn)
		start_learning();
	if (learn && lock)
		fputs("unveil: --learn: the veil is not locked, as a learning veil cannot be\n",
		      stderr);
	for (i = 0; i < nr_rules; i++)
		/* As named: the symlinks on the way become inspectable. */
		if (unveil(rules[i].path, letters_of(rules[i].perms, buf))) {
			err = errno;
			fail("%s: %s%s", rules[i].path, strerror(err),
			     err == EOPNOTSUPP &&
			     unveil_mode() == UNVEIL_MODE_LANDLOCK ?
			     "; under Landlock it " CREATE_BY_NAME : "");
		}
	/*
	 * A learning veil cannot be locked: the command runs unlocked.  An
	 * emulated one is enforced only once it is locked.
	 */
	if ((lock || unveil_mode() != UNVEIL_MODE_KERNEL) && !learn &&
	    unveil(NULL, NULL))
		fail("unveil(NULL, NULL): %s", strerror(errno));
	close_inherited_fds();

	execv(cmd, argv + optind);
	err = errno;
	fprintf(stderr, "unveil: %s: %s%s\n", cmd, strerror(err),
		err == ENOENT && !access(cmd, F_OK) ?
		" (its interpreter is missing or hidden)" : "");
	return err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
