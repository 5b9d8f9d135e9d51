import type { EventPayload, RegisterInput } from '@ticketing/proto';
import { findHolders, insertUser, takenField } from '../data/users-repository.ts';
import { issueVerificationCode, startResendCooldown } from './email-verification.ts';
import { assertUncommonPassword, hashPassword } from './passwords.ts';
import type { IdentityDeps, User } from './user.ts';

/** At most one "someone tried to register with your data" e-mail per account in this time. */
const REGISTRATION_NOTICE_COOLDOWN_SECONDS = 10 * 60;

const registrationNoticeKey = (userId: string) => `identity:registration-notice:${userId}`;

/**
 * Creates an unverified account and sends its first verification code. When the e-mail or the CPF already
 * belongs to an account, nothing is created and that account's owner is told by e-mail which of their data was
 * used; the caller's answer is the same either way (the unique indexes settle two registrations racing).
 */
export async function registerUser(deps: IdentityDeps, input: RegisterInput): Promise<void> {
  assertUncommonPassword(input.password);
  // Hashed either way: the answer takes the same time whether or not an account is created.
  const passwordHash = await hashPassword(input.password);
  const holders = await findHolders(deps.db, input);
  const user =
    holders.length > 0
      ? undefined
      : await createAccount(deps, input, passwordHash).catch((error: unknown) => {
          if (takenField(error)) return undefined;
          throw error;
        });
  if (user) deps.logger.info({ userId: user.id }, 'user registered');
  else await tellHolders(deps, input, holders.length > 0 ? holders : await findHolders(deps.db, input));
  // A code went out, or would have: the resend button waits its 30 seconds from now in both cases.
  await startResendCooldown(deps, input.email).catch(() => false);
}

async function createAccount(deps: IdentityDeps, input: RegisterInput, passwordHash: string): Promise<User> {
  return deps.db.transaction(async (trx) => {
    const created = await insertUser(trx, {
      email: input.email,
      emailVerified: false,
      passwordHash,
      name: input.name,
      cpf: input.cpf,
      phone: input.phone,
      birthDate: input.birthDate,
      address: input.address,
      partnerCompany: input.partnerCompany || null,
    });
    const registered: EventPayload<'user.registered'> = {
      userId: created.id,
      email: created.email,
      name: created.name,
    };
    await deps.outbox.add(trx, 'user.registered', created.id, registered);
    await issueVerificationCode(deps, trx, created);
    return created;
  });
}

/** E-mails each account holding the e-mail or CPF of a refused registration which of them was used. */
async function tellHolders(deps: IdentityDeps, input: RegisterInput, holders: User[]): Promise<void> {
  for (const holder of holders) {
    const taken = [
      ...(holder.email === input.email ? (['email'] as const) : []),
      ...(holder.cpf === input.cpf ? (['cpf'] as const) : []),
    ];
    // Without Redis the cooldown is not known: the owner hears of this attempt anyway.
    const fresh = await deps.redis
      .set(registrationNoticeKey(holder.id), '1', 'EX', REGISTRATION_NOTICE_COOLDOWN_SECONDS, 'NX')
      .catch(() => 'OK');
    if (fresh !== 'OK') continue;
    const payload: EventPayload<'user.registration-attempted'> = {
      userId: holder.id,
      email: holder.email,
      name: holder.name,
      taken,
    };
    await deps.db.transaction((trx) => deps.outbox.add(trx, 'user.registration-attempted', holder.id, payload));
    deps.logger.info({ userId: holder.id, taken }, 'registration refused: data of an existing account');
  }
}
