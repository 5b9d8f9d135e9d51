export {
  baseConfigSchema,
  loadConfig,
  assertProductionSafe,
  estimatedSecretBits,
  ConfigError,
  directDatabaseUrl,
  type BaseConfig,
  type ProductionCheck,
} from './config.ts';
export { trace, type TraceContext } from './context.ts';
export { backoffDelayMs } from './backoff.ts';
export { createLogger, type Logger } from './logger.ts';
export {
  startTracing,
  injectTrace,
  extractTrace,
  currentTraceparent,
  activeTraceIds,
  activeSpan,
  inSpan,
  continueTrace,
  failed,
  SpanKind,
  type Span,
  type Tracer,
  type Tracing,
  type TracingConfig,
} from './tracing.ts';
export { addressGroup } from './address-group.ts';
export { AppError, badRequest, unauthorized, forbidden, notFound, conflict, tooManyRequests } from './errors.ts';
export { createHttpApp } from './http/app.ts';
export { closeConnectionsWhile, listen } from './http/listen.ts';
export { REQUEST_ID_HEADER, requestId, requestIdOf } from './http/request-id.ts';
export { answered, serverSpan, serverSpans } from './http/server-span.ts';
export { createMetrics, serveMetrics, type Metrics } from './metrics.ts';
export {
  alterTableMigration,
  createDb,
  createTableMigration,
  migrate,
  personalDataColumns,
  prepared,
  type Knex,
  type Migration,
} from './db.ts';
export { closeRedis, connectRedis, createRedis, type Redis } from './redis.ts';
export {
  createTokenVerifier,
  cachedKeySet,
  cachedSessions,
  fetchKeys,
  identitySessions,
  writeSessionState,
  signSessionState,
  sessionStateKey,
  SESSION_CACHE_SECONDS,
  NO_SESSIONS,
  AuthUnavailable,
  requireUser,
  requireRole,
  requireAdmin,
  ROLE_REQUIRED,
  TOKEN_ISSUER,
  TOKEN_AUDIENCE,
  type AuthUser,
  type SessionSource,
  type SessionState,
  type SessionStore,
  type TokenVerifier,
} from './auth.ts';
export { createServiceAuth, INTERNAL_CALL_REFUSED, type ServiceAuth } from './service-auth.ts';
export {
  generateKeyRing,
  keyRing,
  developmentKeyRing,
  ed25519PrivateKey,
  ed25519PublicKey,
  isDevelopmentKey,
  signBytes,
  type KeyRing,
  type ServiceKeys,
} from './service-keys.ts';
export * from './bus/index.ts';
export {
  defineService,
  startService,
  migrateService,
  runService,
  loadServiceConfig,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceParts,
  type RunningService,
  type StartOptions,
} from './service.ts';
export { errorAnswer, errorMiddleware, type ErrorAnswer } from './http/errors.ts';
export { observe, requestRecorder } from './http/observe.ts';
export { API_SECURITY_HEADERS, HSTS_MAX_AGE_SECONDS, apiSecurityHeaders } from './http/api-security-headers.ts';
export { parseInput, parseParams } from './http/parse-input.ts';
export {
  beforeRoute,
  byAccount,
  rateLimit,
  rateLimitCheck,
  rateLimiter,
  type RateLimitCheck,
  type RateLimitKey,
  type RateLimitOptions,
  type Spender,
} from './http/rate-limit.ts';
export { createWaker, startWakeableLoop, type WakeableLoop } from './bus/wake.ts';
export { jsonClient, CollaboratorError, type Caller, type JsonClient } from './http/json-client.ts';
export { startPeriodicJob, type PeriodicJob } from './periodic-job.ts';
export { releaseHeapWhenQuiet } from './heap-release.ts';
export { runProcess, type RunningServer } from './run-process.ts';
export { multipartBody, readUploads, type MultipartLimits, type Upload } from './http/multipart.ts';
export { eventCalendar, calendarFileName, CALENDAR_CONTENT_TYPE, type CalendarEvent } from './calendar.ts';
export {
  catalogClient,
  eventOnSale,
  SERVICE_UNAVAILABLE,
  type CatalogClient,
  type HoldOptions,
} from './clients/catalog.ts';
export {
  provisionDatabaseRoles,
  DATABASE_ROLES,
  SERVICE_SCHEMAS,
  type DatabaseRole,
  type ServiceSchema,
  type DatabaseRolesOptions,
} from './database-roles.ts';
export {
  provisionRedisUsers,
  redisAclFile,
  REDIS_USER_NAMES,
  type RedisUser,
  type RedisUsersOptions,
} from './redis-users.ts';
export { toCsv, attachment, CSV_CONTENT_TYPE } from './csv.ts';
export { qrCodePng } from './qr-png.ts';
export { containsPattern, foldForSearch, foldedColumn, searchWords } from './search.ts';
export { createDoorAssignmentsTable, doorEventsChanged, replaceDoorAssignments } from './door-assignments.ts';
export { createForgottenUsersTable, forgetPerson, isForgottenUser, rememberForgottenUser } from './forgotten-users.ts';
