import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { GATEWAY, ServiceName } from '@ticketing/proto';
import { userUrls, type ProvisioningOptions } from './provisioning.ts';

/** Where signed session states live (see auth.ts): identity writes them, every service reads them. */
const SESSION_STATES = 'auth:session:*';

interface RedisGrant {
  /** Key patterns it reads and writes. */
  keys?: readonly string[];
  /** What it may do with the session states. */
  sessions: 'write' | 'read' | 'none';
  /** Pub/sub channels (the door's change notices). */
  channels?: readonly string[];
}

/**
 * One Redis user per process, limited to its own key patterns: a service holding its own password can neither
 * write a session state (identity alone signs and writes them) nor touch another service's counters, and the
 * gateway reaches nothing but its rate limits.
 */
export const REDIS_USERS = {
  identity: { keys: ['identity:*'], sessions: 'write' },
  catalog: { sessions: 'read' },
  orders: { keys: ['orders:*'], sessions: 'read' },
  payments: { sessions: 'read' },
  courtesy: { sessions: 'read' },
  'tickets-verifier': { keys: ['door-live:*', 'door-*-limit:*'], sessions: 'read', channels: ['door:changed:*'] },
  'tickets-worker': { sessions: 'read', channels: ['door:changed:*'] },
  mail: { sessions: 'read' },
  // Its budget of look-ups of unknown certificate codes.
  certificates: { keys: ['certificate-limit:*'], sessions: 'read' },
  gateway: { keys: ['auth-limit:*', 'courtesy-limit:*'], sessions: 'none' },
} as const satisfies Record<ServiceName | typeof GATEWAY.name, RedisGrant>;
export type RedisUser = keyof typeof REDIS_USERS;
export const REDIS_USER_NAMES = Object.keys(REDIS_USERS) as RedisUser[];

// Reading, writing and scripts (the rate limiters' and the session cache's) on its own keys; nothing that touches
// the whole server (FLUSHALL, KEYS, CONFIG, DEBUG, SCRIPT and FUNCTION management). INFO is the client's ready check.
const COMMANDS = ['-@all', '+@connection', '+@read', '+@write', '+@scripting', '+@transaction'];
const FORBIDDEN = ['-@dangerous', '-@admin', '-function', '-script', '+info'];

/** The rules of one user, from `reset` on; `prefix` is the services' REDIS_PREFIX, put before every key. */
export function redisUserRules(user: RedisUser, password: string, prefix = ''): string[] {
  const grant: RedisGrant = REDIS_USERS[user];
  const sessions = { write: [`~${prefix}${SESSION_STATES}`], read: [`%R~${prefix}${SESSION_STATES}`], none: [] };
  return [
    'reset',
    'on',
    `#${createHash('sha256').update(password).digest('hex')}`,
    ...(grant.keys ?? []).map((pattern) => `~${prefix}${pattern}`),
    ...sessions[grant.sessions],
    ...(grant.channels ?? []).map((pattern) => `&${prefix}${pattern}`),
    ...COMMANDS,
    ...(grant.channels ? ['+@pubsub'] : []),
    ...FORBIDDEN,
  ];
}

/**
 * The ACL file a Redis of the deployment starts with (`--aclfile`): the services' users, and the default user
 * (no password) kept to PING, for health probes.
 */
export function redisAclFile(passwords: Record<RedisUser, string>, prefix = ''): string {
  const lines = REDIS_USER_NAMES.map(
    (user) => `user ${user} ${redisUserRules(user, passwords[user], prefix).slice(1).join(' ')}`,
  );
  return [...lines, 'user default on nopass resetkeys resetchannels -@all +ping', ''].join('\n');
}

export interface RedisUsersOptions extends ProvisioningOptions<RedisUser> {
  /** Put before every user name (tests run side by side on one server). */
  userPrefix?: string;
  /** The services' REDIS_PREFIX. */
  keyPrefix?: string;
}

/** Creates (or resets) every process's user on a running Redis; returns each one's connection URL. */
export async function provisionRedisUsers(options: RedisUsersOptions): Promise<Record<RedisUser, string>> {
  const { adminUrl, passwords, userPrefix = '', keyPrefix = '' } = options;
  const admin = new Redis(adminUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await admin.connect();
  try {
    for (const user of REDIS_USER_NAMES)
      await admin.call('ACL', 'SETUSER', `${userPrefix}${user}`, ...redisUserRules(user, passwords[user], keyPrefix));
  } finally {
    admin.disconnect();
  }
  return userUrls(options, REDIS_USER_NAMES, (user) => `${userPrefix}${user}`);
}
