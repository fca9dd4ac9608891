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
check bad_option_exits_125_with_message 125 "unrecognized option '--bogus'"
run
check no_command_exits_125 125 'no command given'
run --perm rq "$d/visible" -- true
check bad_letter_exits_125 125 "'q' is not a permission letter"

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
check lock_makes_a_nested_unveil_fail 125 'the veil is locked: Operation not permitted'

run -r "$d/visible/new" -- true
check missing_final_component_is_allowed 0 ''
ln -s visible/f "$d/to-f"
run -r "$d/visible/f" -r "$d/to-f" -- readlink "$d/to-f"
check two_paths_to_one_file_are_both_unveiled 0 '^visible/f$'
run --print-rules -r "$d/visible/f" -r "$d/to-f"
n_lines=$(printf '%s\n' "$out" | grep -c "^r $d/visible/f$")
rc=0; [ "$n_lines" = 1 ] || rc=1; out="$n_lines lines"
check two_paths_to_one_file_are_printed_once 0 ''
run --chdir "$d/hidden" -r "$d/visible" -- true
check hidden_current_directory_is_noted 0 \
	"^unveil: the current directory $d/hidden is hidden from the command: -r \. reveals it$"
run --chdir "$d/visible" -r "$d/visible" -- true
case $out in *"current directory"*) rc=1 ;; esac
check visible_current_directory_is_not_noted 0 ''
run -r "$d/missing/dir/f" -- true
check missing_intermediate_directory_exits_125 125 \
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

# The command line's conventions

run --version
check version_exits_0_and_prints_the_version 0 '^unveil (unveil for Linux) [0-9]'
check version_says_unveil_makes_the_system_call 0 '^unveil() here: kernel$'
run -r
check missing_argument_exits_125 125 "option '-r' needs an argument"
run -lq -- true
check bad_short_option_exits_125 125 "invalid option -- 'q'"
run -r "$d/visible" -- sh -c 'exit 125'
check the_commands_own_status_passes_through 125 ''

run --ro "$d/visible,$d/plain" -- sh -c "cat $d/visible/f $d/plain"
check ro_takes_a_comma_separated_list 0 '^data$'
run --ro "$d/visible" -- sh -c "echo more >> $d/visible/f"
check ro_gives_no_w 1 "can't create $d/visible/f: Permission denied"
# Appending with O_CREAT needs c even for a file that exists (contract):
# truncate -c opens without O_CREAT.
run --rw "$d/visible" -- sh -c "truncate -c -s 3 $d/visible/f && cat $d/visible/f"
check rw_reads_and_writes 0 '^vis$'
run --rw "$d/visible" -- sh -c "echo new > $d/visible/new"
check rw_gives_no_c 1 "can't create $d/visible/new: Permission denied"
run --rwc "$d/visible" -- sh -c "echo new > $d/visible/new && rm $d/visible/new && echo done"
check rwc_creates_and_removes 0 '^done$'
run --no-defaults --rx "/bin,$d" -- "$d/script"
check rx_runs_a_script_and_its_interpreter 0 '^script ran$'
echo visible-text > "$d/visible/f"
run -v "r:$d/visible,$d/plain" -v ":$d/visible/f" -- sh -c "cat $d/plain; cat $d/visible/f"
check v_takes_letters_and_a_list 1 '^data$'
check v_with_no_letters_hides_inside 1 "can't open '$d/visible/f': Permission denied"
run -v "$d/visible" -- true
check v_without_a_colon_exits_125 125 "^unveil: -v needs LETTERS:PATHS, got '$d/visible'$"

# Profiles: one rule a line, "-" for none, comments, ~ is $HOME, paths
# that do not exist are skipped.
printf '%s\n' '# test profile' "r  $d/visible" '' "  - $d/visible/f" \
	"rw $d/plain" "r  $d/missing/dir/f" 'r  ~/f' > "$d/profile"
home=$HOME
HOME=$d/hidden
run --profile "$d/profile" -- sh -c "cat $d/plain; cat $d/hidden/f; cat $d/visible/f"
HOME=$home
check profile_rules_apply 1 '^data$'
check profile_expands_home 1 '^hidden-text$'
check profile_dash_means_no_letters 1 "can't open '$d/visible/f': Permission denied"
printf 'rq /tmp\n' > "$d/bad-letter"
run --profile "$d/bad-letter" -- true
check profile_with_a_bad_letter_exits_125 125 "'q' is not a permission letter"
printf '# rules\nr\n' > "$d/bad-line"
run --profile "$d/bad-line" -- true
check profile_line_without_path_exits_125 125 "^unveil: $d/bad-line:2: a rule needs LETTERS and a PATH$"
run --profile "$d/no-such-profile" -- true
check missing_profile_exits_125 125 "^unveil: profile $d/no-such-profile: No such file or directory$"
run --profile no-such-profile -- true
check bare_profile_name_is_looked_up_in_the_profile_directory 125 \
	"^unveil: profile /.*/unveil/profiles/no-such-profile: No such file or directory$"

