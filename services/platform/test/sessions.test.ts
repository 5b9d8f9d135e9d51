import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createTokenVerifier, redisSessionVersions, sessionVersionKey } from '../src/auth.ts';
import { TEST_REDIS_URL, createTestIssuer, deleteRedisKeys, uniqueName } from '../src/testing.ts';

const prefix = `${uniqueName('sessions')}:`;
const redis = new Redis(TEST_REDIS_URL, { keyPrefix: prefix });
afterAll(async () => {
  await deleteRedisKeys(prefix);
  redis.disconnect();
});

test('a token older than the user session version is refused by every verifier', async () => {
  const issuer = await createTestIssuer();
  const verify = createTokenVerifier(issuer.jwks, redisSessionVersions(redis));
  const id = randomUUID();
  const before = await issuer.sign({ id }, { version: 0 });
  await expect(verify(before)).resolves.toMatchObject({ id });

  await redis.set(sessionVersionKey(id), '1');
  await expect(verify(before)).rejects.toThrow('session revoked');
  await expect(verify(await issuer.sign({ id }, { version: 1 }))).resolves.toMatchObject({ id });
  await expect(verify(await issuer.sign({ id: randomUUID() }, { version: 0 }))).resolves.toBeDefined();
});
