# SPDX-License-Identifier: GPL-2.0
# Shared settings for the project's scripts; sourced, never run.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$top/build
tree=$build/linux
jobs=$(nproc)

# ccache: paths are hashed relative to the clone, so a fresh clone in another
# folder (CI) hits the cache filled by an earlier one.
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$top
export CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime,file_stat_matches
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# Reproducible build metadata: identical inputs give identical objects.
export KBUILD_BUILD_TIMESTAMP='2026-12-01'
export KBUILD_BUILD_USER=unveil KBUILD_BUILD_HOST=build
export KBUILD_BUILD_VERSION=1

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Adds the TAP results of log $1 ("ok N name", "not ok N name", "ok N name
# # SKIP") to the caller's $passed, $failed and $skipped.
count_tap() {
	local p f s
	p=$(grep -cE '^ok [0-9]+ ' "$1")
	s=$(grep -cE '^ok [0-9]+ .*# SKIP' "$1")
	f=$(grep -cE '^not ok [0-9]+ ' "$1")
	passed=$((passed + p - s)) skipped=$((skipped + s)) failed=$((failed + f))
}

# "NAME pass:N skip:N" for each kselftest in log $1, in the order they ran.
selftest_totals() {
	sed -nE -e 's/^# selftest: (.*)/\1/p' \
		-e 's/^# Totals: pass:([0-9]+) fail:[0-9]+ xfail:[0-9]+ xpass:[0-9]+ skip:([0-9]+).*/ pass:\1 skip:\2/p' "$1" |
		paste -d '' - -
}

# Prints TAP result "ok 1 $2" when status $1 is 0, else "not ok 1 $2", and
# counts it in the caller's $passed or $failed.
tap_result() {
	if [ "$1" = 0 ]; then
		echo "ok 1 $2"
		passed=$((passed + 1))
	else
		echo "not ok 1 $2"
		failed=$((failed + 1))
	fi
}

# Prints the summary "N passed, N failed[, N skipped]" of the caller's
# counts; fails when something failed or nothing passed.
summary() {
	local line="$passed passed, $failed failed"

	[ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
	echo "$line"
	[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}
