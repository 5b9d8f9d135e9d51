import { z } from 'zod';
import { fromCents } from '../money.ts';
import { uuidParam } from './params.ts';
import type { EventTicketTypes } from './catalog.ts';
import { addressField, cpfField, emailField, nameField, phoneField } from './identity.ts';

export const courtesyMessages = {
  invalidCode: 'Este código de cortesia não é válido ou já foi utilizado.',
  alreadyRedeemed: 'Você já resgatou esta cortesia.',
  promotionalLink: 'Este código é promocional: use-o na compra do ingresso, na página do evento.',
  exhausted: 'Esta cortesia já foi totalmente utilizada.',
  linkNotFound: 'Link de cortesia não encontrado',
  unknownTicketType: 'Tipo de ingresso não encontrado neste evento',
  notEnoughSpots: 'O evento não tem vagas suficientes para esta quantidade de cortesias.',
  eventNotFound: 'Evento não encontrado',
  eventUnavailable: 'Este evento não está disponível para cortesias.',
  selectEvent: 'Por favor, selecione um evento para o link de cortesia',
  ticketCount: 'A quantidade de ingressos deve ser um número inteiro entre 1 e 100',
  overridePrice: 'O preço promocional deve ser um valor maior ou igual a zero',
  csvRequired: 'Por favor, selecione um arquivo CSV.',
  csvNotCsv: 'O arquivo enviado não é um CSV de texto.',
  csvTooLarge: 'O arquivo CSV deve ter no máximo 2 MB.',
  csvTooManyRows: 'O arquivo CSV deve ter no máximo 5.000 linhas.',
  csvEmpty: 'O arquivo CSV não tem nenhuma linha de convidado.',
  csvHeader: 'Cabeçalho inválido: a primeira linha deve ser name, email, amount_of_courtesies, event_id',
  attachmentTooLarge: 'O anexo deve ter no máximo 10 MB.',
  attachmentType: 'O anexo deve ser um PDF, PNG ou JPEG.',
  duplicateUpload:
    'Este mesmo arquivo já foi enviado nas últimas 24 horas. Envie novamente com confirmação para convidar todos outra vez.',
  jobNotFound: 'Envio não encontrado',
  attachmentNotFound: 'Anexo não encontrado',
} as const;

/** Promotional prices are capped like event prices: up to R$ 99.999.999,99. */
const MAX_PRICE_CENTS = 9_999_999_999;

/** POST /api/courtesy-links: a free link (overridePrice null) or a promotional one with its ticket price. */
export const createCourtesyLinkSchema = z.object(
  {
    eventId: z.uuid({ error: courtesyMessages.selectEvent }),
    ticketCount: z
      .number({ error: courtesyMessages.ticketCount })
      .int(courtesyMessages.ticketCount)
      .min(1, courtesyMessages.ticketCount)
      .max(100, courtesyMessages.ticketCount),
    overridePrice: z
      .number({ error: courtesyMessages.overridePrice })
      .min(0, courtesyMessages.overridePrice)
      .refine((price) => Math.round(price * 100) <= MAX_PRICE_CENTS, courtesyMessages.overridePrice)
      .transform((price) => fromCents(Math.round(price * 100)))
      .nullable()
      .default(null),
    /** The type its tickets are of; absent: the event's first type. */
    ticketTypeId: z.uuid({ error: courtesyMessages.unknownTicketType }).optional(),
  },
  { error: 'Dados do link de cortesia inválidos' },
);
export type CreateCourtesyLink = z.infer<typeof createCourtesyLinkSchema>;

/** A courtesy code as typed: matched case-insensitively, so it is upper-cased. */
export const courtesyCodeField = z
  .string({ error: 'Código inválido' })
  .trim()
  .min(1, 'Código inválido')
  .max(100, 'Código inválido')
  .transform((code) => code.toUpperCase());