run --ignore-missing -r "$d/missing/dir/f" -r "$d/visible" -- cat "$d/visible/f"
check ignore_missing_skips_paths_that_do_not_exist 0 '^visible-text$'

run --print-rules --no-defaults -l -r "$d/visible" -c "$d/visible/." \
	--perm '' "$d/visible/f" -- touch "$d/touched"
check print_rules_merges_letters 0 "^rc $d/visible$"
check print_rules_prints_dash_for_no_letters 0 "^- $d/visible/f$"
check print_rules_includes_the_command 0 '^rx /bin/busybox$'
check print_rules_says_it_locks 0 '^# then locked with unveil(NULL, NULL)$'
[ ! -e "$d/touched" ]; rc=$? out=
check print_rules_does_not_run_the_command 0 ''
unveil --print-rules --no-defaults -r "$d/visible" -- cat > "$d/printed"
run --no-defaults --profile "$d/printed" -- cat "$d/visible/f"
check printed_rules_are_a_profile 0 '^visible-text$'
run --print-rules -r "$d/visible"
check print_rules_needs_no_command 0 "^r $d/visible$"

run --chdir "$d/visible" -r . -- cat f
check chdir_makes_relative_paths_start_there 0 '^visible-text$'
run --chdir "$d" -x /bin -- ./script
check chdir_applies_to_the_command 0 '^script ran$'
run --chdir "$d/none" -- true
check chdir_to_a_missing_directory_exits_125 125 \
	"^unveil: --chdir $d/none: No such file or directory$"

run -r "$d" -- sh -c 'cat <&5' 5<"$d/plain"
check inherited_descriptors_above_2_are_closed 1 'Bad file descriptor'
run --keep-fd 5 -r "$d" -- sh -c 'cat <&5' 5<"$d/plain"
check keep_fd_keeps_one_open 0 '^data$'
run --keep-fd 5 --keep-fd 7 -r "$d" -- sh -c 'cat <&5 <&7; cat <&6' \
	5<"$d/plain" 6<"$d/plain" 7<"$d/visible/f"
check keep_fd_is_repeatable 1 '^visible-text$'
check keep_fd_closes_the_others 1 'Bad file descriptor'
run --keep-fd five -- true
check keep_fd_needs_a_number 125 "^unveil: --keep-fd needs a descriptor number, got 'five'$"
run --keep-fd 9 -- true
check keep_fd_of_a_closed_descriptor_exits_125 125 '^unveil: --keep-fd 9: Bad file descriptor$'

# --report: the refusals of the command and of what it ran.  busybox
# probes /proc/self/exe and sh $HOME at every start: unveiled here, so that
# the counts are exact.
probes="--ro /proc,/root"
run --report $probes -r "$d/visible" -- sh -c "cat $d/hidden/f; cat $d/visible/f"
check report_counts_the_refused_calls 0 '^unveil: the veil refused 1 call:$'
check report_shows_a_refusal_of_a_process_the_command_ran 0 \
	"^unveil:   op=open needed=r held=- errno=2 pid=[0-9]* comm=\"cat\" path=\"$d/hidden/f\"$"
check report_leaves_the_output 0 '^visible-text$'
run --report -r "$d/visible" -- cat "$d/visible/f"
check report_shows_harmless_probes_too 0 \
	'^unveil:   op=stat needed=r held=- errno=2 pid=[0-9]* comm="cat" path="/proc/[0-9]*/exe"$'
run --report $probes -r "$d/visible" -- cat "$d/visible/f"
check report_says_when_nothing_was_refused 0 '^unveil: the veil refused nothing$'
run --report $probes -r "$d/visible" -- sh -c 'exit 7'
check report_keeps_the_exit_status 7 ''
run --report $probes -r "$d/visible" -- sh -c 'kill -TERM $$'
check report_gives_128_plus_the_signal 143 ''
run --report $probes -r "$d/visible" -- sh -c "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do cat $d/hidden/f 2>/dev/null; done"
check report_shows_the_last_16_of_more 1 '^unveil: the veil refused 17 calls, the last 16 (1 before them not kept):$'
n_lines=$(printf '%s\n' "$out" | grep -c '^unveil:   op=open')
rc=0; [ "$n_lines" = 16 ] || rc=1; out="$n_lines lines"
check report_lists_16 0 ''
run -r / -- unveil --report -r "$d/visible" -- true
check report_under_a_veil_cannot_read_refusals 0 \
	'^unveil: cannot read /proc/[0-9]*/attr/unveil/refusals: Permission denied$'

# --learn: the command runs with nothing refused, then the launcher prints
# the rules it needed, which let it run again with nothing refused.
mkdir -p "$d/lib/sub"
for f in a b c; do echo "$f" > "$d/lib/sub/$f"; done
run --learn $probes -r "$d/visible" -- cat "$d/hidden/f"
check learn_refuses_nothing 0 '^hidden-text$'
check learn_prints_the_rules_as_options 0 "^unveil:   -v r:$d/hidden/f$"
check learn_prints_the_rules_as_a_profile 0 "^r $d/hidden/f$"
run --learn $probes -r "$d/visible" -- cat "$d/visible/f"
check learn_says_when_nothing_was_needed 0 \
	'^unveil: learned 0 rules: the veil would have refused nothing$'
