import { z } from 'zod';
import { isoDateTime } from '../envelope.ts';

export const userRegistered = z.object({ userId: z.uuid(), email: z.string(), name: z.string() });

/** Carries the code itself (mail has to show it); the service keeps only its hash. */
export const verificationCodeIssued = z.object({
  userId: z.uuid(),
  email: z.string(),
  name: z.string(),
  code: z.string().regex(/^\d{6}$/),
  expiresAt: isoDateTime,
});

/** Carries the single-use token of an e-mailed link; the service keeps only its hash. */
const singleUseLinkIssued = z.object({
  userId: z.uuid(),
  email: z.string(),
  name: z.string(),
  token: z.string(),
  expiresAt: isoDateTime,
});

/** The link to choose a new password. */
export const passwordResetRequested = singleUseLinkIssued;

export const userDeleted = z.object({ userId: z.uuid() });

/** A sign-in link, sent when an account under guessing is tried from a new address. */
export const signInLinkRequested = singleUseLinkIssued;

/** Someone tried to register with this account's e-mail or CPF: the owner hears which, the form never says. */
export const registrationAttempted = z.object({
  userId: z.uuid(),
  email: z.string(),
  name: z.string(),
  taken: z.array(z.enum(['email', 'cpf'])).min(1),
});

/** The full set of events a door staffer may work now (empty once the role or the account is gone). */
export const doorEventsChanged = z.object({ userId: z.uuid(), eventIds: z.array(z.uuid()) });
