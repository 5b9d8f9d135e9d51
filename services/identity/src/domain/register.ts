import { conflict } from '@ticketing/platform';
import type { EventPayload, RegisterInput } from '@ticketing/proto';
import { findTaken, insertUser, takenField } from '../data/users-repository.ts';
import { issueVerificationCode, startResendCooldown } from './email-verification.ts';
import { hashPassword } from './passwords.ts';
import { messages, type IdentityDeps, type User } from './user.ts';

const takenMessage = { email: messages.emailTaken, cpf: messages.cpfTaken } as const;

/**
 * Creates an unverified account and sends its first verification code. An e-mail or CPF already in use is a
 * 409; the unique indexes settle two registrations racing for the same one.
 */
export async function registerUser(deps: IdentityDeps, input: RegisterInput): Promise<User> {
  const taken = await findTaken(deps.db, { email: input.email, cpf: input.cpf });
  if (taken) throw conflict(takenMessage[taken]);
  const passwordHash = await hashPassword(input.password);
  const user = await deps.db
    .transaction(async (trx) => {
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
    })
    .catch((error: unknown) => {
      const field = takenField(error);
      throw field ? conflict(takenMessage[field]) : error;
    });
  // The code just went out: the resend button waits its 30 seconds from now.
  await startResendCooldown(deps, user.email).catch(() => false);
  deps.logger.info({ userId: user.id }, 'user registered');
  return user;
}
