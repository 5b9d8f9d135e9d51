import { z } from 'zod';
import { decimalAmount, fromCents, toCents } from '../money.ts';
import { pageQuerySchema, uuidParam } from './params.ts';

export const couponMessages = {
  invalid: 'Cupom inválido',
  usedUp: 'Cupom esgotado',
  expired: 'Cupom expirado',
  notYet: 'Este cupom ainda não está valendo.',
  otherTypes: 'Este cupom não vale para os ingressos escolhidos.',
  withPromo: 'Use o cupom ou o código promocional, não os dois no mesmo pedido.',
  code: 'O código do cupom deve ter de 3 a 40 letras, números, - ou _.',
  codeTaken: 'Já existe um cupom com este código.',
  discountOne: 'Informe o percentual ou o valor do desconto (apenas um deles).',
  percentOff: 'O percentual de desconto deve ser um número inteiro de 1 a 100.',
  amountOff: 'O valor do desconto deve ser maior que zero.',
  maxUses: 'O limite de usos deve ser um número inteiro de 1 a 100.000.',
  window: 'O fim da validade deve ser depois do início.',
  dateInvalid: 'Data inválida: use o formato ISO 8601 com fuso horário',
  eventNotFound: 'Evento não encontrado',
  ticketTypes: 'Tipos de ingresso inválidos',
  unknownTicketType: 'Tipo de ingresso não encontrado neste evento',
  ticketTypesNeedEvent: 'Para limitar o cupom a tipos de ingresso, escolha o evento.',
  notFound: 'Cupom não encontrado',
  invalidData: 'Dados do cupom inválidos',
  tooManyQuotes: 'Muitas tentativas de cupom. Aguarde alguns minutos e tente novamente.',
} as const;

/** A coupon's code as typed at checkout: matched case-insensitively, so it is upper-cased. */
export const couponCodeField = z
  .string({ error: couponMessages.invalid })
  .trim()
  .min(1, couponMessages.invalid)
  .max(40, couponMessages.invalid)
  .transform((code) => code.toUpperCase());

const couponDate = z.iso.datetime({ offset: true, error: couponMessages.dateInvalid });

/**
 * `POST /api/coupons` (administrators): a code for one event (`eventId`) or every event, taking `percentOff` % or
 * `amountOff` reais off an order's tickets (one of them), optionally only off some ticket types, at most `maxUses`
 * orders (none: no cap), between `startsAt` and `endsAt` (either open).
 */
