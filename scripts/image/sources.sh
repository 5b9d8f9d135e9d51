#!/bin/sh
# Copies the sources <app-dir> runs from into <out-dir>, under their repository paths: proto/, services/platform/
# and the app's folder, without tests, source maps, local data or installed modules (Node 24 runs the .ts files as
# they are).
#
#   scripts/image/sources.sh <app-dir> <entry> <out-dir>
#   e.g. scripts/image/sources.sh services/tickets services/tickets/src/worker.ts /out
set -eu
usage='usage: sources.sh <app-dir> <entry> <out-dir>'
app_dir=${1:?$usage}
entry=${2:?$usage}
out=${3:?$usage}
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/../.."

fail() { echo "sources.sh: $*" >&2; exit 1; }
[ -f "$app_dir/package.json" ] || fail "$app_dir/package.json not found (APP_DIR must be a workspace folder)"
case $entry in "$app_dir"/*) ;; *) fail "the entry $entry is not inside $app_dir" ;; esac
[ -f "$entry" ] || fail "entry file $entry not found"

mkdir -p "$out"
tar -cf - \
  --exclude=node_modules --exclude=.data --exclude=coverage --exclude=test --exclude='*.test.ts' --exclude='*.map' \
  proto services/platform "$app_dir" | tar -xf - -C "$out"
