/**
 * Production refuses what it must not run with, value by value, with each service's own definition: the development
 * stack's database passwords, example and development administrator addresses, weak secrets, and any Asaas but
 * the real one. Each case spoils one setting of a clean configuration; the refusal names it and never its value.
 */
import { readFileSync } from 'node:fs';
import { identityService } from '@ticketing/identity';
import { paymentsService } from '@ticketing/payments';
import { catalogService } from '@ticketing/catalog';
import { mailService } from '@ticketing/mail';
import { assertProductionSafe, baseConfigSchema, ConfigError, type ServiceDefinition } from '@ticketing/platform';

type Definition = Pick<ServiceDefinition, 'config' | 'secrets' | 'productionChecks'>;

const clean: Record<string, string> = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://svc:Qm7-vR2xKp9tLw4zN8sJ@pgbouncer:6432/ticketing',
  DATABASE_DIRECT_URL: 'postgres://svc:Qm7-vR2xKp9tLw4zN8sJ@postgres:5432/ticketing',
  PUBLIC_URL: 'https://ingressos.educacaofarma.com.br',
  ADMIN_EMAIL: 'ana.souza@educacaofarma.com.br',
  ADMIN_PASSWORD: 'Vx9!qz-portaria-2026',
  VERIFICATION_SECRET: 'oX2y_Qv8LkP4sR9tW1zN6bHc',
  ASAAS_BASE_URL: 'https://api.asaas.com/v3',
  ASAAS_API_KEY: '$aact_prod_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OjAw',
  ASAAS_WEBHOOK_TOKEN: 'wh_7Kq2mX9pL4vR8sT3nB6c',
  SMTP_URL: 'smtps://ingressos:Vr8-kQ2xLm9pTw4z@smtp.educacaofarma.com.br:465',
};

/** The settings production refuses for `env`, as the service checks them at boot. */
function refusedSettings(definition: Definition, env: Record<string, string>): string[] {
  const schema = baseConfigSchema.extend(definition.config ?? {});
  const config = schema.parse(env) as Record<string, unknown> & { NODE_ENV: string; DEV_TOOLS: boolean };
  try {
    assertProductionSafe(schema, config, definition.secrets ?? [], definition.productionChecks);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const value of Object.values(env)) {
      if (!Object.values(clean).includes(value)) expect(error.message).not.toContain(value);
    }
    return error.message
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(':')[0]!);
  }
}

/** Refused with this one change, beyond what the clean configuration is refused for (nothing, by the first test). */
const refusedFor = (definition: Definition, change: Record<string, string>) =>
  refusedSettings(definition, { ...clean, ...change });

test('the clean configuration boots every checked service', () => {
  for (const definition of [identityService, paymentsService, catalogService, mailService]) {
    expect(refusedSettings(definition, clean)).toEqual([]);
  }
});

const COMPOSE_TEXT = readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8');
/** The development passwords the compose file falls back to, by what they open. */
const composePasswords = (kind: string) =>
  [...COMPOSE_TEXT.matchAll(new RegExp(`\\$\\{[A-Z_]*${kind}_PASSWORD:-([^}]+)\\}`, 'g'))].map((match) => match[1]!);
const COMPOSE_PASSWORDS = [...composePasswords('DATABASE'), ...composePasswords('POSTGRES')];

test.each(composePasswords('KAFKA'))("Kafka's development password %j is refused", (password) => {
  expect(refusedFor(catalogService, { KAFKA_PASSWORD: password })).toEqual(['KAFKA_PASSWORD']);
});

test.each(composePasswords('REDIS'))("Redis's development password %j is refused", (password) => {
  expect(refusedFor(catalogService, { REDIS_URL: `redis://catalog:${password}@redis:6379` })).toEqual(['REDIS_URL']);
});

