import { z } from 'zod';

/** The convenience fee added to every paid ticket (spec §9): R$ 5,00. */
export const CONVENIENCE_FEE_CENTS = 500;

/** How long each method's payment window keeps the spot held. */
export const PAYMENT_WINDOWS = { pixMinutes: 30, cardHours: 24, boletoBusinessDays: 7 } as const;

/** The catalog hold that keeps an order's spot, named after the order so every retry is the same hold. */
export const orderHoldId = (orderId: string) => `order:${orderId}`;

export const ORDER_STATUSES = ['pending', 'paid', 'cancelled', 'expired', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ordersMessages = {
  emailNotVerified: 'Confirme seu e-mail antes de comprar ingressos.',
  soldOut: 'Evento esgotado',
  unavailable: 'Este evento não está disponível para compra.',
  eventNotFound: 'Evento não encontrado',
  invalidPromo: 'Este código promocional não é válido para este evento.',
  paymentError: 'Erro ao processar pagamento',
  orderNotFound: 'Pedido não encontrado',
  alreadyPaid: 'Este pedido já foi pago e não pode ser cancelado.',
  notPending: 'Apenas pedidos aguardando pagamento podem ser cancelados.',
  cancelled: 'Pedido cancelado.',
  checkTooSoon: 'Aguarde alguns segundos antes de verificar o pagamento novamente.',
  paymentConfirmed: 'Pagamento confirmado! Seu ingresso foi enviado por e-mail.',
  paymentPending: 'Pagamento ainda não identificado. Tente novamente em alguns minutos.',
  notCheckable: 'Este pedido não está aguardando pagamento.',
} as const;

export const createOrderSchema = z.object(
  {
    eventId: z.uuid({ error: 'Evento inválido' }),
    paymentMethod: z.enum(['pix', 'credit_card', 'boleto'], { error: 'Forma de pagamento inválida' }),
    promoCode: z
      .string({ error: 'Código promocional inválido' })
      .trim()
      .max(100, 'Código promocional inválido')
      .transform((code) => code.toUpperCase())
      .optional(),
  },
  { error: 'Dados do pedido inválidos' },
);

export const pageQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'Página inválida' })
    .int('Página inválida')
    .min(1, 'Página inválida')
    .max(100_000, 'Página inválida')
    .default(1),
});

export type CreateOrder = z.infer<typeof createOrderSchema>;

/** An order as the profile page reads it (spec §7). */
export interface OrderView {
  id: string;
  orderNumber: string;
  status: OrderStatus;
  amount: string;
  /** Null for a courtesy order: paid at R$ 0,00 when the courtesy was redeemed. */
  paymentMethod: 'pix' | 'credit_card' | 'boleto' | null;
  createdAt: string;
  expiresAt: string | null;
  qrCodeData: string | null;
  qrCodeUsed: boolean;
  qrCodeUsedAt: string | null;
  asaasPaymentId: string | null;
  event: { title: string; date: string; location: string };
}

/** What the checkout dialog shows after the order is made. */
export interface PaymentView {
  pixQrCode: string | null;
  pixPayload: string | null;
  boletoUrl: string | null;
  invoiceUrl: string | null;
  expiresAt: string;
}