/** YYYY-MM-DD, a real calendar date in the past. */
const isoBirthDate = z
  .string({ error: 'Data deve estar no formato AAAA-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Data deve estar no formato AAAA-MM-DD')
  .refine((iso) => {
    const date = new Date(`${iso}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) && iso >= '1900-01-01';
  }, 'Data de nascimento inválida')
  .refine((iso) => new Date(`${iso}T00:00:00Z`).getTime() < Date.now(), 'A data de nascimento deve estar no passado');

const requiredText = (message: string, field: string) =>
  z.string({ error: message }).trim().min(2, message).max(255, `${field} deve ter no máximo 255 caracteres`);

/** The redemption form (spec §5), as the page checks it and the server checks it again. */
export const redeemCourtesyFormSchema = z
  .object({
    name: nameField,
    email: emailField,
    emailConfirm: z.string({ error: 'Email inválido' }).trim().pipe(z.email('Email inválido')),
    cpf: cpfField,
    partnerCompany: requiredText('Empresa parceira é obrigatória', 'Empresa parceira'),
    occupation: requiredText('Cargo é obrigatório', 'Cargo'),
    birthDate: isoBirthDate,
    address: addressField,
    phone: phoneField,
    code: courtesyCodeField,
  })
  .refine((form) => form.email === form.emailConfirm.toLowerCase(), {
    message: 'Os emails não coincidem',
    path: ['emailConfirm'],
  });
export type RedeemCourtesy = z.infer<typeof redeemCourtesyFormSchema>;

/** One row of the mass-send CSV, with the column names of its header. */
export const massSendRowSchema = z.object({
  name: nameField,
  email: z
    .string()
    .trim()
    .max(255, 'e-mail inválido')
    .pipe(z.email('e-mail inválido'))
    .transform((e) => e.toLowerCase()),
  amount_of_courtesies: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, 'quantidade de cortesias deve ser um número inteiro entre 1 e 100')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, 'quantidade de cortesias deve ser um número inteiro entre 1 e 100'),
  event_id: z.string().trim().pipe(z.uuid('event_id inválido')),
});
export const MASS_SEND_COLUMNS = ['name', 'email', 'amount_of_courtesies', 'event_id'] as const;
export const MASS_SEND_LIMITS = {
  maxRows: 5_000,
  csvBytes: 2 * 1024 * 1024,
  attachmentBytes: 10 * 1024 * 1024,
} as const;

/** The ticket type a link's tickets are of; null for a link made before links named one (the event's one type). */
export type CourtesyLinkTicketType = { id: string; name: string } | null;

/** A courtesy link as the admin list reads it (spec §3). */
export interface CourtesyLinkView {
  id: string;
  code: string;
  event: { title: string };
  eventId: string;
  ticketType: CourtesyLinkTicketType;
  ticketCount: number;
  remainingTickets: number;
  overridePrice: string | null;
  isActive: boolean;
  createdAt: string;
  redeemUrl: string;
}

/** GET /api/courtesy-links/:code, public. */
export interface PublicCourtesyLinkView {
  code: string;
  eventId: string;
  event: { title: string; date: string; location: string };
  ticketType: CourtesyLinkTicketType;
  remainingTickets: number;
  overridePrice: string | null;
}

/** `GET /api/courtesy/events/:id/ticket-types`: the types a link of the event may name, hidden ones too, in order. */
export type CourtesyEventTicketTypes = EventTicketTypes;

export type MassSendStatus = 'queued' | 'running' | 'done';

/** GET /api/courtesy/mass-send/:jobId: what the progress bar shows. */
export interface MassSendJobView {
  id: string;
  status: MassSendStatus;
  total: number;
  sent: number;
  failed: number;
  createdAt: string;
  finishedAt: string | null;
  /** The guests that could not be invited, and why (the first 100). */
  failures: { line: number; email: string; error: string }[];
}

/** GET /api/courtesy-links/:id/redemptions(.csv): the link's id. */
export const courtesyLinkIdParamSchema = z.object(
  { id: uuidParam('Link de cortesia inválido') },
  { error: 'Link de cortesia inválido' },
);

/** One redemption of a free link, or one use of a promotional link by an order. */
export interface CourtesyRedemptionView {
  /** What the guest typed (what erasure left of it); null for a promotional use, whose buyer orders knows. */
  name: string | null;
  email: string | null;
  /** Masked: `***.456.789-**`; null when there is none (a promotional use, an erased guest). */
  cpf: string | null;
  /** The order, once courtesy has heard of it. */
  orderId: string | null;
  orderNumber: string | null;
  redeemedAt: string;
}

/** GET /api/courtesy-links/:id/redemptions: who redeemed the link, newest first, paged, with its totals. */
export interface CourtesyRedemptionsView {
  link: {
    id: string;
    code: string;
    event: { title: string };
    promotional: boolean;
    isActive: boolean;
    /** Uses taken, and how many the link gives. */
    redeemed: number;
    max: number;
  };
  redemptions: CourtesyRedemptionView[];
  page: number;
  totalPages: number;
}

const promoEventIdField = z.string({ error: courtesyMessages.invalidCode }).pipe(z.uuid(courtesyMessages.invalidCode));

/** `GET /internal/promo-links/:code?eventId=` (orders): which event the code must be a promotional link of. */
export const promoQuoteQuerySchema = z.object({ eventId: promoEventIdField });

/** `PUT /internal/promo-uses/:orderId` (orders): the code whose use the order takes, and its event. */
export const promoUseRequestSchema = z.object({ code: courtesyCodeField, eventId: promoEventIdField });
export type PromoUseRequest = z.input<typeof promoUseRequestSchema>;

/**
 * The answer to a quote and to a use taken: which link, the ticket price it gives ("80.00"), and the type its
 * ticket is of (null for a link made before links named one: any type, hidden ones too, as then).
 */
export const promoQuoteSchema = z.object({
  linkId: z.uuid(),
  overridePrice: z.string().regex(/^\d{1,8}\.\d{2}$/),
  ticketType: z.object({ id: z.uuid(), name: z.string() }).nullable(),
});
export type PromoQuote = z.infer<typeof promoQuoteSchema>;

/** `DELETE /internal/promo-uses/:orderId`: whether the order had a use to give back. */
export const promoUseReleaseSchema = z.object({ released: z.boolean() });
export type PromoUseRelease = z.infer<typeof promoUseReleaseSchema>;

/** `DELETE /api/courtesy-links/:id`: the link to deactivate. */
export const courtesyLinkParamsSchema = z.object({ id: uuidParam(courtesyMessages.linkNotFound) });
/** `GET /api/courtesy-links/:code`: the code a guest opened. */
export const courtesyLinkCodeParamsSchema = z.object(
  { code: courtesyCodeField },
  { error: courtesyMessages.invalidCode },
);

/** `GET /api/courtesy/mass-send/:jobId`: the job whose progress is shown. */
export const massSendJobParamsSchema = z.object({ jobId: uuidParam(courtesyMessages.jobNotFound) });

/** `GET /internal/attachments/:id` (mail): the file sent with a mass invitation. */
export const attachmentParamsSchema = z.object({ id: uuidParam(courtesyMessages.attachmentNotFound) });

/** `PUT|DELETE /internal/promo-uses/:orderId` (orders): the order whose use is taken or given back. */
export const promoUseParamsSchema = z.object({ orderId: uuidParam(courtesyMessages.invalidCode) });
