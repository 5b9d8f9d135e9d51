import { z } from 'zod';
import { assertProductionSafe, baseConfigSchema, estimatedSecretBits } from '../src/config.ts';

/** What production refuses, setting by setting, for `env` over a clean production configuration. */
function refusals(env: Record<string, string>): Record<string, string> {
  const schema = baseConfigSchema.extend({ WEBHOOK_TOKEN: z.string().default('development-webhook-token-000') });
  const config = schema.parse({ ...clean, ...env });
  try {
    assertProductionSafe(schema, config, ['WEBHOOK_TOKEN']);
    return {};
  } catch (error) {
    const lines = (error as Error).message.split('\n').slice(1);
    for (const value of Object.values(env)) if (value.length > 3) expect((error as Error).message).not.toContain(value);
    return Object.fromEntries(
      lines.map(
        (line) =>
          line
            .trim()
            .split(/: (.*)/)
            .slice(0, 2) as [string, string],
      ),
    );
  }
}

const clean = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://catalog:Qm7-vR2xKp9tLw4zN8sJ@pgbouncer:6432/ticketing',
  WEBHOOK_TOKEN: 'wh_7Kq2mX9pL4vR8sT3nB6c',
};

test('a clean production configuration is accepted', () => {
  expect(refusals({})).toEqual({});
});

describe('the estimate of a secret', () => {
  test.each([
    ['a'.repeat(32), 'one character repeated'],
    ['abababababababababababababababab', 'a repeated pair'],
    ['abc1abc1abc1abc1abc1abc1abc1abc1', 'a repeated pattern'],
    ['abcdefghijklmnopqrstuvwxyz', 'the alphabet'],
    ['0123456789abcdef0123456789abcdef', 'two runs'],
    ['9876543210zyxwvutsrq', 'runs down'],
    ['deadbeefdeadbeefdeadbeefdeadbeef', 'a word repeated'],
    ['password1234', 'short and typed'],
    ['k3j9x2m7q1', 'short'],
  ])('%j (%s) is under 64 bits', (secret) => {
    expect(estimatedSecretBits(secret)).toBeLessThan(64);
  });

  test.each([
    ['3f9c1ab7e24d08c6a95b7e1f20c4d8ab', '32 random hex digits'],
    ['oX2y_Qv8LkP4sR9tW1zN6bHc', '24 random base64 characters'],
    ['Vx9!qz-portaria-2026', 'a long password'],
    ['Xk9#mP2$qL', 'ten characters of every class'],
  ])('%j (%s) is at least 64 bits', (secret) => {
    expect(estimatedSecretBits(secret)).toBeGreaterThanOrEqual(64);
  });
});

test.each([
  ['a'.repeat(32)],
  ['abababababababababababababababab'],
  ['a1a11aa1a111a1aa1a11aa1a1aa11a1a1aa1a1'],
  ['0123456789abcdef0123456789abcdef'],
  ['abcdefghijklmnopqrstuvwxyz012345'],
])('production refuses the weak secret %j, naming the setting and not the value', (secret) => {
  expect(refusals({ WEBHOOK_TOKEN: secret })).toEqual({
    WEBHOOK_TOKEN: expect.stringMatching(/^too weak for production/),
  });
});

test.each([
  ['ticketing', 'the compose database owner'],
  ['postgres', "PostgreSQL's own"],
  ['catalog-development', "a compose role's"],
  ['tickets_verifier-development', "a compose role's"],
  ['CHANGE_ME', 'the k8s template'],
  ['senha', 'a weak one'],
])('production refuses the database password %j (%s) in either URL', (password) => {
  for (const name of ['DATABASE_URL', 'DATABASE_DIRECT_URL']) {
    const url = `postgres://catalog:${encodeURIComponent(password)}@postgres:5432/ticketing`;
    expect(refusals({ [name]: url })).toEqual({ [name]: expect.any(String) });
  }
});

test.each([['identity-redis-development'], ['redis'], ['a'.repeat(32)]])(
  'production refuses the Redis and Kafka password %j',
  (password) => {
    expect(refusals({ REDIS_URL: `redis://catalog:${password}@redis:6379` })).toEqual({
      REDIS_URL: expect.any(String),
    });
    expect(refusals({ KAFKA_PASSWORD: password })).toEqual({ KAFKA_PASSWORD: expect.any(String) });
  },
);

test('a Redis without a password is left to its network (a managed one may use none)', () => {
  expect(refusals({ REDIS_URL: 'redis://redis:6379' })).toEqual({});
  expect(refusals({ REDIS_URL: 'rediss://catalog:Vr8-kQ2xLm9pTw4zN6s@redis:6380' })).toEqual({});
});

test('production refuses a database URL without a password (the default one included)', () => {
  expect(refusals({ DATABASE_URL: 'postgres://catalog@postgres:5432/ticketing' })).toEqual({
    DATABASE_URL: 'must carry the database password in production',
  });
  const schema = baseConfigSchema;
  expect(() => assertProductionSafe(schema, schema.parse({ NODE_ENV: 'production' }), [])).toThrow(
    /DATABASE_URL: must carry the database password/,
  );
});

test.each([
  ['PUBLIC_URL', 'https://ingressos.example.com.br'],
  ['PUBLIC_URL', 'https://example.com'],
  ['REDIS_URL', 'redis://CHANGE_ME@redis:6379'],
])('production refuses the example value of %s %j', (name, value) => {
  expect(refusals({ [name]: value })).toEqual({
    [name]: 'an example or placeholder value cannot be used in production',
  });
});

test('outside production nothing is refused', () => {
  const schema = baseConfigSchema.extend({ WEBHOOK_TOKEN: z.string().default('a') });
  expect(() =>
    assertProductionSafe(schema, schema.parse({ NODE_ENV: 'development', DEV_TOOLS: 'true' }), ['WEBHOOK_TOKEN']),
  ).not.toThrow();
});
