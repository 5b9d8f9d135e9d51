import { z } from 'zod';

export const userRegistered = z.object({ userId: z.uuid(), email: z.string(), name: z.string() });

/** Carries the code itself (mail has to show it); the service keeps only its hash. */
export const verificationCodeIssued = z.object({
  userId: z.uuid(),
  email: z.string(),
  name: z.string(),
  code: z.string().regex(/^\d{6}$/),
  expiresAt: z.iso.datetime({ offset: true }),
});

/** Carries the single-use token for the e-mailed link; the service keeps only its hash. */
export const passwordResetRequested = z.object({
  userId: z.uuid(),
  email: z.string(),
  name: z.string(),
  token: z.string(),
  expiresAt: z.iso.datetime({ offset: true }),
});

export const userDeleted = z.object({ userId: z.uuid() });
