// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of <unveil.h> (tools/unveil/unveil.h): unveil() makes the system
 * call only where the unveil security module is active.  Prints TAP.
 *
 * Usage: test-header active|inactive|absent
 *   active     the running kernel has unveil enabled
 *   absent     it has no unveil (run on the host: Linux 6.13 and later
 *              have setxattrat at 463)
 *   inactive   it has unveil built in but not enabled (lsm= without it):
 *              the system call itself then fails with EOPNOTSUPP, so
 *              ENOSYS from unveil() shows that it did not make the call,
 *              as it must not on a kernel where another system call has
 *              unveil's number (mainline 6.13 gave 463 to setxattrat)
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "unveil.h"

static int tests, failures;

static void report(int ok, const char *name, const char *detail)
{
	tests++;
	if (!ok)
		failures++;
	printf("%sok %d %s\n", ok ? "" : "not ", tests, name);
	if (!ok)
		printf("# %s\n", detail);
}

/* In a child, which takes its veil with it: 0 if unveil_supported() was
 * 1 and the process is still not veiled.
 */
static int unveil_supported_leaves_no_veil(void)
{
	char rules[4096];
	pid_t pid;
	size_t n;
	FILE *f;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (!unveil_supported())
			_exit(2);
		f = fopen("/proc/self/attr/unveil/rules", "re");
		if (!f)
			_exit(3);
		n = fread(rules, 1, sizeof(rules) - 1, f);
		rules[n] = '\0';
		_exit(strstr(rules, "veiled no") ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(int argc, char *argv[])
{
	char detail[128];
	int status;

	if (argc != 2 || (strcmp(argv[1], "active") &&
			  strcmp(argv[1], "inactive") &&
			  strcmp(argv[1], "absent"))) {
		fputs("usage: test-header active|inactive|absent\n", stderr);
		return 2;
	}
	if (!strcmp(argv[1], "active")) {
		report(unveil_active(),
		       "unveil_active_is_1_when_the_module_is_active",
		       "unveil_active() returned 0");
		status = unveil_supported_leaves_no_veil();
		snprintf(detail, sizeof(detail), "child status %d", status);
		report(status == 0, "unveil_supported_is_1_and_leaves_no_veil",
		       detail);
	} else {
		errno = 0;
		report(!unveil_active() && errno == ENOSYS,
		       "unveil_active_is_0_with_enosys_when_not_active",
		       strerror(errno));
		errno = 0;
		if (!strcmp(argv[1], "inactive"))
			report(syscall(__NR_unveil, "/", "r") == -1 &&
			       errno == EOPNOTSUPP,
			       "the_system_call_itself_fails_with_eopnotsupp",
			       strerror(errno));
		errno = 0;
		report(unveil("/", "r") == -1 && errno == ENOSYS,
		       "unveil_fails_with_enosys_without_the_system_call",
		       strerror(errno));
		errno = 0;
		report(!unveil_supported() && errno == ENOSYS,
		       "unveil_supported_is_0_with_enosys_without_the_call",
		       strerror(errno));
	}
	printf("1..%d\n", tests);
	return failures != 0;
}
