#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Ordinary workflows of real, unmodified programs under the unveil(1)
# launcher: python3, git, tar and gzip, sqlite3, perl, coreutils, xz, zstd,
# openssl, jq.  Runs as root in the guest, in the host's own root file
# system (scripts/vm --host: the programs are the host's, read over 9p);
# prints TAP and exits non-zero if a test failed.
# Usage: scripts/vm --host --add tools/unveil/tap.sh \
#          --add tools/unveil/test-real-programs.sh \
#          --add tools/unveil/profiles/git ... -- sh ./test-real-programs.sh

d=/tmp/real
. ./tap.sh

rm -rf "$d"
mkdir -p "$d/data" "$d/secret" "$d/work" "$d/out" "$d/db" "$d/ro" "$d/repo"
echo data-text > "$d/data/a.txt"
echo '{"a": 42}' > "$d/data/j.json"
echo secret-text > "$d/secret/s.txt"
echo moved-text > "$d/ro/m.txt"
echo repo-text > "$d/repo/file"

# python3

run -r "$d/data" -- python3 -c "print(open('$d/data/a.txt').read(), end='')"
check python_reads_a_visible_file 0 '^data-text$'
run -r "$d/data" -- python3 -c "open('$d/secret/s.txt')"
check python_gets_filenotfounderror_for_a_hidden_file 1 \
	"^FileNotFoundError: \[Errno 2\] No such file or directory: '$d/secret/s.txt'$"
run -r "$d/data" -- python3 -c "open('$d/data/a.txt', 'w')"
check python_gets_permissionerror_writing_a_read_only_file 1 \
	"^PermissionError: \[Errno 13\] Permission denied: '$d/data/a.txt'$"
run -r "$d/data" -- python3 -c "import os; print(os.path.realpath('$d/data/a.txt', strict=True))"
check python_realpath_strict_works 0 "^$d/data/a.txt$"
run -r "$d/data" -- python3 -c "import pathlib; print(pathlib.Path('$d/data/../data/a.txt').resolve(strict=True))"
check python_pathlib_resolve_strict_works 0 "^$d/data/a.txt$"
run -r "$d/data" -- python3 -c "import os; os.path.realpath('$d/secret/s.txt', strict=True)"
check python_realpath_strict_of_a_hidden_file_fails 1 \
	"^FileNotFoundError: \[Errno 2\] No such file or directory: '$d/secret'$"
run --perm rwc "$d/work" -- python3 -c "
import os, tempfile
fd, name = tempfile.mkstemp(dir='$d/work')
os.write(fd, b'x'); os.close(fd)
print(os.path.dirname(name), os.path.getsize(name))"
check python_makes_a_temporary_file_in_an_rwc_directory 0 "^$d/work 1$"
run --path -r "$d/data" -- python3 -c "
import subprocess
r = subprocess.run(['cat', '$d/secret/s.txt'], capture_output=True, text=True)
print(r.returncode, r.stderr.strip())"
check python_subprocess_keeps_the_veil 0 \
	"^1 cat: $d/secret/s.txt: No such file or directory$"

# git, in a repository whose parents are hidden

git_id="-c user.name=Tester -c user.email=tester@example.org"
run --path --perm rwc "$d/repo" -- sh -c "cd $d/repo && git init -q &&
	git add file && git $git_id commit -q -m first-commit &&
	git log --format=%s && git status --short && echo status-clean"
check git_init_add_commit_log_status 0 '^first-commit$'
check git_status_is_clean 0 '^status-clean$'
echo changed >> "$d/repo/file"
run --path -r "$d/repo" -- sh -c "cd $d/repo && git status --short"
check git_status_in_a_read_only_repository 0 '^ M file$'
run --path -r "$d/repo" -- sh -c "cd $d/repo && git $git_id commit -q -a -m second"
check git_commit_in_a_read_only_repository_fails 128 'Permission denied'

# tar and gzip

