/**
 * Writes the ACL file a deployment's Redis starts with (`redis-server --aclfile …`): compose's `redis-acl` step and
 * the init container of the Kubernetes Redis run it before Redis starts.
 *
 *   IDENTITY_REDIS_PASSWORD=… GATEWAY_REDIS_PASSWORD=… … node services/platform/src/redis-users-main.ts /acl/users.acl
 *
 * One `<USER>_REDIS_PASSWORD` per Redis user (identity, catalog, orders, payments, courtesy, tickets-verifier as
 * TICKETS_VERIFIER_…, tickets-worker, mail, gateway); each process then connects as `redis://<user>:<password>@…`.
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.ts';
import { REDIS_USER_NAMES, redisAclFile, type RedisUser } from './redis-users.ts';

const passwordVariable = (user: RedisUser) => `${user.toUpperCase().replaceAll('-', '_')}_REDIS_PASSWORD`;

const schema = z.object({
  REDIS_PREFIX: z.string().default(''),
  ...Object.fromEntries(REDIS_USER_NAMES.map((user) => [passwordVariable(user), z.string().min(12)])),
});

try {
  const target = process.argv[2];
  if (!target) throw new ConfigError('usage: redis-users-main.ts <acl file to write>');
  const config = loadConfig(schema, process.env) as Record<string, string>;
  const passwords = Object.fromEntries(
    REDIS_USER_NAMES.map((user) => [user, config[passwordVariable(user)]!]),
  ) as Record<RedisUser, string>;
  // Readable by the Redis process, which runs as another user: the file holds only SHA-256 hashes of the passwords.
  writeFileSync(target, redisAclFile(passwords, config.REDIS_PREFIX), { mode: 0o644 });
  console.log(`redis users written to ${target}: ${REDIS_USER_NAMES.join(', ')}`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
