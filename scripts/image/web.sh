#!/bin/sh
# Puts the frontends' build into <out-dir>/frontends/dist, where the gateway serves it from by default; only
# for the gateway, the one app serving the frontends (<out-dir> is created empty for the others).
# Builds first when frontends/dist has no build (as in the image, whose context leaves dist out), installing
# the development dependencies the build needs if they are missing. On a workstation, `npm run build:web`
# refreshes an older build.
#
#   scripts/image/web.sh <app-dir> <out-dir>
set -eu
usage='usage: web.sh <app-dir> <out-dir>'
app_dir=${1:?$usage}
out=${2:?$usage}
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/../.."

mkdir -p "$out"
if [ "$app_dir" != gateway ]; then exit 0; fi

if [ ! -f frontends/dist/index.html ]; then
  # None of the packages the build uses needs an install script.
  if [ ! -d node_modules/@rspack/core ]; then npm ci --ignore-scripts --no-audit --no-fund --workspace=frontends; fi
  node frontends/build.ts
fi
if [ ! -f frontends/dist/index.html ]; then
  echo "web.sh: the frontends build left no frontends/dist/index.html" >&2
  exit 1
fi
mkdir -p "$out/frontends"
rm -rf "$out/frontends/dist"
cp -R frontends/dist "$out/frontends/dist"