run --path -r "$d/data" --perm rwc "$d/out" -- tar czf "$d/out/data.tgz" -C "$d/data" .
check tar_czf_creates_an_archive 0 ''
run --path -r "$d/out" -- tar tzf "$d/out/data.tgz"
check tar_tzf_lists_it 0 '^\./a\.txt$'
run --path -r "$d/data" --perm rwc "$d/out" -- tar czf "$d/out/secret.tgz" -C "$d/secret" .
check tar_of_a_hidden_directory_fails 2 "$d/secret: Cannot open: No such file or directory"
run -r "$d/data" --perm rwc "$d/out" -- tar czf "$d/out/nogzip.tgz" -C "$d/data" .
check tar_cannot_run_gzip_without_path 2 'gzip: Cannot exec: No such file or directory'

# sqlite3

run --perm rwc "$d/db" -- sqlite3 "$d/db/t.db" 'create table t(x); insert into t values(42);'
check sqlite3_creates_a_database_in_an_rwc_directory 0 ''
run -r "$d/db" -- sqlite3 "$d/db/t.db" 'select x from t;'
check sqlite3_reads_a_read_only_database 0 '^42$'
run -r "$d/db" -- sqlite3 "$d/db/t.db" 'insert into t values(1);'
check sqlite3_refuses_to_write_a_read_only_database 8 'attempt to write a readonly database'
run -r "$d/data" -- sqlite3 "$d/db/t.db" 'select x from t;'
check sqlite3_cannot_open_a_hidden_database 1 'unable to open database'

# perl

run -r "$d/data" -- perl -e "open(F, '<', '$d/data/a.txt') or die \"\$!\\n\"; print <F>"
check perl_reads_a_visible_file 0 '^data-text$'
run -r "$d/data" -- perl -e "open(F, '<', '$d/secret/s.txt') or die \"\$!\\n\""
check perl_cannot_read_a_hidden_file 2 '^No such file or directory$'

# coreutils

# find goes back to its starting directory: start in a visible one.
cd "$d/data" || exit 1
run -r "$d/data" -- realpath "$d/data/a.txt"
check realpath_works 0 "^$d/data/a.txt$"
run -r "$d/data" -- find "$d/data" -name '*.txt'
check find_lists_a_visible_tree 0 "^$d/data/a.txt$"
run -r "$d/data" -- find "$d/secret"
check find_of_a_hidden_tree_fails 1 "$d/secret.: No such file or directory"
cd - >/dev/null || exit 1
run -r "$d/data" --perm rwc "$d/out" -- cp "$d/data/a.txt" "$d/out/copy.txt"
check cp_copies_into_an_rwc_directory 0 ''
[ "$(cat "$d/out/copy.txt")" = data-text ]; rc=$? out=
check cp_copied_the_data 0 ''
ino_before=$(stat -c %i "$d/ro/m.txt")
run --perm rc "$d/ro" --perm rwc "$d/out" -- mv "$d/ro/m.txt" "$d/out/m.txt"
check mv_to_a_directory_with_more_rights_works 0 ''
# rename() was refused (EXDEV): mv copied the file, which has a new inode.
[ -f "$d/out/m.txt" ] && [ ! -e "$d/ro/m.txt" ] &&
	[ "$(stat -c %i "$d/out/m.txt")" != "$ino_before" ]; rc=$? out=
check mv_fell_back_to_copying 0 ''

# xz, zstd, openssl, jq

