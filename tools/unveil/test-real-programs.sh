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

# --learn: the rules learned from one run, and nothing else, let the same
# command run again with nothing refused.
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
