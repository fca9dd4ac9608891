#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of the unveil launcher on a kernel that has Landlock and not the
# unveil module (this machine's own kernel, or the VM booted with
# lsm=landlock): it runs the command under the emulated veil, says so, and
# shows which rules Landlock cannot hold.  Prints TAP; exits non-zero if a
# test failed.
# Usage: sh test-launcher-landlock.sh   (with the launcher in PATH)

. ./tap.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/work" "$dir/outside" "$dir/work/sub"
echo secret > "$dir/outside/f"
# A program of its own: one that the shell is not.
printf '#!/bin/sh\nexit 0\n' > "$dir/work/prog"
chmod +x "$dir/work/prog"

run --version
check version_says_unveil_is_emulated_with_landlock 0 '^unveil() here: landlock$'

run --rwc "$dir/work" -- sh -c "echo made > $dir/work/f && read l < $dir/work/f && echo \$l"
check the_command_works_in_its_unveiled_directory 0 '^made$'

run --rwc "$dir/work" -- sh -c "read l < $dir/outside/f || echo refused"
check a_file_outside_is_refused_with_eacces 0 'outside/f: Permission denied'

run --rwc "$dir/work" -- true
check a_warning_says_the_veil_is_weaker 0 \
	'^unveil: warning: no unveil module in this kernel: Landlock enforces a weaker veil, locked (unveil(1))$'

run -r "$dir/work" -v ":$dir/work/sub" -- true
check the_warning_counts_the_rules_not_held_exactly 0 \
	'; 1 rule not held exactly: see --print-rules$'

run --print-rules --no-defaults -r "$dir/work" -v ":$dir/work/sub" \
	-c "$dir/outside/new"
check print_rules_shows_what_landlock_cannot_hold 0 \
	"^- $dir/work/sub	# under Landlock it takes no letter away from the rules above it$"
check print_rules_shows_that_c_on_a_file_fails 0 \
	"^c $dir/outside/new	# under Landlock it fails: c on a file (unveil its directory with c)$"

run --print-rules --no-defaults -x "$dir/work/prog"
check print_rules_shows_that_x_alone_runs_nothing 0 \
	"^x $dir/work/prog	# under Landlock it runs nothing: x needs r as well$"

run -x "$dir/work/prog" -- sh -c "$dir/work/prog"
check a_program_shown_x_alone_is_refused_with_eacces 126 'Permission denied$'

run -c "$dir/outside/new" -- true
check c_on_a_file_fails_with_a_hint 125 \
	"^unveil: $dir/outside/new: Operation not supported; under Landlock it fails: c on a file (unveil its directory with c)$"

run --learn -- true
check learn_needs_the_unveil_module 125 \
	'^unveil: --learn needs the unveil security module, which this kernel does not have$'

run --report -- true
check report_needs_the_unveil_module 125 '^unveil: --report needs'

finish