cp "$d/data/a.txt" "$d/out/c.txt"
run --perm rwc "$d/out" -- xz -k "$d/out/c.txt"
check xz_compresses_in_an_rwc_directory 0 ''
run -r "$d/out" -- xz -dc "$d/out/c.txt.xz"
check xz_decompresses_a_visible_file 0 '^data-text$'
run --perm rwc "$d/out" -- zstd -q "$d/out/c.txt" -o "$d/out/c.txt.zst"
check zstd_compresses_in_an_rwc_directory 0 ''
run -r "$d/out" -- zstd -dcq "$d/out/c.txt.zst"
check zstd_decompresses_a_visible_file 0 '^data-text$'
sum=$(sha256sum "$d/data/a.txt" | cut -d' ' -f1)
run -r "$d/data" -- openssl dgst -sha256 "$d/data/a.txt"
check openssl_dgst_hashes_a_visible_file 0 "= $sum$"
run -r "$d/data" -- openssl dgst -sha256 "$d/secret/s.txt"
check openssl_dgst_of_a_hidden_file_fails 1 'No such file or directory'
run -r "$d/data" -- jq .a "$d/data/j.json"
check jq_reads_a_visible_file 0 '^42$'

# First try: rules as unveil(1) tells a user to write them.

mkdir -p "$d/src/sub" "$d/tarx" "$d/keys" "$d/pt" "$d/sed"
echo one > "$d/src/sub/one"
echo two > "$d/src/two"
run -r "$d/src" --rwc "$d/rsync-dst" -- rsync -a "$d/src/" "$d/rsync-dst/"
check rsync_into_a_new_directory 0 ''
[ "$(cat "$d/rsync-dst/sub/one")" = one ]; rc=$? out=
check rsync_copied_the_tree 0 ''
run -r "$d/src" --rwc "$d/cp-dst" -- cp -a "$d/src" "$d/cp-dst"
check cp_a_into_a_new_directory 0 ''
[ "$(cat "$d/cp-dst/sub/one")" = one ]; rc=$? out=
check cp_a_copied_the_tree 0 ''
tar czf "$d/t.tgz" -C "$d/src" .
run --path -r "$d/t.tgz" --rwc "$d/tarx" -- tar xzf "$d/t.tgz" -C "$d/tarx"
check tar_x_into_a_directory 0 ''
[ "$(cat "$d/tarx/sub/one")" = one ]; rc=$? out=
check tar_x_extracted_the_tree 0 ''
run --rwc "$d/keys" -- ssh-keygen -q -t ed25519 -N '' -C test -f "$d/keys/id"
check ssh_keygen_makes_a_key_pair 0 ''
[ -s "$d/keys/id" ] && [ -s "$d/keys/id.pub" ]; rc=$? out=
check ssh_keygen_wrote_both_keys 0 ''
run --path -- bash -c 'echo "user=$(id -un)"'
check bash_with_id_un_names_the_user 0 '^user=root$'
run --path -r "$d/src" -- ls -l "$d/src/two"
check ls_l_shows_the_owner_by_name 0 ' root root '
echo old > "$d/pt/f"
printf -- '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-old\n+new\n' > "$d/p.diff"
run -r "$d/p.diff" --rwc "$d/pt" -- patch -s -d "$d/pt" -p1 -i "$d/p.diff"
check patch_d_changes_the_directory 0 ''
[ "$(cat "$d/pt/f")" = new ]; rc=$? out=
check patch_d_wrote_the_change 0 ''
echo aaa > "$d/sed/f"
run --rwc "$d/sed" -- sed -i s/a/b/g "$d/sed/f"
check sed_i_with_a_directory_rule 0 ''
[ "$(cat "$d/sed/f")" = bbb ]; rc=$? out=
check sed_i_wrote_the_change 0 ''

# --learn: the rules learned from one run, and nothing else, let the same
# command run again with nothing refused; they never reveal the whole file
# system, nor let the command create or remove in a tree it only read.

