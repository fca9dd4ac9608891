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

# make in the kernel tree, with ccache, its objects in $tree/$1 (a relative
# path, which ccache hashes the same in every clone), for architecture $2
# with the cross compiler prefix $3 (both empty: the host's).
kernel_make() {
	local obj=$1 arch=$2 cross=$3

	shift 3
	make -C "$tree" O="$obj" -s -j"$jobs" ${arch:+ARCH=$arch} \
		${cross:+CROSS_COMPILE=$cross} CC="ccache ${cross}gcc" \
		HOSTCC="ccache gcc" "$@"
}

# Prints a step, with the minutes and seconds since the script started.
say() {
	printf '\033[1m==> [%d:%02d] %s\033[0m\n' $((SECONDS / 60)) $((SECONDS % 60)) \
		"$*" >&2
}
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Adds the results in log $1 to the caller's $passed, $failed and $skipped:
# its TAP lines ("ok N name", "not ok N name", "ok N name # SKIP"), and
# the last summary of KUnit's kunit.py in it ("Testing complete. Ran N
# tests: passed: N, failed: N, crashed: N, skipped: N, errors: N"), where
# crashes and errors count as failures.
count_tap() {
	local kunit field n

	n=$(grep -cE '^ok [0-9]+ .*# SKIP' "$1")
	skipped=$((skipped + n))
	passed=$((passed + $(grep -cE '^ok [0-9]+ ' "$1") - n))
	failed=$((failed + $(grep -cE '^not ok [0-9]+ ' "$1")))
	kunit=$(grep -o 'Testing complete\. Ran [0-9]* tests:.*' "$1" | tail -n 1)
	for field in passed failed crashed skipped errors; do
		n=$(sed -n "s/.*[ ,]$field: \([0-9]*\).*/\1/p" <<<"$kunit")
		case $field in
		passed) passed=$((passed + ${n:-0})) ;;
		skipped) skipped=$((skipped + ${n:-0})) ;;
		*) failed=$((failed + ${n:-0})) ;;
		esac
	done
}

# Whether log $1 holds a summary of KUnit's kunit.py.
has_kunit_summary() {
	grep -q 'Testing complete\. Ran [0-9]* tests:' "$1"
}

# "NAME: N of M cases passed" for each kselftest in log $1, in the order
# they ran.
selftest_cases() {
	grep -E '^# selftest: |^# (PASSED|FAILED): ' "$1" | paste -d' ' - - |
		sed -E 's/^# selftest: ([a-z_]+) # (PASSED|FAILED): ([0-9]+) \/ ([0-9]+) .*/\1: \3 of \4 cases passed/'
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