run --learn $probes -r "$d/visible" -- cat "$d/lib/sub/a" "$d/lib/sub/b" "$d/lib/sub/c"
check learn_makes_one_rule_for_three_files_of_a_directory 0 "^r $d/lib/sub$"
case $out in *"$d/lib/sub/"*) rc=1 ;; esac
check learn_drops_the_rules_it_covers 0 ''
run --learn $probes -r "$d/visible" -- sh -c "echo n > $d/hidden/new"
check learn_gives_a_creation_its_name 0 "^wc $d/hidden/new$"
case $out in *"wc $d/hidden
"*) rc=1 ;; esac
check learn_gives_a_creation_no_rule_on_its_directory 0 ''
run --learn $probes -r "$d/visible" -- sh -c "mkdir $d/hidden/made && echo x > $d/hidden/made/f && echo y > $d/hidden/made/g"
check learn_gives_a_directory_it_made_one_rule 0 "^wc $d/hidden/made$"
case $out in *"$d/hidden/made/"*) rc=1 ;; esac
check learn_gives_what_is_in_a_directory_it_made_no_rule 0 ''
rm -rf "$d/hidden/made" "$d/hidden/new"
run --learn $probes -r "$d/visible" -- sh -c "exit 3"
check learn_keeps_the_exit_status 3 ''
run -l --learn $probes -r /bin -r "$d" -- unveil -r "$d" -- true
check learn_leaves_the_veil_unlocked 0 \
	'^unveil: --learn: the veil is not locked, as a learning veil cannot be$'
learn_cmd="cat $d/hidden/f $d/lib/sub/a $d/lib/sub/b $d/lib/sub/c; echo x > $d/hidden/g; cat $d/visible/f"
run --learn="$d/learned" $probes -r "$d/visible" -- sh -c "$learn_cmd"
check learn_to_a_file_runs_the_command 0 '^visible-text$'
out=$(cat "$d/learned"); rc=$?
check learn_writes_a_profile 0 "^wc $d/hidden/g$"
check learn_gives_a_file_read_only_r 0 "^r $d/hidden/f$"
rm -f "$d/hidden/g"
run --report --profile "$d/learned" $probes -r "$d/visible" -- sh -c "$learn_cmd"
check learned_rules_let_it_run_with_nothing_refused 0 \
	'^unveil: the veil refused nothing$'
# A name with a space, a quote and a byte that is no UTF-8, as the kernel
# quotes it: --report shows it so, --learn decodes it to a rule that works.
odd="$d/hidden/sp ace\"q$(printf '\377')"
echo odd-text > "$odd"
run --report $probes -r "$d/visible" -- cat "$odd"
check report_shows_an_odd_name_quoted 1 \
	"^unveil:   op=open needed=r held=- errno=2 pid=[0-9]* comm=\"cat\" path=\"$d/hidden/sp ace\\\\x22q\\\\xff\"\$"
run --learn="$d/odd.rules" $probes -r "$d/visible" -- cat "$odd"
run --report --profile "$d/odd.rules" $probes -r "$d/visible" -- cat "$odd"
check learned_rule_for_an_odd_name_lets_it_run 0 '^odd-text$'
check learned_rule_for_an_odd_name_leaves_nothing_refused 0 \
	'^unveil: the veil refused nothing$'
rm -f "$odd"
run -r / --rw /proc -- unveil --learn -r "$d/visible" -- true
check learn_under_a_veil_exits_125 125 \
	'^unveil: --learn: /proc/thread-self/attr/unveil/learn: Operation not permitted$'

# A terminal program finds its terminal (ttyname(3) reads /proc/self/fd).
# The console is opened here: the one init inherited from the kernel is
# another inode, on which ttyname(3) fails even without a veil.
out=$(unveil -- tty </dev/console 2>&1); rc=$?
check terminal_program_finds_its_terminal 0 '^/dev/console$'
out=$(unveil --no-defaults -x /bin -- tty </dev/console 2>&1); rc=$?
check terminal_is_hidden_without_defaults 1 '^not a tty$'
out=$(unveil --print-rules </dev/console 2>&1); rc=$?
check terminal_defaults_unveil_the_terminal 0 '^rw /dev/console$'
check terminal_defaults_unveil_dev_tty 0 '^rw /dev/tty$'
check terminal_defaults_unveil_proc_self 0 '^r /proc/self$'
run --print-rules
check no_terminal_rules_without_a_terminal 0 '^rw /dev/null$'
case $out in *"/dev/tty"*) rc=1 ;; esac
check no_dev_tty_without_a_terminal 0 ''

rm -rf "$d"
finish
