import { z } from 'zod';
import { uuidParam } from './params.ts';
import { isValidCpf } from '../cpf.ts';
import { GRANTABLE_ROLES, type Role } from '../roles.ts';

export const identityMessages = {
  emailTaken: 'Este e-mail já está cadastrado',
  invalidCredentials: 'Email ou senha inválidos',
  tooManyAttempts: 'Muitas tentativas. Tente novamente em alguns minutos.',
  invalidCode: 'Código inválido ou expirado',
  codeAttemptsExceeded: 'Muitas tentativas com este código. Solicite um novo código.',
  codeAttemptsToday: 'Muitas tentativas de código hoje. Tente novamente amanhã.',
  resendTooSoon: 'Aguarde 30 segundos para solicitar um novo código.',
  codeSent: 'Se o e-mail estiver cadastrado e não verificado, enviaremos um novo código.',
  forgotPasswordSent: 'Se sua conta existir, enviaremos um link para redefinir sua senha.',
  invalidResetToken: 'Link de redefinição inválido ou expirado. Solicite um novo.',
  passwordReset: 'Senha redefinida com sucesso. Faça login com a nova senha.',
  passwordRequired: 'Senha necessária',
  wrongPassword: 'Senha atual incorreta',
  wrongDeletePassword: 'Senha incorreta',
  cpfReadOnly: 'O CPF não pode ser alterado',
  userNotFound: 'Usuário não encontrado',
  emailVerified: 'E-mail verificado com sucesso',
  registrationReceived:
    'Se os dados estiverem disponíveis, você receberá um código de verificação no e-mail informado. Se já tiver conta, enviamos as instruções para o e-mail dela.',
  commonPassword: 'Esta senha é muito comum e fácil de adivinhar. Escolha outra.',
  rolesNeedVerifiedEmail: 'Papéis só podem ser concedidos a contas com e-mail verificado',
  signInLinkSent:
    'Por segurança, este acesso precisa de confirmação: enviamos um link de acesso para o e-mail da conta, se ela existir. Abra o link para entrar.',
  invalidSignInLink: 'Link de acesso inválido ou expirado. Faça login novamente.',
} as const;

/** The answer to a door staff list naming e-mails that are not verified accounts. */
export const notVerifiedAccountsMessage = (emails: readonly string[]) =>
  emails.length === 1
    ? `Não há conta com e-mail verificado para ${emails[0]}`
    : `Não há conta com e-mail verificado para: ${emails.join(', ')}`;

/** Passwords people choose: at least this long, and not on the list of common passwords (the server's rule). */
export const PASSWORD_MIN_LENGTH = 8;

const MAX_TEXT = 255;
const tooLong = (field: string, max = MAX_TEXT) => `${field} deve ter no máximo ${max} caracteres`;

export const nameField = z
  .string({ error: 'Nome deve ter pelo menos 2 caracteres' })
  .trim()
  .min(2, 'Nome deve ter pelo menos 2 caracteres')
  .max(MAX_TEXT, tooLong('Nome'));
export const emailField = z
  .string({ error: 'Email inválido' })
  .trim()
  .max(MAX_TEXT, 'Email inválido')
  .pipe(z.email('Email inválido'))
  .transform((email) => email.toLowerCase());
export const cpfField = z
  .string({ error: 'CPF deve estar no formato 000.000.000-00' })
  .regex(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/, 'CPF deve estar no formato 000.000.000-00')
  .refine(isValidCpf, 'CPF inválido');
/** (00) 00000-0000 for mobiles; (00) 0000-0000 for landlines. */
export const phoneField = z
  .string({ error: 'Telefone deve estar no formato (00) 00000-0000' })
  .regex(/^\(\d{2}\) \d{4,5}-\d{4}$/, 'Telefone deve estar no formato (00) 00000-0000');
export const addressField = z
  .string({ error: 'Endereço deve ter pelo menos 10 caracteres' })
  .trim()
  .min(10, 'Endereço deve ter pelo menos 10 caracteres')
  .max(500, tooLong('Endereço', 500));
const passwordTooShort = `Senha deve ter pelo menos ${PASSWORD_MIN_LENGTH} caracteres`;
export const passwordField = z
  .string({ error: passwordTooShort })
  .min(PASSWORD_MIN_LENGTH, passwordTooShort)
  .max(128, tooLong('Senha', 128));

