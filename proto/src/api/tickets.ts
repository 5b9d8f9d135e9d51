import { z } from 'zod';
import type { EventPayload } from '../events/index.ts';
import { pageQuerySchema } from './params.ts';

/** How a reading at the door ended: the holder let in, or why not. */
export type ScanCode = 'valid' | 'already_used' | 'cancelled' | 'wrong_event' | 'not_found' | 'invalid' | 'conflict';

/**
 * The answer to POST /api/verify-ticket. Every reading is answered 200, `success` saying whether the holder may come
 * in; the scanner shows `userName` and `message` (spec), `code` says why, `usedAt` when it was used already.
 */
export interface ScanView {
  success: boolean;
  code: ScanCode;
  message: string;
  userName: string | null;
  /** The ticket's type, when the QR code named a ticket we trust and it has one. */
  ticketType: TicketTypeLabel | null;
  eventTitle: string | null;
  usedAt?: string;
  /** The session the reading was for (null when the QR code named no ticket we trust). */
  sessionId: string | null;
  /** The ticket read, when the QR code named one we trust: the door resets it from its last readings. */
  ticketId: string | null;
  orderId: string | null;
}

/** pt-BR texts of the participants' list and the ticket e-mail sent again. */
export const participantsMessages = {
  eventRequired: 'Informe o evento (eventId)',
  eventInvalid: 'Identificador do evento inválido',
  searchTooLong: 'Busca longa demais',
  statusInvalid: 'Situação inválida: use valid ou cancelled',
  checkedInInvalid: 'Filtro de entrada inválido: use true ou false',
  sessionInvalid: 'Identificador da sessão inválido',
  ticketInvalid: 'Identificador do ingresso inválido',
  ticketNotFound: 'Ingresso não encontrado',
  resendCancelled: 'Este ingresso foi cancelado: o e-mail do ingresso não pode ser reenviado',
  resendErased: 'O titular deste ingresso excluiu a conta: não há para quem reenviar o e-mail',
} as const;

/** How a ticket's order was paid; `courtesy` for a redeemed courtesy. Null on tickets issued before it was kept. */
export type TicketPaymentMethod = NonNullable<EventPayload<'order.paid'>['paymentMethod']>;

/** The filters of the participants' list and of its spreadsheet (an empty field filters nothing). */
export const participantsFilter = z.object({
  eventId: z.uuid({
    error: (issue) =>
      issue.input === undefined ? participantsMessages.eventRequired : participantsMessages.eventInvalid,
  }),
  /** Part of the holder's name, e-mail or order number, or the start of their CPF. */
  q: z
    .string({ error: participantsMessages.searchTooLong })
    .trim()
    .max(100, participantsMessages.searchTooLong)
    .optional()
    .transform((q) => q || undefined),
  status: z
    .enum(['valid', 'cancelled', ''], { error: participantsMessages.statusInvalid })
    .optional()
    .transform((status) => status || undefined),
  checkedIn: z
    .enum(['true', 'false', ''], { error: participantsMessages.checkedInInvalid })
    .optional()
    .transform((checkedIn) => (checkedIn ? checkedIn === 'true' : undefined)),
  /** `checkedIn` then says whether admitted to this session (else: to any). */
  sessionId: z
    .union([z.uuid({ error: participantsMessages.sessionInvalid }), z.literal('')], {
      error: participantsMessages.sessionInvalid,
    })
    .optional()
    .transform((sessionId) => sessionId || undefined),
});

/** GET /api/admin/tickets: the filters and the page. */
export const participantsQuery = participantsFilter.extend(pageQuerySchema.shape);

export type ParticipantsFilter = z.infer<typeof participantsFilter>;

/** A ticket named in an administrator's path. */
export const ticketIdParam = z.uuid({ error: participantsMessages.ticketInvalid });

/** A ticket's type as the door and the back office show it; null on tickets issued before types existed. */
export interface TicketTypeLabel {
  id: string;
  name: string;
  /** The door shows 'Conferir documento' with the type's name. */
  requiresDocument: boolean;
}

/** A ticket and whom it names, as the back office and the door's look-up list it. */
export interface TicketHolder {
  ticketId: string;
  orderId: string;
  orderNumber: string;
  ticketType: TicketTypeLabel | null;
  holderName: string;
  holderEmail: string;
  /** Masked: `***.456.789-**`; null when the order has none. */
  cpf: string | null;
  status: 'valid' | 'cancelled';
}

/** One ticket of the event as the participants' list shows it. */
export interface ParticipantView extends TicketHolder {
  paymentMethod: TicketPaymentMethod | null;
  /** Its first admission, to any session; null while never admitted. */
  checkedInAt: string | null;
  /** When it was admitted to each session (session id → ISO time). */
  admissions: Record<string, string>;
}

/**
 * GET /api/admin/tickets?eventId=&q=&status=&checkedIn=&page= (administrators): the event's tickets that match,
 * by holder name, a page at a time; `matching` counts them all, `totals` count the whole event.
 */
export interface ParticipantsView {
  eventId: string;
  /** The event's sessions by start, each with its label ('Dia 1 — 06/12') and the valid tickets admitted to it. */
  sessions: { id: string; label: string; startsAt: string; endsAt: string; checkedIn: number }[];
  tickets: ParticipantView[];
  page: number;
  pageSize: number;
  matching: number;
  totalPages: number;
  totals: { tickets: number; checkedIn: number; cancelled: number };
}

/** POST /api/admin/tickets/:id/resend answers 202: the e-mail is on its way to `holderEmail`. */
export interface TicketResendView {
  message: string;
  ticketId: string;
  holderEmail: string;
}

/**
 * `GET /api/tickets/mine`: the valid tickets whose holder is the caller (by their account's e-mail), bought by them or
 * by someone else for them, soonest event first.
 */
export interface MyTicketView {
  ticketId: string;
  orderNumber: string;
  ticketType: TicketTypeLabel | null;
  holderName: string;
  /** Who bought it, when someone else did; null for the caller's own purchase. */
  boughtBy: string | null;
  event: { id: string; title: string; date: string; location: string };
  qrCodeData: string;
  /** Admitted at the door at least once. */
  used: boolean;
}
