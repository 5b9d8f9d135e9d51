#!/bin/sh
# Puts the frontends' build into <out-dir>/frontends/dist, where the gateway serves it from by default, and the
# server-rendering module into <out-dir>/frontends/dist-server, where the gateway loads it from; only
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

if [ ! -f frontends/dist/index.html ] || [ ! -f frontends/dist-server/render.cjs ]; then
  # None of the packages the build uses needs an install script.
  if [ ! -d node_modules/@rspack/core ]; then npm ci --ignore-scripts --no-audit --no-fund --workspace=frontends; fi
  node frontends/build.ts
fi
for built in frontends/dist/index.html frontends/dist-server/render.cjs; do
  if [ ! -f "$built" ]; then
    echo "web.sh: the frontends build left no $built" >&2
    exit 1
  fi
done
mkdir -p "$out/frontends"
rm -rf "$out/frontends/dist" "$out/frontends/dist-server"
cp -R frontends/dist "$out/frontends/dist"
cp -R frontends/dist-server "$out/frontends/dist-server"
# A build made before source maps were turned off may hold some: the image carries none.
find "$out/frontends" -type f \( -name '*.map' -o -name '*.map.gz' -o -name '*.map.br' \) -delete
