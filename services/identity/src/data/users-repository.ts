import { prepared, type Knex } from '@ticketing/platform';
import { isUuid, type GrantableRole } from '@ticketing/proto';
import type { User } from '../domain/user.ts';
import { endSessionsOf } from './sessions-repository.ts';

export interface UserRow {
  id: string;
  email: string;
  email_verified: boolean;
  password_hash: string | null;
  name: string;
  cpf: string | null;
  phone: string | null;
  birth_date: string | null;
  address: string | null;
  partner_company: string | null;
  is_admin: boolean;
  granted_roles: GrantableRole[];
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

const COLUMNS = [
  'id',
  'email',
  'email_verified',
  'password_hash',
  'name',
  'cpf',
  'phone',
  'birth_date',
  'address',
  'partner_company',
  'is_admin',
  'granted_roles',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

/** A row of `users` as identity's use cases see it. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.email_verified,
    passwordHash: row.password_hash,
    name: row.name,
    cpf: row.cpf,
    phone: row.phone,
    birthDate: row.birth_date,
    address: row.address,
    partnerCompany: row.partner_company,
    isAdmin: row.is_admin,
    grantedRoles: row.granted_roles,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}

export type NewUser = Pick<
  User,
  'email' | 'emailVerified' | 'passwordHash' | 'name' | 'cpf' | 'phone' | 'birthDate' | 'address' | 'partnerCompany'
> & { isAdmin?: boolean };

export type UserChanges = Partial<
  Pick<
    User,
    | 'email'
    | 'emailVerified'
    | 'passwordHash'
    | 'name'
    | 'phone'
    | 'address'
    | 'partnerCompany'
    | 'isAdmin'
    | 'grantedRoles'
  >
>;

/** Which unique rule an insert or update broke, if it was one of the users' own. */
export function takenField(error: unknown): 'email' | 'cpf' | undefined {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  if (code !== '23505') return undefined;
  if (constraint === 'users_email_unique') return 'email';
  if (constraint === 'users_cpf_unique') return 'cpf';
  return undefined;
}

/** An account that was not deleted, by its (lower-case) e-mail. */
export async function findUserByEmail(db: Knex, email: string): Promise<User | undefined> {
  const row = (await db('users')
    .select(COLUMNS)
    .whereRaw('lower(email) = ?', [email.toLowerCase()])
    .whereNull('deleted_at')
    .first()) as UserRow | undefined;
  return row && toUser(row);
}

/** An account that was not deleted, by id; an id that is not a UUID names nobody. */
export async function findUserById(db: Knex, id: string): Promise<User | undefined> {
  if (!isUuid(id)) return undefined;
  const row = (await db('users')
    .select(COLUMNS)
    .where({ id })
    .whereNull('deleted_at')
    .first()
    .options(prepared('identity.user-by-id'))) as UserRow | undefined;
  return row && toUser(row);
}

/** As `findUserById`, and the row stays locked until the transaction ends. */
export async function findUserForUpdate(trx: Knex.Transaction, id: string): Promise<User | undefined> {
  if (!isUuid(id)) return undefined;
  const row = (await trx('users').select(COLUMNS).where({ id }).whereNull('deleted_at').forUpdate().first()) as
    UserRow | undefined;
  return row && toUser(row);
}

/** Whether another account already uses this e-mail (the unique index still decides races). */
export async function emailTaken(db: Knex, email: string, exceptId: string): Promise<boolean> {
  const query = db('users').whereRaw('lower(email) = ?', [email.toLowerCase()]).whereNot({ id: exceptId });
  return (await query.first('id')) !== undefined;
}

/** The accounts (one or two) that hold this e-mail or this CPF. */
export async function findHolders(db: Knex, { email, cpf }: { email: string; cpf: string }): Promise<User[]> {
  const rows = (await db('users')
    .select(COLUMNS)
    .where((query) => query.whereRaw('lower(email) = ?', [email.toLowerCase()]).orWhere({ cpf }))
    .whereNull('deleted_at')) as UserRow[];
  return rows.map(toUser);
}

/**
 * Locks the accounts of these ids and (lower-case) e-mails, deleted ones included, in id order: two changes over
 * overlapping accounts wait for each other instead of deadlocking.
 */
export async function lockUsers(
  trx: Knex.Transaction,
  { ids, emails }: { ids: string[]; emails: string[] },
): Promise<User[]> {
  if (ids.length === 0 && emails.length === 0) return [];
  const rows = (await trx('users')
    .select(COLUMNS)
    .where((query) => query.whereIn('id', ids).orWhereRaw('lower(email) = any(?)', [emails]))
    .orderBy('id')
    .forUpdate()) as UserRow[];
  return rows.map(toUser);
}

/**
 * Accounts that never verified an address, created before `before`, locked for the sweep that removes them; rows another
 * replica is removing are skipped.
 */
export async function lockUnverifiedCreatedBefore(trx: Knex.Transaction, before: Date, limit: number): Promise<User[]> {
  const rows = (await trx('users')
    .select(COLUMNS)
    .where({ verified_once: false })
    .whereNull('deleted_at')
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()) as UserRow[];
  return rows.map(toUser);
}

export async function insertUser(trx: Knex.Transaction, user: NewUser): Promise<User> {
  const [row] = (await trx('users')
    .insert({
      email: user.email.toLowerCase(),
      email_verified: user.emailVerified,
      verified_once: user.emailVerified,
      password_hash: user.passwordHash,
      name: user.name,
      cpf: user.cpf,
      phone: user.phone,
      birth_date: user.birthDate,
      address: user.address,
      partner_company: user.partnerCompany,
      is_admin: user.isAdmin ?? false,
    })
    .returning(COLUMNS)) as UserRow[];
  return toUser(row!);
}

/** Creates an account unless one with this e-mail exists; undefined when it did. */
export async function insertUserIfMissing(trx: Knex.Transaction, user: NewUser): Promise<User | undefined> {
  const result = await trx.raw<{ rows: UserRow[] }>(
    `insert into users (email, email_verified, verified_once, password_hash, name, is_admin)
     values (?, ?, ?, ?, ?, ?)
     on conflict ((lower(email))) do nothing
     returning ${COLUMNS.join(', ')}`,
    [
      user.email.toLowerCase(),
      user.emailVerified,
      user.emailVerified,
      user.passwordHash,
      user.name,
      user.isAdmin ?? false,
    ],
  );
  const row = result.rows[0];
  return row && toUser(row);
}

const columnsOf = (changes: UserChanges): Record<string, unknown> => {
  const columns: Record<string, unknown> = {};
  if (changes.email !== undefined) columns.email = changes.email.toLowerCase();
  if (changes.emailVerified !== undefined) columns.email_verified = changes.emailVerified;
  if (changes.emailVerified === true) columns.verified_once = true;
  if (changes.passwordHash !== undefined) columns.password_hash = changes.passwordHash;
  if (changes.name !== undefined) columns.name = changes.name;
  if (changes.phone !== undefined) columns.phone = changes.phone;
  if (changes.address !== undefined) columns.address = changes.address;
  if (changes.partnerCompany !== undefined) columns.partner_company = changes.partnerCompany;
  if (changes.isAdmin !== undefined) columns.is_admin = changes.isAdmin;
  if (changes.grantedRoles !== undefined) columns.granted_roles = changes.grantedRoles;
  return columns;
};

export async function updateUser(trx: Knex.Transaction, id: string, changes: UserChanges): Promise<User> {
  const [row] = (await trx('users')
    .where({ id })
    .update({ ...columnsOf(changes), updated_at: trx.fn.now() })
    .returning(COLUMNS)) as UserRow[];
  return toUser(row!);
}

/** Applies `changes` and ends every session of the account: every token issued before is refused. */
export async function updateUserEndingSessions(trx: Knex.Transaction, id: string, changes: UserChanges): Promise<User> {
  await endSessionsOf(trx, id);
  return updateUser(trx, id, changes);
}

/**
 * Deletes an account by anonymising its row: the id stays (orders and tickets refer to it), every personal
 * field goes, the e-mail and CPF become free for a new account and every session ends.
 */
export async function anonymiseUser(trx: Knex.Transaction, id: string, name: string): Promise<User> {
  await endSessionsOf(trx, id);
  const [row] = (await trx('users')
    .where({ id })
    .whereNull('deleted_at')
    .update({
      name,
      email: `deleted+${id}@invalid`,
      email_verified: false,
      password_hash: null,
      cpf: null,
      phone: null,
      birth_date: null,
      address: null,
      partner_company: null,
      is_admin: false,
      granted_roles: [],
      deleted_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    })
    .returning(COLUMNS)) as UserRow[];
  return toUser(row!);
}

/** Makes an account an administrator; undefined when there is no such account. */
export async function promoteToAdmin(trx: Knex.Transaction, id: string): Promise<User | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = (await trx('users')
    .where({ id })
    .whereNull('deleted_at')
    .update({ is_admin: true, updated_at: trx.fn.now() })
    .returning(COLUMNS)) as UserRow[];
  return row && toUser(row);
}

/**
 * Replaces the roles granted to an account, locked by the caller as `current`. Sessions go on: the account's signed
 * session state lists its roles now, and every token counts only those.
 */
export async function setGrantedRoles(trx: Knex.Transaction, current: User, roles: GrantableRole[]): Promise<User> {
  const [row] = (await trx('users')
    .where({ id: current.id })
    .update({ granted_roles: roles, updated_at: trx.fn.now() })
    .returning(COLUMNS)) as UserRow[];
  return toUser(row!);
}

/** Whether the id names an account, deleted or not. */
export async function accountExists(db: Knex, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return (await db('users').select('id').where({ id }).first()) !== undefined;
}
