#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of "make install" on the host: every header the man pages name is
# installed, their SYNOPSIS and EXAMPLES compile against it, man finds every
# name the pages document, the installed launcher finds its profiles, and
# libunveil serves programs written for OpenBSD through pkg-config: an
# OpenBSD-style configure probe finds unveil() in <unistd.h>, and such a
# program builds unchanged and runs confined (this machine's kernel has
# Landlock, not unveil).
# Prints TAP; exits non-zero if a test failed.
# Usage: sh tools/unveil/test-install.sh   (from the top of the repository)

. tools/unveil/tap.sh
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

out=$(make -s -B build/host/unveil install PREFIX="$prefix" 2>&1); rc=$?
check make_install_succeeds 0 ''
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
libs="$(pkg-config --libs unveil) -Wl,-rpath,$prefix/lib"

# The headers man/ names: <unveil.h>, <linux/unveil.h>.
missing=
for header in $(grep -oh '<[a-z/]*unveil\.h>' man/man*/* | tr -d '<>' |
		sort -u); do
	[ -f "$prefix/include/$header" ] || missing="$missing $header"
done
rc=0 out=$missing
[ -z "$missing" ] || rc=1
check every_header_the_pages_name_is_installed 0 ''

# The SYNOPSIS as man renders it, compiled as C.
synopsis=$prefix/synopsis.c
MANWIDTH=200 man -l man/man2/unveil.2 2>/dev/null | col -b |
	sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed '1d;$d' > "$synopsis"
out=$(cat "$synopsis"; gcc -std=c11 -D_DEFAULT_SOURCE -Wall -Werror \
	-I"$prefix/include" -fsyntax-only "$synopsis" 2>&1); rc=$?
check unveil_2_synopsis_compiles 0 'int unveil_supported(void);'

example=$prefix/example.c
sed -n '/^\.\\" SRC BEGIN/,/^\.\\" SRC END/p' man/man2/unveil.2 |
	sed '1d;$d;/^\.EX$/d;/^\.EE$/d;s/^\\&$//;s/\\e/\\/g;s/\\-/-/g' > "$example"
out=$(gcc -Wall -Werror $(pkg-config --cflags unveil) -o "$prefix/example" \
	"$example" $libs 2>&1); rc=$?
check unveil_2_example_compiles 0 ''

for name in unveil.1 unveil.2 unveil_supported.2 unveil_active.2 \
	unveil_mode.2 unveil_mode_name.2 unveil_permit_unprotected.2; do
	out=$(man -M "$prefix/share/man" -w "${name#*.}" "${name%.*}" 2>&1); rc=$?
	check "man_finds_${name%.*}_in_section_${name#*.}" 0 \
		"^$prefix/share/man/man${name#*.}/unveil.${name#*.}$"
done

for profile in git python3 sqlite3 tar; do
	out=$("$prefix/bin/unveil" --print-rules --no-defaults \
		--profile "$profile" 2>&1); rc=$?
	check "installed_launcher_finds_the_${profile}_profile" 0 "^rx .*/$profile"
done

# The configure probe of OpenBSD ports: <unistd.h>, unveil(NULL, NULL), link.
probe=$prefix/conftest.c
printf '#include <unistd.h>\nint main(void) { return unveil(NULL, NULL); }\n' \
	> "$probe"
out=$(gcc -Wall -Werror $(pkg-config --cflags unveil) -o "$prefix/conftest" \
	"$probe" $libs 2>&1 && "$prefix/conftest" && echo found); rc=$?
check openbsd_configure_probe_finds_unveil_with_pkg_config 0 '^found$'
out=$(gcc -Wall -Werror -o "$prefix/conftest" "$probe" 2>&1); rc=$?
check the_probe_fails_without_pkg_config 1 'implicit declaration'
printf 'char unveil(void);\nint main(void) { return unveil(); }\n' > "$probe"
out=$(gcc -o "$prefix/conftest" "$probe" $libs 2>&1); rc=$?
check autoconf_check_funcs_links_unveil 0 ''

mkdir "$prefix/work"
out=$(gcc -Wall -Werror $(pkg-config --cflags unveil) \
	-o "$prefix/openbsd-program" libunveil/test-openbsd-program.c $libs \
	2>&1 && "$prefix/openbsd-program" "$prefix/work" /etc/hostname); rc=$?
check openbsd_program_builds_unchanged_and_runs_confined_by_landlock 0 \
	'^confined: /etc/hostname: Permission denied$'
out=$(gcc -static $(pkg-config --cflags unveil) \
	-o "$prefix/openbsd-program" libunveil/test-openbsd-program.c \
	$(pkg-config --static --libs unveil) 2>&1 &&
	"$prefix/openbsd-program" "$prefix/work" /etc/hostname); rc=$?
check openbsd_program_links_statically 0 '^confined: '

out=$("$prefix/bin/unveil" --version 2>&1); rc=$?
check installed_launcher_says_landlock_on_this_kernel 0 '^unveil() here: landlock$'

# The kernel series' own header (tools/unveil/unveil.h, for its samples)
# must not make the call on a kernel without unveil.
if gcc -O2 -Wall -Werror -o "$prefix/test-header" \
	tools/unveil/test-header.c && ! "$prefix/test-header" absent |
	grep -q '^not ok'; then
	rc=0
else
	rc=1
fi
out=$("$prefix/test-header" absent 2>&1)
check header_on_this_kernel_without_unveil 0 '^1\.\.3$'

finish
