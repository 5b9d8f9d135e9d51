import {
  alterTableMigration,
  createTableMigration,
  personalDataColumns,
  type Knex,
  type Migration,
} from '@ticketing/platform';

/** The identity service's tables: users, their e-mail verification codes and password resets, and signing keys. */
export const identityMigrations: Migration[] = [
  createTableMigration(
    '0001_users',
    'users',
    (t, db) => {
      t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
      t.string('email', 255).notNullable();
      t.boolean('email_verified').notNullable().defaultTo(false);
      // Null once the account is deleted: nobody can log in to it any more.
      t.text('password_hash').nullable();
      t.string('name', 255).notNullable();
      personalDataColumns(t, false);
      t.boolean('is_admin').notNullable().defaultTo(false);
      // Raised when a password changes or the account is deleted: tokens carrying an older one are refused.
      t.integer('session_version').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('deleted_at', { useTz: true }).nullable();
      t.check('email = lower(email)', [], 'users_email_lower_case');
      t.check('session_version >= 0', [], 'users_session_version_not_negative');
    },
    'create unique index users_email_unique on users (lower(email))',
    'create unique index users_cpf_unique on users (cpf) where cpf is not null',
    // Start-up copies every raised session version to Redis.
    'create index users_raised_session_version on users (id) where session_version > 0',
  ),
  createTableMigration('0002_verification_codes', 'verification_codes', (t, db) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    // The address the code was sent to: a code proves only that mailbox.
    t.string('email', 255).notNullable();
    // HMAC-SHA256(secret, "userId:code"): the code itself is never stored.
    t.text('code_hash').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('consumed_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.check('attempts >= 0', [], 'verification_codes_attempts_not_negative');
    t.index(['user_id'], 'verification_codes_user_id');
  }),
  {
    name: '0003_password_resets',
    async up(db) {
      await createEmailedTokenTable(db, 'password_resets');
    },
  },
  createTableMigration('0004_signing_keys', 'signing_keys', (t, db) => {
    t.text('kid').primary();
    t.jsonb('public_jwk').notNullable();
    t.jsonb('private_jwk').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    // Published from creation, signs from here on: verifiers can learn a key before meeting a token of it.
    t.timestamp('activates_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    // Stops signing from here on; stays published until its last token has expired.
    t.timestamp('retired_at', { useTz: true }).nullable();
  }),
  {
    name: '0005_roles_and_revoked_tokens',
    async up(db) {
      // Roles an administrator granted on top of the configured ones (courtesyManager, doorStaff).
      await db.raw("alter table users add column granted_roles text[] not null default '{}'");
      // Tokens ended one by one (logging out); kept only until the token would have expired anyway.
      await db.schema.createTable('revoked_tokens', (t) => {
        t.text('token_id').primary();
        t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.index(['user_id', 'expires_at'], 'revoked_tokens_user_id');
      });
      // Session versions are no longer copied to Redis at start: verifiers ask for them when they need them.
      await db.raw('drop index if exists users_raised_session_version');
    },
  },
  // Wrong codes are counted per account and day across resends, so superseded codes stay (expired) for a day.
  alterTableMigration('0006_verification_code_history', 'verification_codes', (t) => {
    t.index(['user_id', 'created_at'], 'verification_codes_user_day');
  }),
  {
    name: '0007_door_assignments_sign_in_links',
    async up(db) {
      // The events each door staffer may work; tickets and catalog learn the full set from the bus.
      await db.schema.createTable('door_assignments', (t) => {
        t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
        t.uuid('event_id').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(['user_id', 'event_id']);
        t.index(['event_id'], 'door_assignments_event_id');
      });
      // Single-use links e-mailed when an account under guessing is tried from a new address.
      await createEmailedTokenTable(db, 'sign_in_links');
      // Whether the account ever proved an address: one that never did expires (an e-mail change unverifies
      // an account without making it new). Codes consumed before this column existed tell the same.
      await db.raw('alter table users add column verified_once boolean not null default false');
      await db.raw(
        `update users set verified_once = true
         where email_verified
            or exists (select 1 from verification_codes c where c.user_id = users.id and c.consumed_at is not null)`,
      );
      await db.raw(
        'create index users_never_verified_created_at on users (created_at) where not verified_once and deleted_at is null',
      );
    },
  },
  {
    name: '0008_sessions',
    async up(db) {
      // One row per open session (a login and its renewals): a token is good only at its session's generation.
      await db.schema.createTable('sessions', (t) => {
        t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
        t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
        t.integer('generation').notNullable().defaultTo(0);
        t.boolean('remembered').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('renewed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('ends_at', { useTz: true }).notNullable();
        t.check('generation >= 0', [], 'sessions_generation_not_negative');
        t.index(['user_id', 'ends_at'], 'sessions_user_id');
      });
      // Sessions replace the list of tokens logged out one by one; tokens of before carry no session and end.
      await db.schema.dropTable('revoked_tokens');
    },
  },
  {
    name: '0009_drop_session_version',
    async up(db) {
      // Sessions end in the sessions table: the account-wide counter decides nothing any more.
      await db.raw('drop index if exists users_raised_session_version');
      await db.raw('alter table users drop constraint if exists users_session_version_not_negative');
      await db.raw('alter table users drop column if exists session_version');
    },
  },
];

/** A table of single-use tokens e-mailed to an account (a password reset, a sign-in link), by the token's hash. */
async function createEmailedTokenTable(db: Knex, name: string): Promise<void> {
  await db.schema.createTable(name, (t) => {
    // SHA-256 of the token sent by e-mail: the token itself is never stored.
    t.text('token_hash').primary();
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['user_id'], `${name}_user_id`);
  });
}
