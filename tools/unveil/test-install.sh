#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of "make install" on the host: every header the man pages name is
# installed, their SYNOPSIS and EXAMPLES compile against it, man finds every
# name the pages document, and the installed launcher finds its profiles.
# Prints TAP; exits non-zero if a test failed.
# Usage: sh tools/unveil/test-install.sh   (from the top of the repository)

. tools/unveil/tap.sh
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

out=$(make -s -B build/host/unveil install PREFIX="$prefix" 2>&1); rc=$?
check make_install_succeeds 0 ''

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
	sed -n '/^SYNOPSIS/,/^ *Feature Test/p' | sed '1d;$d' > "$synopsis"
out=$(cat "$synopsis"; gcc -std=c11 -D_DEFAULT_SOURCE -Wall -Werror \
	-I"$prefix/include" -fsyntax-only "$synopsis" 2>&1); rc=$?
check unveil_2_synopsis_compiles 0 'int unveil_supported(void);'

example=$prefix/example.c
sed -n '/^\.\\" SRC BEGIN/,/^\.\\" SRC END/p' man/man2/unveil.2 |
	sed '1d;$d;/^\.EX$/d;/^\.EE$/d;s/^\\&$//;s/\\e/\\/g;s/\\-/-/g' > "$example"
out=$(gcc -Wall -Werror -I"$prefix/include" -o "$prefix/example" \
	"$example" 2>&1); rc=$?
check unveil_2_example_compiles 0 ''

for name in unveil.1 unveil.2 unveil_supported.2 unveil_active.2; do
	out=$(man -M "$prefix/share/man" -w "${name#*.}" "${name%.*}" 2>&1); rc=$?
	check "man_finds_${name%.*}_in_section_${name#*.}" 0 \
		"^$prefix/share/man/man${name#*.}/unveil.${name#*.}$"
done

for profile in git python3 sqlite3 tar; do
	out=$("$prefix/bin/unveil" --print-rules --no-defaults \
		--profile "$profile" 2>&1); rc=$?
	check "installed_launcher_finds_the_${profile}_profile" 0 "^rx .*/$profile"
done

# This machine's kernel has no unveil: <unveil.h> must not make the call.
if gcc -O2 -Wall -Werror -I"$prefix/include" -o "$prefix/test-header" \
	tools/unveil/test-header.c && ! "$prefix/test-header" absent |
	grep -q '^not ok'; then
	rc=0
else
	rc=1
fi
out=$("$prefix/test-header" absent 2>&1)
check header_on_this_kernel_without_unveil 0 '^1\.\.3$'

finish
