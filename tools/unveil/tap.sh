# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the launcher's test scripts; sourced, never run.
#   run ARGS...                       runs unveil ARGS..., keeps $rc and $out
#   check NAME STATUS PATTERN         one TAP line: $rc is STATUS and $out
#                                     matches PATTERN (grep)
#   finish                            the plan line; exit status 1 if a
#                                     check failed

n=0 failed=0

check() {
	n=$((n + 1))
	if [ "$rc" = "$2" ] && printf '%s\n' "$out" | grep -q -e "$3"; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		echo "# expected status $2 and output matching '$3', got $rc:"
		printf '%s\n' "$out" | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}

run() {
	out=$(unveil "$@" 2>&1 </dev/null)
	rc=$?
}

finish() {
	echo "1..$n"
	[ $failed = 0 ]
}
