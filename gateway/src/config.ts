import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseConfigSchema } from '@ticketing/platform';
import { SERVICES, urlSetting, type ServiceName, type UrlSetting } from '@ticketing/proto';
import { z } from 'zod';

/** The repository root (the image's working directory): relative paths in the settings start here. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** An empty variable (`CATALOG_URL=`) means the same as an absent one. */
const blankAsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** Base URL of a service; absent when that service does not run in this deployment. */
const upstreamUrl = z.preprocess(
  blankAsUnset,
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. http://catalog:3002' }).optional(),
);

/** `<NAME>_URL` of every service in the list. */
const upstreamUrls = Object.fromEntries(SERVICES.map(({ name }) => [urlSetting(name), upstreamUrl])) as Record<
  UrlSetting<ServiceName>,
  typeof upstreamUrl
>;

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const gatewayConfigSchema = baseConfigSchema
  .pick({
    HOST: true,
    REDIS_URL: true,
    REDIS_PREFIX: true,
    LOG_LEVEL: true,
    PUBLIC_URL: true,
    OTEL_EXPORTER_OTLP_ENDPOINT: true,
    OTEL_BSP_SCHEDULE_DELAY: true,
    DRAIN_DELAY_MS: true,
  })
  .extend({
    PORT: port(8080),
    /** `/healthz` and `/metrics`, for probes and Prometheus inside the cluster; the ingress only reaches PORT. */
    OPS_PORT: port(9090),
    ...upstreamUrls,
    /** Builds of the frontends; it may not exist yet (the placeholder page is served meanwhile). */
    STATIC_DIR: z
      .string()
      .min(1)
      .default('frontends/dist')
      .transform((dir) => (isAbsolute(dir) ? dir : resolve(REPO_ROOT, dir))),
    /** The frontends' server-rendering module; without it (a build of an older site) pages render in the browser. */
    RENDER_MODULE: z
      .string()
      .min(1)
      .default('frontends/dist-server/render.cjs')
      .transform((file) => (isAbsolute(file) ? file : resolve(REPO_ROOT, file))),
    /** How long a server-rendered page waits for the API before leaving the page to the browser. */
    RENDER_TIMEOUT_MS: positiveInt(1500),
    /**
     * Calls per client address and window to each authentication path. Sized for a carrier's CGNAT or a venue's
     * Wi-Fi (hundreds of people logging in from one address); guessing is stopped per account by identity.
     */
    AUTH_RATE_LIMIT_POINTS: positiveInt(600),
    AUTH_RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
    /** Courtesy code look-ups and redemptions per client address and window. */
    COURTESY_RATE_LIMIT_POINTS: positiveInt(30),
    COURTESY_RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
    PROXY_TIMEOUT_MS: positiveInt(30_000),
    /** In-flight requests get this long to finish when the gateway stops (an event stream is cut after it). */
    DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    /**
     * How many proxies in front of the gateway append a trusted X-Forwarded-For entry (0: the gateway
     * is the edge and the client is the socket address; 1: e.g. behind one ingress controller).
     */
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  });

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