# learn_and_rerun NAME CLEANUP COMMAND...: learns NAME's rules, removes what
# the run made (CLEANUP), then runs it again with them and --report.
learn_and_rerun() {
	name=$1 cleanup=$2
	shift 2
	run --learn="$d/$name.learned" -- "$@"
	check "${name}_runs_while_learning" 0 ''
	out=$(cat "$d/$name.learned"); rc=0
	printf '%s\n' "$out" | grep -Eq '^[rwxc]+ /$' && rc=1
	check "${name}_learned_rules_do_not_reveal_the_root" 0 ''
	printf '%s\n' "$out" | grep -Eq "^[rwx]*c[rwx]* $d/src(/|\$)" && rc=1
	check "${name}_learned_rules_create_nothing_in_what_it_read" 0 ''
	rm -rf $cleanup
	run --report --profile "$d/$name.learned" -- "$@"
	check "${name}_with_the_learned_rules_is_refused_nothing" 0 \
		'^unveil: the veil refused nothing$'
}
learn_and_rerun cp "$d/cpl" cp -a "$d/src" "$d/cpl"
learn_and_rerun rsync "$d/rsl" rsync -a "$d/src/" "$d/rsl/"
learn_and_rerun ssh_keygen "$d/keys/l $d/keys/l.pub" \
	ssh-keygen -q -t ed25519 -N '' -C test -f "$d/keys/l"
learn_and_rerun sed "" sed -i s/b/c/g "$d/sed/f"

pyprog="import json, sqlite3, email.parser; print(json.dumps(sorted({'b': 1, 'a': 2})))"
run --learn="$d/python.learned" -- python3 -c "$pyprog"
check python_runs_while_learning 0 '^\["a", "b"\]$'
run --report --profile "$d/python.learned" -- python3 -c "$pyprog"
check python_runs_with_the_learned_rules 0 '^\["a", "b"\]$'
check python_with_the_learned_rules_is_refused_nothing 0 \
	'^unveil: the veil refused nothing$'
lrepo="$d/lrepo"
mkdir -p "$lrepo" && echo learn-text > "$lrepo/file"
git -C "$lrepo" init -q && git -C "$lrepo" add file &&
	git $git_id -C "$lrepo" commit -q -m learned-commit
run --learn="$d/git.learned" -- git -C "$lrepo" log --format=%s
check git_runs_while_learning 0 '^learned-commit$'
run --report --profile "$d/git.learned" -- git -C "$lrepo" log --format=%s
check git_runs_with_the_learned_rules 0 '^learned-commit$'
check git_with_the_learned_rules_is_refused_nothing 0 \
	'^unveil: the veil refused nothing$'

# The shipped profiles (tools/unveil/profiles), with only the data added:
# no --path, no other rule.

mkdir -p "$d/prepo" "$d/pdb"
echo profile-text > "$d/prepo/file"
run --profile ./git --rwc "$d/prepo" -- git -C "$d/prepo" init -q
check git_profile_init 0 ''
run --profile ./git --rwc "$d/prepo" -- git -C "$d/prepo" add file
check git_profile_add 0 ''
run --profile ./git --rwc "$d/prepo" -- git -C "$d/prepo" $git_id commit -q -m profile-commit
check git_profile_commit 0 ''
run --profile ./git -r "$d/prepo" -- git -C "$d/prepo" log --format=%s
check git_profile_log_in_a_read_only_repository 0 '^profile-commit$'
run --profile ./python3 -r "$d/data" -- python3 -c "
import json, ssl, subprocess, tempfile
print(json.load(open('$d/data/j.json'))['a'], ssl.OPENSSL_VERSION.split()[0])"
check python3_profile_imports_and_reads 0 '^42 OpenSSL$'
run --profile ./tar -r "$d/data" --rwc "$d/out" -- tar czf "$d/out/p.tgz" -C "$d/data" .
check tar_profile_runs_gzip 0 ''
run --profile ./tar -r "$d/out" -- tar tvzf "$d/out/p.tgz"
check tar_profile_lists_owners_by_name 0 ' root/root .* \./a\.txt$'
run --profile ./tar -r "$d/out" -- tar tJf "$d/out/p.tgz"
check tar_profile_runs_xz 2 'xz: (stdin): File format not recognized'
run --profile ./sqlite3 --rwc "$d/pdb" -- sqlite3 "$d/pdb/p.db" \
	'create table t(x); insert into t values(7); select x from t;'
check sqlite3_profile_creates_and_reads 0 '^7$'

rm -rf "$d"
finish
