import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PRODUCERS } from '@ticketing/proto';
import { developmentKeyRing, generateKeyRing } from '../src/service-keys.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Starts a service's entry point as a deployment would and collects what it says before it exits. */
function boot(entry: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

const keys = generateKeyRing(['catalog']).settings('catalog');
const development = developmentKeyRing(PRODUCERS);

// Real-looking values for every secret: each case below leaves out (null) or spoils exactly one.
const secrets = {
  ...keys,
  ADMIN_PASSWORD: 'Vx9!qz-portaria-2026',
  VERIFICATION_SECRET: 'b3a1c9d8e7f6a5b4c3d2e1f0',
  ASAAS_API_KEY: '$aact_prod_000000000000000000000000',
  ASAAS_WEBHOOK_TOKEN: 'wh-5d1c9e8f7a6b5c4d',
  DATABASE_URL: 'postgres://svc:Qm7-vR2xKp9tLw4zN8sJ@127.0.0.1:5432/test',
  ADMIN_EMAIL: 'ana.souza@educacaofarma.com.br',
  ASAAS_BASE_URL: 'https://api.asaas.com/v3',
};

test.each([
  ['services/catalog/src/main.ts', { SERVICE_KEY: null }, 'SERVICE_KEY'],
  ['services/catalog/src/main.ts', development.settings('catalog'), 'SERVICE_KEY'],
  ['services/catalog/src/main.ts', { SERVICE_PUBLIC_KEYS: development.publicKeys }, 'SERVICE_PUBLIC_KEYS'],
  ['services/tickets/src/verifier.ts', { DEV_TOOLS: 'true' }, 'DEV_TOOLS'],
  ['services/identity/src/main.ts', { ADMIN_PASSWORD: null }, 'ADMIN_PASSWORD'],
  ['services/identity/src/main.ts', { ADMIN_PASSWORD: 'troque-esta-senha' }, 'ADMIN_PASSWORD'],
  ['services/identity/src/main.ts', { VERIFICATION_SECRET: null }, 'VERIFICATION_SECRET'],
  ['services/payments/src/main.ts', { ASAAS_WEBHOOK_TOKEN: null }, 'ASAAS_WEBHOOK_TOKEN'],
  ['services/payments/src/main.ts', { ASAAS_API_KEY: 'CHANGE_ME' }, 'ASAAS_API_KEY'],
  [
    'services/orders/src/main.ts',
    { DATABASE_URL: 'postgres://orders:orders-development@pgbouncer:6432/ticketing' },
    'DATABASE_URL',
  ],
  ['services/identity/src/main.ts', { ADMIN_EMAIL: 'admin@example.com.br' }, 'ADMIN_EMAIL'],
  ['services/identity/src/main.ts', { VERIFICATION_SECRET: 'a'.repeat(32) }, 'VERIFICATION_SECRET'],
  ['services/payments/src/main.ts', { ASAAS_BASE_URL: 'https://api-sandbox.asaas.com/v3' }, 'ASAAS_BASE_URL'],
  ['services/payments/src/main.ts', { ASAAS_BASE_URL: 'http://127.0.0.1:8090/v3' }, 'ASAAS_BASE_URL'],
])('with NODE_ENV=production, %s refuses to boot when %j (names %s)', async (entry, change, setting) => {
  const env = Object.fromEntries(
    Object.entries({ ...secrets, ...change }).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
  const { code, stderr } = await boot(entry, env);
  expect(code).toBe(1);
  expect(stderr).toContain('Unsafe production configuration');
  expect(stderr).toContain(`${setting}:`);
  // The message names the setting, never the value.
  for (const value of Object.values(change)) if (value && value !== 'true') expect(stderr).not.toContain(value);
});