export const createCouponSchema = z
  .strictObject(
    {
      code: z
        .string({ error: couponMessages.code })
        .trim()
        .regex(/^[A-Za-z0-9_-]{3,40}$/, couponMessages.code)
        .transform((code) => code.toUpperCase()),
      eventId: z.uuid({ error: couponMessages.eventNotFound }).nullable().default(null),
      percentOff: z
        .number({ error: couponMessages.percentOff })
        .int(couponMessages.percentOff)
        .min(1, couponMessages.percentOff)
        .max(100, couponMessages.percentOff)
        .nullable()
        .default(null),
      amountOff: decimalAmount(couponMessages.amountOff)
        .refine((value) => toCents(value) > 0, couponMessages.amountOff)
        .nullable()
        .default(null),
      maxUses: z
        .number({ error: couponMessages.maxUses })
        .int(couponMessages.maxUses)
        .min(1, couponMessages.maxUses)
        .max(100_000, couponMessages.maxUses)
        .nullable()
        .default(null),
      startsAt: couponDate.nullable().default(null),
      endsAt: couponDate.nullable().default(null),
      /** Only these types of the event are discounted; none: every type. */
      ticketTypeIds: z
        .array(z.uuid({ error: couponMessages.ticketTypes }), { error: couponMessages.ticketTypes })
        .max(20, couponMessages.ticketTypes)
        .default([]),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Campo desconhecido: ${issue.keys.join(', ')}`
          : couponMessages.invalidData,
    },
  )
  .refine((coupon) => (coupon.percentOff === null) !== (coupon.amountOff === null), {
    error: couponMessages.discountOne,
    path: ['percentOff'],
  })
  .refine((coupon) => !coupon.startsAt || !coupon.endsAt || coupon.startsAt < coupon.endsAt, {
    error: couponMessages.window,
    path: ['endsAt'],
  })
  .refine((coupon) => coupon.ticketTypeIds.length === 0 || coupon.eventId !== null, {
    error: couponMessages.ticketTypesNeedEvent,
    path: ['ticketTypeIds'],
  });
export type CreateCoupon = z.infer<typeof createCouponSchema>;

/** `PATCH /api/coupons/:id`: an administrator turns a coupon off (or on again); uses already taken stand. */
export const updateCouponSchema = z.strictObject(
  { isActive: z.boolean({ error: couponMessages.invalidData }) },
  { error: couponMessages.invalidData },
);
export const couponParamsSchema = z.object({ id: uuidParam(couponMessages.notFound) });
export const couponListQuerySchema = pageQuerySchema;

/** A coupon as the back office lists it, newest first. */
export interface CouponView {
  id: string;
  code: string;
  eventId: string | null;
  /** The event's title (null for a coupon of every event). */
  eventTitle: string | null;
  percentOff: number | null;
  amountOff: string | null;
  maxUses: number | null;
  usedCount: number;
  startsAt: string | null;
  endsAt: string | null;
  ticketTypeIds: string[];
  isActive: boolean;
  createdAt: string;
}
export interface CouponListAnswer {
  coupons: CouponView[];
  page: number;
  totalPages: number;
}

/**
 * What a coupon takes off: `percentOff` % or `amountOff` reais, off the tickets of `ticketTypeIds` (empty: every
 * type). The answer to `GET /api/coupons/:code/quote?eventId=` (the checkout shows the discount before buying) and to
 * `PUT /internal/coupon-uses/:orderId` (orders takes one use for its order).
 */
export const couponQuoteSchema = z.object({
  couponId: z.uuid(),
  code: z.string(),
  percentOff: z.number().int().nullable(),
  amountOff: z.string().nullable(),
  ticketTypeIds: z.array(z.uuid()),
});
export type CouponQuote = z.infer<typeof couponQuoteSchema>;

const couponEventIdField = z.string({ error: couponMessages.invalid }).pipe(z.uuid(couponMessages.invalid));

/** `GET /api/coupons/:code/quote?eventId=`: the event the coupon is to be used at. */
export const couponQuoteQuerySchema = z.object({ eventId: couponEventIdField });
export const couponCodeParamsSchema = z.object({ code: couponCodeField });

/** `PUT /internal/coupon-uses/:orderId` (orders): the code typed, the order's event and the types it buys. */
export const couponUseRequestSchema = z.object({
  code: couponCodeField,
  eventId: couponEventIdField,
  ticketTypeIds: z.array(z.uuid()).min(1),
});
export type CouponUseRequest = z.input<typeof couponUseRequestSchema>;
export const couponUseParamsSchema = z.object({ orderId: uuidParam(couponMessages.invalid) });
/** `DELETE /internal/coupon-uses/:orderId`: whether the order had a use to give back. */
export const couponUseReleaseSchema = z.object({ released: z.boolean() });

/**
 * What a coupon takes off an order's tickets, in cents: a percentage of the prices of the tickets it covers (rounded
 * to the cent), or its amount, never more than those prices. The convenience fee is never discounted.
 */
export function couponDiscountCents(
  coupon: Pick<CouponQuote, 'percentOff' | 'amountOff' | 'ticketTypeIds'>,
  lines: { ticketTypeId: string; price: string }[],
): number {
  const covered = lines
    .filter((line) => coupon.ticketTypeIds.length === 0 || coupon.ticketTypeIds.includes(line.ticketTypeId))
    .reduce((sum, line) => sum + toCents(line.price), 0);
  if (coupon.percentOff !== null) return Math.round((covered * coupon.percentOff) / 100);
  return Math.min(toCents(coupon.amountOff ?? '0'), covered);
}

/** The discount as money travels ("25.80"). */
export const couponDiscount = (...args: Parameters<typeof couponDiscountCents>) =>
  fromCents(couponDiscountCents(...args));
