/**
 * `npm run k8s:secrets -- <dir>` (k8s/overlays/production/secrets): writes the files the overlay's secretGenerator
 * makes the cluster's Secrets from, one per role (the list: <dir>/kustomization.yaml).
 *
 * Every password and key is made once, at random, and kept in <dir>/generated.env; each Secret's file is assembled
 * from it (a password and the URLs that carry it, PgBouncer's user list, the public keys), so a value is never typed
 * twice. What cannot be made up (the Asaas API key, the SMTP relay, the backup bucket's keys) the operator writes in
 * <dir>/provided.env, which the first run leaves blank, with a line on each entry (and, commented out, the optional
 * POSTGRES_HOST: the primary of a cluster restored under another name, docs/operations/backup-and-restore.md). Run
 * again at will: a value already made is kept, a missing one (a new service's) is made, and the Secrets' files are
 * written again from both.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { DATABASE_ROLES, REDIS_USER_NAMES, generateKeyRing, keyRing } from '@ticketing/platform';
import { GATEWAY, PRODUCERS, SERVICES } from '@ticketing/proto';

/** Where the apps reach each server: the Services of k8s/base (CloudNativePG's primary for `Cluster/postgres`). */
const POSTGRES = { host: 'postgres-rw:5432', database: 'ticketing', owner: 'ticketing' };
const PGBOUNCER_HOST = 'pgbouncer:6432';
const REDIS_HOST = 'redis:6379';

/** What the operator provides, with the line provided.env says about it. */
const PROVIDED: Record<string, string> = {
  ASAAS_API_KEY: "Asaas's production API key (Minha Conta > Integrações > Chave de API: $aact_prod_…)",
  SMTP_SERVER: 'the SMTP relay mail sends through: smtp://host:587 (STARTTLS) or smtps://host:465',
  SMTP_USERNAME: "the relay's user",
  SMTP_PASSWORD: "the relay's password, as it is (the script escapes it in the URL)",
  BACKUP_ACCESS_KEY_ID: "the access key id of the object store bucket PostgreSQL's backups go to",
  BACKUP_ACCESS_SECRET_KEY: 'its secret access key',
};
/** What provided.env may add, commented out in the blank file. */
const OPTIONAL: Record<string, string> = {
  POSTGRES_HOST: `PostgreSQL's primary, when not ${POSTGRES.host} (after a restore into another cluster: postgres-pitr-rw:5432)`,
};

const variable = (name: string) => name.toUpperCase().replaceAll('-', '_');
/** 256 random bits, URL-safe: a password needs no escaping anywhere it goes. */
const randomSecret = () => randomBytes(32).toString('base64url');

const envText = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([name, value]) => `${name}=${value}\n`)
    .join('');

function readEnv(file: string): Record<string, string | undefined> {
  return existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
}

function url(scheme: string, host: string, user: string, password: string, path = ''): string {
  const result = new URL(`${scheme}://${host}${path}`);
  result.username = encodeURIComponent(user);
  result.password = encodeURIComponent(password);
  return result.toString();
}

/** The relay's address with its credentials in it. */
function smtpUrl(provided: Record<string, string | undefined>): string {
  const match = /^(smtps?):\/\/([^/@]+)\/?$/.exec(provided.SMTP_SERVER!.trim());
  if (!match) throw new Error(`SMTP_SERVER must be smtp://host:port or smtps://host:port, not ${provided.SMTP_SERVER}`);
  return url(match[1]!, match[2]!, provided.SMTP_USERNAME!, provided.SMTP_PASSWORD!);
}

/** The values made once: kept as they are, the missing ones made now. */
function generatedValues(kept: Record<string, string | undefined>): Record<string, string> {
  const passwords = [
    'DATABASE_OWNER_PASSWORD',
    ...DATABASE_ROLES.map((role) => `${variable(role)}_DATABASE_PASSWORD`),
    ...REDIS_USER_NAMES.map((user) => `${variable(user)}_REDIS_PASSWORD`),
    ...SERVICES.map((app) => `${variable(app.name)}_KAFKA_PASSWORD`),
    'ADMIN_PASSWORD',
    'VERIFICATION_SECRET',
    // Asaas sends it with each webhook: paste it in the webhook's settings there.
    'ASAAS_WEBHOOK_TOKEN',
  ];
  const newKeys = generateKeyRing(PRODUCERS.filter((name) => !kept[`${variable(name)}_SERVICE_KEY`]));
  return {
    ...Object.fromEntries(passwords.map((name) => [name, kept[name] || randomSecret()])),
    ...Object.fromEntries(
      PRODUCERS.map((name) => [
        `${variable(name)}_SERVICE_KEY`,
        kept[`${variable(name)}_SERVICE_KEY`] || newKeys.privateKeys[name],
      ]),
    ),
  };
}

