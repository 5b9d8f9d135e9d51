import { Router } from '@koa/router';
import { defineService, startPeriodicJob, type Logger } from '@ticketing/platform';
import {
  DEVELOPMENT_ADMIN_PASSWORD,
  DEVELOPMENT_VERIFICATION_SECRET,
  identityConfig,
  identityProductionChecks,
  identitySettings,
  type IdentityConfig,
} from './config.ts';
import { identityMigrations } from './data/migrations.ts';
import { ensureAdminAccount } from './domain/admin.ts';
import { expireUnverifiedAccounts } from './domain/expire-unverified.ts';
import { createLoginThrottle } from './domain/login-throttle.ts';
import { prepareDummyHash } from './domain/passwords.ts';
import { createRenewalLimit } from './domain/renewal-limit.ts';
import { createSessionVerifier } from './domain/sessions.ts';
import { createSigningKeys, ensureSigningKey } from './domain/signing-keys.ts';
import type { IdentityDeps } from './domain/user.ts';
import { adminRoutes } from './http/admin-routes.ts';
import { authRoutes } from './http/auth-routes.ts';
import { devRoutes } from './http/dev-routes.ts';
import { internalRoutes } from './http/internal-routes.ts';
import { keyRoutes } from './http/keys-routes.ts';
import { profileRoutes } from './http/profile-routes.ts';

function warnAboutDevelopmentDefaults(config: IdentityConfig, logger: Logger): void {
  if (config.DEV_TOOLS) return;
  if (config.ADMIN_PASSWORD === DEVELOPMENT_ADMIN_PASSWORD) {
    logger.warn('ADMIN_PASSWORD is the development default: set a real one');
  }
  if (config.VERIFICATION_SECRET === DEVELOPMENT_VERIFICATION_SECRET) {
    logger.warn('VERIFICATION_SECRET is the development default: set a real one');
  }
}

/**
 * Users, e-mail verification, password reset, sessions and the keys that sign them, roles and door staff
 * assignments; accounts never verified expire.
 */
// Every service declares itself with the same fields (name, configuration, migrations, secrets, checks).
export const identityService = defineService({
  name: 'identity',
  config: identityConfig,
  migrations: identityMigrations,
  secrets: ['ADMIN_PASSWORD', 'VERIFICATION_SECRET'],
  productionChecks: identityProductionChecks,
  async setup({ config, db, redis, logger, outbox, serviceAuth }) {
    const settings = identitySettings(config);
    warnAboutDevelopmentDefaults(config, logger);
    const longestSession = Math.max(settings.tokenTtlSeconds, settings.rememberTtlSeconds);
    const keys = createSigningKeys(db, longestSession);
    const throttle = createLoginThrottle(redis, settings.login, logger);
    const renewals = createRenewalLimit(redis, settings.renewalsPerHour, logger);
    const deps: IdentityDeps = { db, outbox, logger, redis, settings, keys, throttle, renewals };

    await prepareDummyHash();
    await ensureSigningKey(deps);
    await ensureAdminAccount(deps);

    // Tokens are checked against the local key store, and session states against the database through Redis.
    const verifySession = createSessionVerifier(keys, settings, { db, redis });
    const router = new Router();
    const routers = [
      keyRoutes(deps),
      internalRoutes(deps, serviceAuth),
      authRoutes(deps, verifySession),
      profileRoutes(deps, verifySession),
      adminRoutes(deps, verifySession),
    ];
    if (config.DEV_TOOLS) routers.push(devRoutes(deps, verifySession));
    for (const routes of routers) router.use(routes.routes());
    const expiry = startPeriodicJob(
      'unverified-account-expiry',
      config.UNVERIFIED_ACCOUNT_SWEEP_MS,
      (signal) => expireUnverifiedAccounts(deps, signal),
      logger,
    );
    return { router, close: () => expiry.close() };
  },
});
