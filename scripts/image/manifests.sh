#!/bin/sh
# Copies what `npm ci` reads into <out-dir>: the root package.json, the lockfile, .npmrc and every workspace's
# package.json (all of them: npm checks the lockfile against the whole workspace list). Kept apart from the
# sources so the image's install layer is rebuilt only when a manifest changes.
#
#   scripts/image/manifests.sh <out-dir>
set -eu
out=${1:?usage: manifests.sh <out-dir>}
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/../.."

mkdir -p "$out"
cp package.json package-lock.json "$out/"
if [ -f .npmrc ]; then cp .npmrc "$out/"; fi
# The workspace globs of package.json, expanded by the shell.
for dir in $(node -p "require('./package.json').workspaces.join(' ')"); do
  if [ -f "$dir/package.json" ]; then
    mkdir -p "$out/$dir"
    cp "$dir/package.json" "$out/$dir/"
  fi
done
