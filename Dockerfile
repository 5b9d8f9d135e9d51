# One Dockerfile for every backend app of the monorepo (services and gateway).
#
# Node 24 runs the TypeScript sources directly (type stripping), so there is no build step:
# an image holds the production dependencies of the workspaces it needs, plus the sources
# of proto/, services/platform/ and the app's own folder.
#
#   docker build \
#     --build-arg APP_DIR=services/catalog \
#     --build-arg ENTRY=services/catalog/src/main.ts \
#     --build-arg PORT=3002 \
#     -t ticketing/catalog .
#
#   APP_DIR  workspace folder of the app (services/<name> or gateway)            required
#   ENTRY    entry file, relative to the repository root                         required
#   PORT     default listening port baked into the image (compose/k8s set PORT)  default 3000
#
# tickets-verifier and tickets-worker are two images of the same folder:
#   APP_DIR=services/tickets ENTRY=services/tickets/src/verifier.ts   (or src/worker.ts)
#
# Gateway: the frontends are built inside the image (the `web` stage, only for APP_DIR=gateway)
# into /app/frontends/dist, the default STATIC_DIR (relative to the working directory /app).
# gateway/public ships with the gateway folder.
#
# The container runs as the non-root user `node` (uid 1000) and writes nothing outside /tmp,
# so it works with a read-only root filesystem.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS base
WORKDIR /app

# ---------------------------------------------------------------------------------------
# Whole build context (filtered by .dockerignore); later stages pick what they need.
FROM base AS context
COPY . .

# ---------------------------------------------------------------------------------------
# Dependency manifests only, so the npm ci layer is rebuilt only when a manifest changes.
FROM context AS manifests
RUN set -eu; \
    mkdir -p /manifests; \
    cp package-lock.json .npmrc /manifests/; \
    find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} /manifests/ \;

# ---------------------------------------------------------------------------------------
# Production dependencies of the workspaces this app needs (its own, platform, proto).
FROM base AS deps
ARG APP_DIR
COPY --from=manifests /manifests/ ./
RUN set -eu; \
    test -n "${APP_DIR:-}" || { echo "build argument APP_DIR is required (e.g. services/catalog)" >&2; exit 1; }; \
    test -f "${APP_DIR}/package.json" || { echo "${APP_DIR}/package.json not found" >&2; exit 1; }; \
    npm ci --omit=dev --no-audit --no-fund \
      --workspace=proto --workspace=services/platform --workspace="${APP_DIR}"; \
    npm cache clean --force

# ---------------------------------------------------------------------------------------
# The frontends' build, for the gateway image only (an empty folder for the others).
FROM context AS web
ARG APP_DIR
RUN set -eu; \
    mkdir -p frontends/dist; \
    if [ "${APP_DIR}" = "gateway" ]; then \
      npm ci --no-audit --no-fund; \
      node frontends/build.ts; \
    fi

# ---------------------------------------------------------------------------------------
# Sources of this app, assembled under /out with their repository paths.
FROM context AS sources
ARG APP_DIR
ARG ENTRY
RUN set -eu; \
    test -n "${ENTRY:-}" || { echo "build argument ENTRY is required (e.g. services/catalog/src/main.ts)" >&2; exit 1; }; \
    test -f "${ENTRY}" || { echo "entry file ${ENTRY} not found" >&2; exit 1; }; \
    case "${ENTRY}" in "${APP_DIR}"/*) ;; *) echo "ENTRY must be inside APP_DIR (${APP_DIR})" >&2; exit 1;; esac; \
    cp -a --parents proto services/platform "${APP_DIR}" /out/

# ---------------------------------------------------------------------------------------
FROM base AS runtime
# tini as PID 1: forwards SIGTERM to node and reaps zombies.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

ARG APP_DIR
ARG ENTRY
ARG PORT=3000
# The gateway's /healthz reports every service, so its own liveness is /readyz.
ARG HEALTHCHECK_PATH=/healthz
ENV NODE_ENV=production \
    HEALTHCHECK_PATH=${HEALTHCHECK_PATH} \
    APP_DIR=${APP_DIR} \
    APP_ENTRY=${ENTRY} \
    PORT=${PORT}

# Files stay owned by root: the app can read its code but never change it.
COPY --from=deps /app/ ./
COPY --from=sources /out/ ./
COPY --from=web /app/frontends/dist ./frontends/dist

USER node
EXPOSE ${PORT}

HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+process.env.HEALTHCHECK_PATH,{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

ENTRYPOINT ["/usr/bin/tini", "--"]
# Exec form cannot expand build arguments: the entry was persisted in APP_ENTRY.
CMD ["/bin/sh", "-c", "exec node \"$APP_ENTRY\""]