/** Each Secret's file (and the public keys' ConfigMap's), by file name. */
function secretFiles(
  made: Record<string, string>,
  provided: Record<string, string | undefined>,
): Record<string, string> {
  const ring = keyRing(Object.fromEntries(PRODUCERS.map((name) => [name, made[`${variable(name)}_SERVICE_KEY`]!])));
  const rolePassword = (role: string) => made[`${variable(role)}_DATABASE_PASSWORD`]!;
  const redisUrl = (user: string) => url('redis', REDIS_HOST, user, made[`${variable(user)}_REDIS_PASSWORD`]!);
  const database = `/${POSTGRES.database}`;
  const postgresHost = provided.POSTGRES_HOST?.trim() || POSTGRES.host;

  const own: Record<string, Record<string, string>> = {
    identity: { ADMIN_PASSWORD: made.ADMIN_PASSWORD!, VERIFICATION_SECRET: made.VERIFICATION_SECRET! },
    payments: { ASAAS_API_KEY: provided.ASAAS_API_KEY!, ASAAS_WEBHOOK_TOKEN: made.ASAAS_WEBHOOK_TOKEN! },
    mail: { SMTP_URL: smtpUrl(provided) },
  };

  const files: Record<string, string> = {};
  for (const app of SERVICES) {
    files[`${app.name}-secrets.env`] = envText({
      DATABASE_URL: url('postgres', PGBOUNCER_HOST, app.role, rolePassword(app.role), database),
      DATABASE_DIRECT_URL: url('postgres', postgresHost, app.role, rolePassword(app.role), database),
      REDIS_URL: redisUrl(app.name),
      KAFKA_PASSWORD: made[`${variable(app.name)}_KAFKA_PASSWORD`]!,
      SERVICE_KEY: ring.privateKeys[app.signsAs]!,
      ...own[app.name],
    });
  }
  files[`${GATEWAY.name}-secrets.env`] = envText({ REDIS_URL: redisUrl(GATEWAY.name) });
  files['database-roles.env'] = envText({
    DATABASE_URL: url('postgres', postgresHost, POSTGRES.owner, made.DATABASE_OWNER_PASSWORD!, database),
    ...Object.fromEntries(DATABASE_ROLES.map((role) => [`${variable(role)}_DATABASE_PASSWORD`, rolePassword(role)])),
  });
  files['userlist.txt'] = DATABASE_ROLES.map((role) => `"${role}" "${rolePassword(role)}"\n`).join('');
  files['redis-users.env'] = envText(
    Object.fromEntries(
      REDIS_USER_NAMES.map((user) => [`${variable(user)}_REDIS_PASSWORD`, made[`${variable(user)}_REDIS_PASSWORD`]!]),
    ),
  );
  // The owner's login, which CloudNativePG sets in PostgreSQL (bootstrap.initdb.secret).
  files['postgres-owner.env'] = envText({ username: POSTGRES.owner, password: made.DATABASE_OWNER_PASSWORD! });
  files['backup-object-store.env'] = envText({
    ACCESS_KEY_ID: provided.BACKUP_ACCESS_KEY_ID!,
    ACCESS_SECRET_KEY: provided.BACKUP_ACCESS_SECRET_KEY!,
  });
  files['service-public-keys.env'] = envText({ SERVICE_PUBLIC_KEYS: ring.publicKeys });
  return files;
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run k8s:secrets -- <directory of the Secrets, e.g. k8s/overlays/production/secrets>');
  process.exit(2);
}
mkdirSync(dir, { recursive: true, mode: 0o700 });
const write = (name: string, text: string) => writeFileSync(join(dir, name), text, { mode: 0o600 });

const made = generatedValues(readEnv(join(dir, 'generated.env')));
write(
  'generated.env',
  "# Made by `npm run k8s:secrets`, once: the cluster's passwords and keys. Keep it; the Secrets are built from it.\n" +
    envText(made),
);

const providedFile = join(dir, 'provided.env');
const provided = readEnv(providedFile);
if (!existsSync(providedFile)) {
  write(
    'provided.env',
    '# Filled by hand once: what cannot be generated. Then run `npm run k8s:secrets` again.\n' +
      "# Put a value holding #, spaces or quotes in single quotes: NAME='value'.\n" +
      Object.entries(PROVIDED)
        .map(([name, about]) => `# ${about}\n${name}=\n`)
        .join('') +
      Object.entries(OPTIONAL)
        .map(([name, about]) => `# Optional: ${about}\n# ${name}=\n`)
        .join(''),
  );
}
const missing = Object.keys(PROVIDED).filter((name) => !provided[name]?.trim());
if (missing.length > 0) {
  console.error(`Fill ${providedFile} (${missing.join(', ')}), then run this again.`);
  process.exit(1);
}

let files: Record<string, string>;
try {
  files = secretFiles(made, provided);
} catch (error) {
  console.error(`${providedFile}: ${(error as Error).message}`);
  process.exit(1);
}
for (const [name, text] of Object.entries(files)) write(name, text);
console.log(
  `The Secrets' files are in ${dir}. In generated.env: ASAAS_WEBHOOK_TOKEN, for the webhook's settings at Asaas, ` +
    "and ADMIN_PASSWORD, the administrator's first password.",
);
