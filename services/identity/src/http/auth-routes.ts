import { Router } from '@koa/router';
import { parseInput, requireUser } from '@ticketing/platform';
import {
  emailOnlySchema,
  loginSchema,
  registerFormSchema,
  registerSchema,
  resetPasswordSchema,
  signInLinkSchema,
  verifyCodeSchema,
  type RenewView,
} from '@ticketing/proto';
import { resendCode, resendVerification, verifyEmail } from '../domain/email-verification.ts';
import { logIn, logOut } from '../domain/login.ts';
import { requestPasswordReset, resetPassword } from '../domain/password-reset.ts';
import { currentUser } from '../domain/profile.ts';
import { renewSession } from '../domain/renew-session.ts';
import { registerUser } from '../domain/register.ts';
import { createSessionVerifier, type SessionUser } from '../domain/sessions.ts';
import { signInWithLink } from '../domain/sign-in-link.ts';
import { messages, type IdentityDeps } from '../domain/user.ts';
import { clientIp, retryAfter, sessionOf } from './input.ts';
import { toUserView } from './views.ts';

/**
 * The register page sends only the account's fields. A client that also sends the form's confirmations and
 * terms gets them checked with the form's own messages.
 */
const FORM_FIELDS = ['emailConfirm', 'confirmPassword', 'terms'];

function parseRegistration(body: unknown) {
  const isForm = typeof body === 'object' && body !== null && FORM_FIELDS.some((field) => field in body);
  return isForm ? parseInput(registerFormSchema, body) : parseInput(registerSchema, body);
}

/** Registration, login (with a password or an e-mailed link), e-mail verification, password reset and the current user, under /api/auth. */
export function authRoutes(deps: IdentityDeps, verifySession: (token: string) => Promise<SessionUser>): Router {
  const router = new Router({ prefix: '/api/auth' });
  const authenticated = requireUser(verifySession);
  // Renewal judges the token's session in the database itself (two tabs may renew one token at once).
  const renewable = requireUser(createSessionVerifier(deps.keys, deps.settings));
  router.use(retryAfter);

  // The same answer whether or not an account was created: it never tells whose e-mail or CPF is taken.
  router.post('/register', async (ctx) => {
    const input = parseRegistration(ctx.request.body);
    await registerUser(deps, input);
    ctx.status = 202;
    ctx.body = { email: input.email, message: messages.registrationReceived };
  });

  router.post('/sign-in-link', async (ctx) => {
    const input = parseInput(signInLinkSchema, ctx.request.body);
    const { token, user } = await signInWithLink(deps, { ...input, ip: clientIp(ctx) });
    ctx.body = { token, user: toUserView(user, deps.settings) };
  });

  router.post('/login', async (ctx) => {
    const input = parseInput(loginSchema, ctx.request.body);
    const { token, user } = await logIn(deps, { ...input, ip: clientIp(ctx) });
    ctx.body = { token, user: toUserView(user, deps.settings) };
  });

  router.post('/logout', authenticated, async (ctx) => {
    await logOut(deps, sessionOf(ctx));
    ctx.status = 204;
  });

  router.post('/verify-code', async (ctx) => {
    const { token } = await verifyEmail(deps, parseInput(verifyCodeSchema, ctx.request.body));
    ctx.body = { token, message: messages.emailVerified };
  });

  router.post('/resend-code', async (ctx) => {
    await resendCode(deps, parseInput(emailOnlySchema, ctx.request.body));
    ctx.body = { message: messages.codeSent };
  });

  router.post('/resend-verification', authenticated, async (ctx) => {
    await resendVerification(deps, sessionOf(ctx));
    ctx.body = { message: messages.codeSent };
  });

  router.post('/forgot-password', async (ctx) => {
    await requestPasswordReset(deps, parseInput(emailOnlySchema, ctx.request.body));
    ctx.body = { message: messages.forgotPasswordSent };
  });

  router.post('/reset-password', async (ctx) => {
    await resetPassword(deps, parseInput(resetPasswordSchema, ctx.request.body));
    ctx.body = { message: messages.passwordReset };
  });

  // A page kept open (the door's scanner) trades its token for the next one of its session before it expires.
  router.post('/renew', renewable, async (ctx) => {
    const { token, expiresAt } = await renewSession(deps, sessionOf(ctx));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { token, expiresAt: expiresAt.toISOString() } satisfies RenewView;
  });

  router.get('/me', authenticated, async (ctx) => {
    ctx.body = toUserView(await currentUser(deps, sessionOf(ctx)), deps.settings);
  });

  return router;
}
