#!/bin/sh
# Installs, into <root> (which holds the output of manifests.sh), the production dependencies of the workspaces
# <app-dir> runs with: its own, services/platform and proto, and nothing else. Install scripts follow package.json's
# allowScripts.
#
#   scripts/image/deps.sh <app-dir> <root> [extra npm ci options, e.g. --prefer-offline]
set -eu
app_dir=${1:?usage: deps.sh <app-dir> <root>}
root=${2:?usage: deps.sh <app-dir> <root>}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$root/$app_dir/package.json" ]; then
  echo "deps.sh: $root/$app_dir/package.json not found (is $app_dir a workspace, and did manifests.sh run?)" >&2
  exit 1
fi

cd "$root"
npm ci --omit=dev --no-audit --no-fund \
  --workspace=proto --workspace=services/platform --workspace="$app_dir" "$@"
# Then only what the app loads stays (prune.mjs says why).
node "$here/prune.mjs" "$app_dir" "$root"