describe('development database passwords', () => {
  test('the compose file has its defaults', () => {
    expect(COMPOSE_PASSWORDS).toEqual(expect.arrayContaining(['ticketing', 'catalog-development']));
  });

  test.each([...new Set([...COMPOSE_PASSWORDS, 'CHANGE_ME', 'postgres', ''])])(
    'a database URL with the password %j is refused',
    (password) => {
      const credentials = password === '' ? 'catalog' : `catalog:${encodeURIComponent(password)}`;
      expect(
        refusedFor(catalogService, { DATABASE_URL: `postgres://${credentials}@pgbouncer:6432/ticketing` }),
      ).toEqual(['DATABASE_URL']);
      expect(
        refusedFor(catalogService, { DATABASE_DIRECT_URL: `postgres://${credentials}@postgres:5432/ticketing` }),
      ).toEqual(['DATABASE_DIRECT_URL']);
    },
  );
});

test.each([
  ['ADMIN_EMAIL', 'admin@example.com.br'],
  ['ADMIN_EMAIL', 'admin@example.com'],
  ['ADMIN_EMAIL', 'suporte@example.org'],
  ['ADMIN_EMAIL', 'admin@educacaofarma.com.br'],
  ['COURTESY_MANAGER_EMAILS', 'ana.souza@educacaofarma.com.br, cortesias@example.com.br'],
  ['PUBLIC_URL', 'https://ingressos.example.com.br'],
])('identity refuses %s=%j (an example or the development administrator)', (setting, value) => {
  expect(refusedFor(identityService, { [setting]: value })).toEqual([setting]);
});

test.each([
  ['ADMIN_PASSWORD', 'a'.repeat(32)],
  ['ADMIN_PASSWORD', 'admin123'],
  ['ADMIN_PASSWORD', 'troque-esta-senha'],
  ['ADMIN_PASSWORD', 'abcabcabcabcabcabc'],
  ['VERIFICATION_SECRET', 'a'.repeat(32)],
  ['VERIFICATION_SECRET', '0123456789abcdef0123456789abcdef'],
  ['VERIFICATION_SECRET', 'desenvolvimento-somente-troque-este-segredo'],
])('identity refuses the weak or known secret %s=%j', (setting, value) => {
  expect(refusedFor(identityService, { [setting]: value })).toEqual([setting]);
});

test.each([
  ['ASAAS_BASE_URL', 'http://127.0.0.1:8090/v3'],
  ['ASAAS_BASE_URL', 'http://localhost:8090/v3'],
  ['ASAAS_BASE_URL', 'http://asaas-sandbox:8090/v3'],
  ['ASAAS_BASE_URL', 'https://10.0.0.12/v3'],
  ['ASAAS_BASE_URL', 'https://api-sandbox.asaas.com/v3'],
  ['ASAAS_BASE_URL', 'https://sandbox.asaas.com/api/v3'],
  ['ASAAS_BASE_URL', 'http://api.asaas.com/v3'],
  ['ASAAS_BASE_URL', 'https://api.asaas.com.pagamentos.net/v3'],
  ['ASAAS_API_KEY', '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OjAw'],
  ['ASAAS_API_KEY', '$aact_hmlg_sandbox_local'],
  ['ASAAS_WEBHOOK_TOKEN', 'a'.repeat(32)],
  ['ASAAS_WEBHOOK_TOKEN', 'dev-webhook-token'],
  ['ASAAS_WEBHOOK_TOKEN', 'abababababababab'],
])('payments refuses %s=%j (not the real Asaas, or a weak secret)', (setting, value) => {
  expect(refusedFor(paymentsService, { [setting]: value })).toEqual([setting]);
});

test("Asaas's production API with a trailing slash is accepted", () => {
  expect(refusedFor(paymentsService, { ASAAS_BASE_URL: 'https://api.asaas.com/v3/' })).toEqual([]);
});

test.each([['smtp://127.0.0.1:1025'], ['smtp://CHANGE_ME:CHANGE_ME@smtp.example.com.br:587']])(
  'mail refuses SMTP_URL=%j (the local catcher or the template)',
  (url) => {
    expect(refusedFor(mailService, { SMTP_URL: url })).toEqual(['SMTP_URL']);
  },
);
