#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The real workloads of make bench, run in the guest in the host's own root
# (scripts/vm --host: the host's git, tar, find, grep, python3, gcc and
# make, read over 9p) by bench/unveil-workload, which prints a CSV line a
# run.  The work directory /tmp/w (the guest's tmpfs) holds a git
# repository of a few thousand files of the kernel tree with 250 commits,
# the same files in a tar archive and unpacked, and a small C program.
#
# Usage: sh workloads.sh KERNEL MODE RUNS DATA PROFILES
# (scripts/vm --host --share DIR: the learned profiles are kept in DIR)
#   KERNEL    the label of the boot: unveil, landlock (the unveil kernel
#             booted with lsm=landlock) or nounveil
#   MODE      none: no veil; learn: no run timed, each workload without a
#             shipped profile runs under unveil --learn, which writes the
#             rules it needed to the share; unveil or landlock: each
#             workload is timed under a veil that the launcher puts on,
#             locked, with its shipped profile or the learned one, its
#             program and /tmp/w rwc (the launcher must work in that mode:
#             the unveil module, or Landlock): the launcher runs
#             unveil-workload, which times the runs, each a fork and an
#             exec under the veil; the launcher's own start is timed apart
#             (workload "start")
#   RUNS      timed runs of each workload, after one to warm the caches
#   DATA      the directory of repo.tar and tree.tar (made by scripts/bench)
#   PROFILES  the shipped profiles' directory
set -eu
kernel=$1 mode=$2 runs=$3 data=$4 profiles=$5 learned=/run/learned
w=/tmp/w

case $mode in
none | learn) ;;
unveil | landlock)
	[ $mode = unveil ] && made_by=kernel || made_by=landlock
	unveil --version | grep -qx "unveil() here: $made_by" || {
		echo "workloads.sh: the launcher does not run in $mode mode here:" >&2
		unveil --version >&2
		exit 1
	} ;;
*) echo "workloads.sh: unknown mode $mode" >&2; exit 1 ;;
esac

rm -rf "$w"
mkdir -p "$w/x"
tar -xf "$data/repo.tar" -C "$w"
cp "$data/tree.tar" "$w/"
tar -xf "$w/tree.tar" -C "$w/x"
cp -r "$data/program" "$w/program"
# No terminal: the console's name, which the launcher looks for on a
# terminal, takes ttyname(3) a search through /dev (the launcher's start
# is timed on its own, as from a script); errors and warnings are shown
# at the end.
exec 2> /tmp/workloads.err
trap 'cat /tmp/workloads.err' EXIT
# git status refreshes the index once, untimed.
git -C "$w/repo" status > /dev/null 2>&1
export PYTHONHASHSEED=0 HOME=/root

# The learned profiles, in the host's directory shared with each boot
# (scripts/vm --share).
if [ $mode != none ]; then
	mkdir -p "$learned"
	mount -t 9p -o trans=virtio,version=9p2000.L unveil-share "$learned"
fi

# NAME PROFILE [--fresh DIR] [--path] -- CMD...: times CMD, in /tmp/w.
# PROFILE is a shipped profile, or "learned".  --path: the veil also shows
# the directories of $PATH rx (unveil --path), for a command that runs
# others by name: the learned rules show the programs run "x", which
# Landlock cannot run without "r" (unveil(2)).
workload() {
	local name=$1 profile=$2 fresh= path= rules

	shift 2
	if [ "$1" = --fresh ]; then
		fresh="--fresh $2"
		shift 2
	fi
	if [ "$1" = --path ]; then
		path=--path
		shift
	fi
	shift
	cd "$w"
	case $mode in
	none)
		unveil-workload $fresh "$kernel" "$mode" "$name" "$runs" -- "$@" ;;
	learn)
		[ "$profile" = learned ] || return 0
		unveil-workload $fresh "$kernel" "$mode" "$name" 0 -- \
			unveil $path --learn="$learned/$name" --rwc "$w" -- "$@" ;;
	*)
		rules=$profiles/$profile
		[ "$profile" = learned ] && rules=$learned/$name
		unveil $path --lock --profile "$rules" --rwc "$w" \
			--rx "$(command -v "$1")" -- \
			unveil-workload $fresh "$kernel" "$mode" "$name" "$runs" -- \
			"$@" ;;
	esac
}

workload git-status git -- git -C repo status
workload git-log git -- git -C repo log --stat -200
workload tar-x tar --fresh "$w/t" -- tar -xf tree.tar -C t
workload find learned -- find x -printf "%s %p\n"
workload grep learned -- grep -r -c "static inline" x
workload python3 python3 -- python3 -c "import json, email, http.client"
workload gcc learned --path -- make -B -C program

# The launcher's start: what "unveil --profile git" adds to a command that
# does nothing (report.py subtracts "true" alone).
case $mode in
none)
	unveil-workload "$kernel" "$mode" start "$runs" -- true ;;
unveil | landlock)
	unveil-workload "$kernel" "$mode" start "$runs" -- \
		unveil --lock --profile "$profiles/git" --rwc "$w" -- true ;;
esac