/** dd/mm/aaaa, a real calendar date in the past; yields ISO 'YYYY-MM-DD'. */
export const birthDateField = z
  .string({ error: 'Data deve estar no formato dd/mm/aaaa' })
  .regex(/^\d{2}\/\d{2}\/\d{4}$/, 'Data deve estar no formato dd/mm/aaaa')
  .transform((value) => value.split('/').reverse().join('-'))
  .refine((iso) => {
    const date = new Date(`${iso}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) && iso >= '1900-01-01';
  }, 'Data de nascimento inválida')
  .refine((iso) => new Date(`${iso}T00:00:00Z`).getTime() < Date.now(), 'A data de nascimento deve estar no passado');

const partnerCompanyField = z.string({ error: 'Empresa inválida' }).trim().max(MAX_TEXT, tooLong('Empresa'));

/** POST /api/auth/register, as the client sends it (no confirmations, no terms). */
export const registerSchema = z.object({
  name: nameField,
  cpf: cpfField,
  birthDate: birthDateField,
  email: emailField,
  phone: phoneField,
  address: addressField,
  password: passwordField,
  partnerCompany: partnerCompanyField.optional(),
});

/** The register form: the payload plus the confirmations and the terms the page checks. */
export const registerFormSchema = registerSchema
  .extend({
    emailConfirm: z.string({ error: 'Os e-mails não coincidem' }),
    confirmPassword: z.string({ error: 'As senhas não coincidem' }).min(PASSWORD_MIN_LENGTH, passwordTooShort),
    terms: z.literal(true, { error: 'Você deve aceitar os termos' }),
  })
  .refine((form) => form.email === form.emailConfirm.trim().toLowerCase(), {
    message: 'Os e-mails não coincidem',
    path: ['emailConfirm'],
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: 'As senhas não coincidem',
    path: ['confirmPassword'],
  });

export const loginSchema = z.object({
  email: emailField,
  password: z.string({ error: 'Senha é obrigatória' }).min(1, 'Senha é obrigatória').max(128, 'Senha inválida'),
  rememberMe: z.boolean({ error: 'Opção "lembrar-me" inválida' }).optional(),
});

export const verifyCodeSchema = z.object({
  email: emailField,
  code: z.string({ error: 'O código deve ter 6 dígitos' }).regex(/^\d{6}$/, 'O código deve ter 6 dígitos'),
});

export const emailOnlySchema = z.object({ email: emailField });

/** `PUT /api/admin/users/roles`: the roles the account holds from now on, beyond the configured ones. */
export const grantRolesSchema = z.object({
  email: emailField,
  roles: z.array(z.enum(GRANTABLE_ROLES, { error: 'Papel inválido' }), { error: 'Informe a lista de papéis' }).max(2),
});

const eventIdField = z.uuid({ error: 'Evento inválido' });

/** `GET /api/admin/users/door-staff?eventId=…`. */
export const doorStaffQuerySchema = z.object({ eventId: eventIdField });

/** `PUT /api/admin/users/door-staff`: the whole staff of an event's door from now on, by e-mail. */
export const doorStaffSchema = z.object({
  eventId: eventIdField,
  emails: z.array(emailField, { error: 'Informe a lista de e-mails' }).max(200, 'No máximo 200 pessoas por evento'),
});

/** Who works an event's door, as the admin API answers it. */
export interface DoorStaffView {
  staff: { id: string; name: string; email: string }[];
}

/** `POST /api/auth/sign-in-link`: the token of the e-mailed sign-in link. */
export const signInLinkSchema = z.object({
  token: z
    .string({ error: 'Link de acesso inválido ou expirado. Faça login novamente.' })
    .min(1, 'Link de acesso inválido ou expirado. Faça login novamente.')
    .max(200, 'Link de acesso inválido ou expirado. Faça login novamente.'),
});

export const resetPasswordSchema = z
  .object({
    token: z
      .string({ error: 'Token inválido ou ausente.' })
      .min(1, 'Token inválido ou ausente.')
      .max(200, 'Token inválido ou ausente.'),
    newPassword: passwordField,
    confirmPassword: z.string({ error: 'As senhas não coincidem.' }),
  })
  .refine((body) => body.newPassword === body.confirmPassword, {
    message: 'As senhas não coincidem.',
    path: ['confirmPassword'],
  });

/** PUT /api/profile: changing name, e-mail or phone needs the current password. */
export const updateProfileSchema = z.object({
  name: nameField.optional(),
  email: emailField.optional(),
  phone: phoneField.optional(),
  address: addressField.optional(),
  partnerCompany: partnerCompanyField.nullable().optional(),
  cpf: z.string({ error: 'O CPF não pode ser alterado' }).optional(),
  currentPassword: z.string({ error: 'Senha necessária' }).max(128, 'Senha inválida').optional(),
});

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'Senha atual é obrigatória' })
    .min(1, 'Senha atual é obrigatória')
    .max(128, 'Senha inválida'),
  newPassword: passwordField,
});

export const deleteAccountSchema = z.object({
  password: z
    .string({ error: 'Digite sua senha para confirmar a exclusão.' })
    .min(1, 'Digite sua senha para confirmar a exclusão.')
    .max(128, 'Senha inválida'),
});

export type RegisterInput = z.infer<typeof registerSchema>;
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

/** `POST /api/auth/renew`: a fresh token for the same account, as long-lived as a new session of the same kind. */
export interface RenewView {
  token: string;
  /** ISO instant the new token expires. */
  expiresAt: string;
}

/** The current user as `GET /api/auth/me` and login answer it (spec §3), never with the password hash. */
export interface UserView {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  isAdmin: boolean;
  cpf: string;
  phone: string;
  address: string;
  birthDate: string;
  partnerCompany: string | null;
  canManageCourtesies: boolean;
  /** Every role the server grants; `isAdmin` and `canManageCourtesies` are the spec's view of two of them. */
  roles: Role[];
}

/** `GET /internal/users/:userId` (orders): a buyer as a purchase needs them. */
export const buyerViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  cpf: z.string().nullable(),
  phone: z.string().nullable(),
  emailVerified: z.boolean(),
});
export type BuyerView = z.infer<typeof buyerViewSchema>;

/** `GET /internal/sessions/:userId` (every service that checks tokens): the account's signed session state. */
export const sessionStateViewSchema = z.object({ state: z.string().min(1) });
export type SessionStateView = z.infer<typeof sessionStateViewSchema>;

/** `GET /internal/users/:userId`, `GET /internal/sessions/:userId`, `POST /api/make-admin/:userId`: the account. */
export const userParamsSchema = z.object({ userId: uuidParam(identityMessages.userNotFound) });
