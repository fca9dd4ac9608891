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
