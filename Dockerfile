# syntax=docker/dockerfile:1
# One Dockerfile for every backend app of the monorepo (services and gateway).
#
# Node 24 runs the TypeScript sources directly (type stripping), so there is no build step:
# an image holds the production dependencies of the workspaces it needs, plus the sources
# of proto/, services/platform/ and the app's own folder. The tree is put together by the
# scripts in scripts/image/, which scripts/test/image.test.ts runs the same way and boots.
#
#   docker build \
#     --build-arg APP_DIR=services/catalog \
#     --build-arg ENTRY=services/catalog/src/main.ts \
#     --build-arg PORT=3002 \
#     -t ticketing/catalog .
#
#   APP_DIR           workspace folder of the app (services/<name> or gateway)          required
#   ENTRY             entry file, relative to the repository root                       required
#   PORT              default listening port baked into the image (compose/k8s set it)  default 3000
#   HEALTHCHECK_PATH  path the HEALTHCHECK asks                                          default /healthz
#                     (a service's /healthz answers 200 while the process lives; the gateway's /healthz
#                     reports every service, so the gateway image sets /readyz)
#
# tickets-verifier and tickets-worker are two images of the same folder:
#   APP_DIR=services/tickets ENTRY=services/tickets/src/verifier.ts   (or src/worker.ts)
# The local Asaas sandbox of docker-compose.yml is built the same way from its own folder (never a product image):
#   APP_DIR=tools/asaas-sandbox ENTRY=tools/asaas-sandbox/src/main.ts PORT=8090
#
# Gateway: the frontends are built inside the image (the `web` stage does it only for
# APP_DIR=gateway) into /app/frontends/dist, the default STATIC_DIR, and their server-rendering
# module into /app/frontends/dist-server. gateway/public ships with the gateway folder.
#
# The container runs as the non-root user `node` (uid 1000) under tini and writes nothing
# outside /tmp, so it works with a read-only root filesystem. Needs BuildKit (the default
# builder since Docker 23) for the cache mounts.

# The base image, pinned by digest so a rebuild gets the same Node and Debian packages.
# This is node:24-bookworm-slim as published with Node 24.18.0. To move to the current one:
#   docker buildx imagetools inspect node:24-bookworm-slim     (the "Digest:" line of the index)
# and replace the digest below (or pass --build-arg NODE_IMAGE=node:24-bookworm-slim@sha256:<digest>).
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

# ---------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS base
WORKDIR /app

# ---------------------------------------------------------------------------------------
# Whole build context (filtered by .dockerignore); later stages pick what they need.
FROM base AS context
COPY . .

# ---------------------------------------------------------------------------------------
# Dependency manifests only, so the install layer is rebuilt only when a manifest changes.
FROM context AS manifests
RUN sh scripts/image/manifests.sh /manifests

# ---------------------------------------------------------------------------------------
# Production dependencies of the workspaces this app needs (its own, platform, proto).
FROM base AS deps
ARG APP_DIR
COPY --from=manifests /manifests/ ./
RUN --mount=type=bind,source=scripts/image,target=/scripts \
    --mount=type=cache,target=/root/.npm \
    sh /scripts/deps.sh "${APP_DIR}" /app

# ---------------------------------------------------------------------------------------
# Sources of this app, under /out with their repository paths.
FROM context AS sources
ARG APP_DIR
ARG ENTRY
RUN sh scripts/image/sources.sh "${APP_DIR}" "${ENTRY}" /out

# ---------------------------------------------------------------------------------------
# The frontends' build under /web/frontends/dist(-server) for the gateway image (/web stays empty for
# the others). The build installs the development dependencies in this stage only.
FROM context AS web
ARG APP_DIR
RUN --mount=type=cache,target=/root/.npm \
    sh scripts/image/web.sh "${APP_DIR}" /web

# ---------------------------------------------------------------------------------------
FROM base AS runtime
# tini as PID 1, from Debian: forwards SIGTERM to node and reaps zombies.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

ARG APP_DIR
ARG ENTRY
ARG PORT=3000
ARG HEALTHCHECK_PATH=/healthz

# Files stay owned by root: the app can read its code but never change it.
COPY --from=deps /app/ ./
COPY --from=sources /out/ ./
COPY --from=web /web/ ./

# The build fails when the app's entry is missing. This step names the app's own arguments, so its layer is this
# app's alone and every layer after it too: a builder whose cache ignores a changed ARG feeding an ENV (buildah's)
# cannot hand tickets-worker the layers of tickets-verifier, which hold the same files but run another entry.
RUN test -f "$ENTRY" || { echo "$APP_DIR: no entry $ENTRY" >&2; exit 1; }; \
    echo "app $APP_DIR runs $ENTRY on port $PORT, health at $HEALTHCHECK_PATH"
ENV NODE_ENV=production \
    HEALTHCHECK_PATH=${HEALTHCHECK_PATH} \
    APP_ENTRY=${ENTRY} \
    PORT=${PORT}

USER node
EXPOSE ${PORT}

HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+process.env.HEALTHCHECK_PATH,{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

ENTRYPOINT ["/usr/bin/tini", "--"]
# Exec form cannot expand build arguments: the entry was persisted in APP_ENTRY.
CMD ["/bin/sh", "-c", "exec node \"$APP_ENTRY\""]
