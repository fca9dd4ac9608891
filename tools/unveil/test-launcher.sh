#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of the unveil(1) launcher; runs as root in the guest (busybox sh), with
# unveil on PATH, and prints TAP.  Exits non-zero if a test failed.
# Usage: sh ./test-launcher.sh
#   from the host: scripts/vm --add tools/unveil/tap.sh \
#     --add tools/unveil/test-launcher.sh -- sh ./test-launcher.sh

d=/tmp/unveil-launcher
. ./tap.sh

rm -rf "$d"
mkdir -p "$d/visible" "$d/hidden"
echo visible-text > "$d/visible/f"
echo hidden-text > "$d/hidden/f"
echo data > "$d/plain"
printf '#!/bin/sh\necho script ran\n' > "$d/script"
chmod 755 "$d/script"

run --help
check help_exits_0_and_prints_usage 0 '^usage: unveil'
run --bogus -- true
check bad_option_exits_2_with_message 2 'unrecognized option'
run
check no_command_exits_2 2 'no command given'
run --perm rq "$d/visible" -- true
check bad_letter_exits_2 2 "'q' is not a permission letter"

run -r "$d/visible" -- cat "$d/visible/f"
check veiled_cat_reads_a_visible_file 0 '^visible-text$'
run -r "$d/visible" -- cat "$d/hidden/f"
check veiled_cat_of_a_hidden_file_fails 1 'No such file or directory'
run -w "$d/visible" -- cat "$d/visible/f"
check write_without_read_cannot_read 1 'Permission denied'
run -r "$d/visible/f" -w "$d/visible/./f" -- cat "$d/visible/f"
check repeated_options_combine_letters 0 '^visible-text$'
run --perm '' "$d/visible/f" -r "$d/visible" -- cat "$d/visible/f"
check perm_empty_denies_a_file 1 'Permission denied'
run --perm rc "$d/visible" -- rm -f "$d/visible/f"
check perm_rc_removes_a_file 0 ''
echo visible-text > "$d/visible/f"

run -r /bin -r "$d/visible" -- unveil -r "$d/visible" -- true
check nested_unveil_can_add_rules 0 ''
run -l -r /bin -r "$d" -- unveil -r "$d" -- cat "$d/visible/f"
check lock_makes_a_nested_unveil_fail 4 'the veil is locked: Operation not permitted'

run -r "$d/visible/new" -- true
check missing_final_component_is_allowed 0 ''
run -r "$d/missing/dir/f" -- true
check missing_intermediate_directory_exits_3 3 \
	"^unveil: $d/missing/dir/f: No such file or directory$"

run -r "$d" -- unveil -r "$d" -- cat "$d/visible/f"
check hidden_cmd_exits_127 127 '^unveil: cat: command not found$'
run -- no-such-command
check missing_cmd_exits_127 127 '^unveil: no-such-command: command not found$'
run --no-defaults -- "$d/script"
check script_with_hidden_interpreter_exits_127 127 \
	"^unveil: $d/script: No such file or directory (its interpreter is missing or hidden)$"
run -x /bin -- "$d/script"
check script_with_visible_interpreter_runs 0 '^script ran$'
run -- "$d/plain"
check non_executable_cmd_exits_126 126 "^unveil: $d/plain: Permission denied$"

run -r "$d/visible" -- sh -c "cat $d/visible/f && cat $d/hidden/f"
check veil_survives_exec 1 "can't open '$d/hidden/f': No such file or directory"
run -r "$d/visible" -- sh -c "sh -c 'read l < $d/hidden/f' || echo nested-failed"
check veil_survives_a_nested_exec 0 "can't open $d/hidden/f: no such file"

run -r "$d/visible" -- sh -c 'echo dropped > /dev/null && echo wrote-null'
check dev_null_is_unveiled_rw_by_default 0 '^wrote-null$'
run -r "$d/visible" -- sh -c 'head -c 4 /dev/urandom | wc -c'
check dev_urandom_is_unveiled_r_by_default 0 '^4$'
run --no-defaults -r "$d/visible" -- sh -c 'echo dropped > /dev/null'
check no_defaults_leaves_dev_null_hidden 1 "can't create /dev/null"
run -r "$d/visible" -- ls /bin
check path_directories_stay_hidden_without_path 1 "can't open '/bin': No such file or directory"
run --path -r "$d/visible" -- ls /bin
check path_option_unveils_the_path_directories 0 '^busybox$'

rm -rf "$d"
finish
