import { qrCodePng } from '@ticketing/platform';
import { parseQrText, type Envelope, type EventPayload, type EventType } from '@ticketing/proto';
import { minutesBetween, type TemplateData, type TemplateName } from '../templates/index.ts';
import type { EmailAttachment } from '../domain/attachments.ts';
import type { EmailRequest } from '../domain/queue-email.ts';

export interface EventContext {
  event: Envelope;
  /** The site's address, for links in e-mails. */
  publicUrl: string;
  /** The courtesy service's base URL, whose internal API serves the files attached to invitations. */
  courtesyUrl: string;
  /** The certificates service's base URL, whose internal API serves the certificates' PDFs. */
  certificatesUrl: string;
}

type EmailsFor<T extends EventType> = (payload: EventPayload<T>, context: EventContext) => EmailRequest[];

/** The link of the reset-password page for a token. */
export const resetPasswordUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;

/** A page of the site, e.g. `/login`. */
const pageUrl = (publicUrl: string, path: string) => `${publicUrl.replace(/\/+$/, '')}${path}`;

/** The page that opens a session with an e-mailed sign-in link. */
export const signInLinkUrl = (publicUrl: string, token: string) =>
  pageUrl(publicUrl, `/entrar-com-link?token=${encodeURIComponent(token)}`);

/** The buyer's orders ("Meus Ingressos"), where a pending order shows how to pay it. */
export const profileUrl = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/profile`;

/** Where mail fetches, at send time, the file an administrator attached to a mass send. */
export const courtesyAttachmentUrl = (courtesyUrl: string, attachmentId: string) =>
  `${courtesyUrl.replace(/\/+$/, '')}/internal/attachments/${encodeURIComponent(attachmentId)}`;

const MIME_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

/**
 * The file of a mass send as the e-mail carries it: the name and type come from the administrator's upload, so a
 * type with parameters is reduced to its essence, an unusable one becomes a generic binary, and a blank name a
 * plain "anexo" (the queue would refuse them, and the invitation would never go out).
 */
export function courtesyAttachment(
  courtesyUrl: string,
  attachment: { id: string; filename: string; contentType: string },
): EmailAttachment {
  const essence = attachment.contentType.split(';')[0]!.trim().toLowerCase();
  return {
    filename: attachment.filename.trim().slice(0, 255) || 'anexo',
    contentType: MIME_TYPE.test(essence) ? essence : 'application/octet-stream',
    href: courtesyAttachmentUrl(courtesyUrl, attachment.id),
  };
}

/** Where mail fetches, at send time, a certificate's PDF. */
export const certificatePdfUrl = (certificatesUrl: string, certificateId: string) =>
  `${certificatesUrl.replace(/\/+$/, '')}/internal/certificates/${encodeURIComponent(certificateId)}/pdf`;

/** The e-mail of each reason an order's money went back. */
const REFUND_TEMPLATES = {
  late_payment: 'payment-refunded',
  refund: 'order-refunded',
  withdrawal: 'order-refunded',
  chargeback: 'order-chargeback',
  event_cancelled: 'event-cancelled',
} as const satisfies Record<EventPayload<'order.refunded'>['reason'], TemplateName>;
type RefundTemplate = (typeof REFUND_TEMPLATES)[keyof typeof REFUND_TEMPLATES];

type PaymentTemplate = 'pix-payment' | 'boleto-payment' | 'card-payment-link';

/** What every purchase event carries about the buyer and the order. */
interface PurchaseFacts {
  userId: string;
  orderNumber: string;
  buyer: { name: string; email: string };
  event: { title: string };
}

/** A purchase e-mail to the buyer: greeting, order number and event title, plus the template's own data. */
function toBuyer<N extends 'order-confirmed' | PaymentTemplate | RefundTemplate>(
  facts: PurchaseFacts,
  template: N,
  data: Omit<TemplateData<N>, 'name' | 'orderNumber' | 'eventTitle'>,
): EmailRequest {
  const shared = { name: facts.buyer.name, orderNumber: facts.orderNumber, eventTitle: facts.event.title };
  // One template's request; TypeScript cannot narrow the union of all templates from a generic name.
  return {
    template,
    to: facts.buyer.email,
    userId: facts.userId,
    data: { ...shared, ...data },
  } as unknown as EmailRequest;
}

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A ticket issued again to a new holder carries a QR version above the first. */
const isReissue = (payload: EventPayload<'ticket.issued'>) => (parseQrText(payload.qrText)?.claims.version ?? 1) > 1;

/**
 * The ticket e-mail, to its holder (the buyer, on tickets issued before holders), when the ticket is issued or issued
 * again to a new holder, and each time an administrator sends it again. Someone else's ticket belongs to no account
 * of the buyer's: the buyer's erasure leaves it be.
 */
function ticketEmail(
  payload: EventPayload<'ticket.issued'>,
  { publicUrl }: EventContext,
  reissued: boolean,
): EmailRequest[] {
  const holder = payload.holder ?? payload.buyer;
  const buyersOwn = sameEmail(holder.email, payload.buyer.email);
  return [
    {
      template: 'ticket',
      to: holder.email,
      userId: buyersOwn ? payload.userId : null,
      data: {
        name: holder.name,
        orderNumber: payload.orderNumber,
        eventId: payload.eventId,
        eventTitle: payload.event.title,
        eventDate: payload.event.date,
        location: payload.event.location,
        qrPng: payload.qrCodeData.slice(payload.qrCodeData.indexOf(',') + 1),
        publicUrl,
        ticketType: payload.ticketType?.name ?? null,
        requiresDocument: payload.ticketType?.requiresDocument ?? false,
        boughtBy: buyersOwn ? null : payload.buyer.name,
        reissued,
      },
    },
  ];
}

type OrderItems = EventPayload<'order.paid'>['items'];

/** An order's tickets as the buyer's e-mails list them; none on orders before orders had several. */
const linesOf = (items: OrderItems) =>
  (items ?? []).map((item) => ({ typeName: item.typeName, holderName: item.holder.name, price: item.price }));

/** What a coupon took off and the card installments, as the order's e-mails show them beside the total. */
const totalOf = (payload: { discountAmount?: string | undefined; installments?: number | undefined }) => ({
  discountAmount: payload.discountAmount ?? null,
  installments: payload.installments ?? 1,
});

/**
 * The buyer's confirmation of a paid order of several tickets, or of one for someone else (each holder gets their
 * ticket e-mail apart). A ticket for oneself alone needs none: its ticket e-mail says it all.
 */
function confirmationEmail(payload: EventPayload<'order.paid'>, { publicUrl }: EventContext): EmailRequest[] {
  const items = payload.items ?? [];
  const forOthers = items.some((item) => !sameEmail(item.holder.email, payload.buyer.email));
  if (items.length < 2 && !forOthers) return [];
  return [
    toBuyer(payload, 'order-confirmed', {
      eventDate: payload.event.date,
      location: payload.event.location,
      amount: payload.amount,
      lines: linesOf(items),
      ...totalOf(payload),
      profileUrl: profileUrl(publicUrl),
    }),
  ];
}

type CreatedOrder = EventPayload<'order.created'>;

/**
 * How a new order is paid, by its method: the PIX code with its QR drawn here (the event carries only the text, and
 * the image always shows the very code written beside it), the boleto's line and PDF, or the card's payment page.
 * Null when the event lacks what the method needs (an order created before the event carried it).
 */
function paymentOf(payload: CreatedOrder) {
  const { expiresAt, pixPayload, boletoUrl, invoiceUrl } = payload;
  if (payload.paymentMethod === 'pix' && pixPayload) {
    const qrPng = qrCodePng(pixPayload, { scale: 6 }).toString('base64');
    return { method: 'pix' as const, expiresAt, pixPayload, qrPng };
  }
  if (payload.paymentMethod === 'boleto' && boletoUrl) {
    return { method: 'boleto' as const, expiresAt, boletoUrl, boletoLine: payload.boletoLine ?? null };
  }
  if (payload.paymentMethod === 'credit_card' && invoiceUrl) {
    return { method: 'credit_card' as const, expiresAt, invoiceUrl };
  }
  return null;
}

/** The template that tells the buyer how to pay, by method. */
const BUYER_PAYMENT_TEMPLATES = {
  pix: 'pix-payment',
  boleto: 'boleto-payment',
  credit_card: 'card-payment-link',
} as const satisfies Record<CreatedOrder['paymentMethod'], PaymentTemplate>;

/**
 * How to pay a new order: to the buyer, and, for an order bought for a company, to its finance department too (the
 * charge is made out to its CNPJ). Nothing when the event lacks how to pay it.
 */
function paymentEmails(payload: CreatedOrder, { publicUrl }: EventContext): EmailRequest[] {
  const payment = paymentOf(payload);
  if (!payment) return [];
  const order = {
    eventDate: payload.event.date,
    amount: payload.amount,
    lines: linesOf(payload.items),
    ...totalOf(payload),
  };
  const { method, ...instructions } = payment;
  // The card's e-mail sends the buyer to the payment page alone.
  const toOrders = method === 'credit_card' ? {} : { profileUrl: profileUrl(publicUrl) };
  const emails = [toBuyer(payload, BUYER_PAYMENT_TEMPLATES[method], { ...order, ...instructions, ...toOrders })];
  const { company } = payload;
  if (company) {
    emails.push({
      template: 'company-billing',
      to: company.email,
      // The buyer's purchase, sent where they asked: their account's erasure empties it too.
      userId: payload.userId,
      data: {
        ...order,
        orderNumber: payload.orderNumber,
        eventTitle: payload.event.title,
        company: { cnpj: company.cnpj, name: company.name, purchaseOrder: company.purchaseOrder },
        buyerName: payload.buyer.name,
        payment,
      },
    });
  }
  return emails;
}

/** The nota fiscal's PDF, once the city authorizes it, to whom the charge was made out; one e-mail per invoice. */
function invoiceEmail(payload: EventPayload<'invoice.changed'>): EmailRequest[] {
  // A charge made before payments kept whom it was made out to names nobody: the buyer's profile still links the PDF.
  if (payload.status !== 'authorized' || !payload.pdfUrl || !payload.recipient.email) return [];
  return [
    {
      template: 'invoice-authorized',
      to: payload.recipient.email,
      // The buyer or a company's finance department: the event names no account.
      userId: null,
      data: { name: payload.recipient.name, orderNumber: payload.orderNumber, pdfUrl: payload.pdfUrl },
      // Authorized is announced once per invoice, but a provider's repeated notice must not send it twice.
      dedupeKey: `invoice:${payload.invoiceId}:invoice-authorized`,
    },
  ];
}

/**
 * Which events cause which e-mails: an event type → the e-mails (template + data) to queue for it. A new e-mail
 * is a template plus an entry here; the consumer, deduplication and delivery need nothing else.
 */
export const emailEvents: { [T in EventType]?: EmailsFor<T> } = {
  'user.verification-code-issued': (payload, { event }) => [
    {
      template: 'verification-code',
      to: payload.email,
      userId: payload.userId,
      data: {
        name: payload.name,
        code: payload.code,
        validMinutes: minutesBetween(event.occurredAt, payload.expiresAt),
      },
    },
  ],
  'user.password-reset-requested': (payload, { event, publicUrl }) => [
    {
      template: 'password-reset',
      to: payload.email,
      userId: payload.userId,
      data: {
        name: payload.name,
        resetUrl: resetPasswordUrl(publicUrl, payload.token),
        validMinutes: minutesBetween(event.occurredAt, payload.expiresAt),
      },
    },
  ],
  'user.sign-in-link-requested': (payload, { event, publicUrl }) => [
    {
      template: 'sign-in-link',
      to: payload.email,
      userId: payload.userId,
      data: {
        name: payload.name,
        signInUrl: signInLinkUrl(publicUrl, payload.token),
        validMinutes: minutesBetween(event.occurredAt, payload.expiresAt),
      },
    },
  ],
  'user.registration-attempted': (payload, { publicUrl }) => [
    {
      template: 'registration-attempted',
      to: payload.email,
      userId: payload.userId,
      data: {
        name: payload.name,
        taken: payload.taken,
        loginUrl: pageUrl(publicUrl, '/login'),
        forgotPasswordUrl: pageUrl(publicUrl, '/forgot-password'),
      },
    },
  ],
  'ticket.issued': (payload, context) => ticketEmail(payload, context, isReissue(payload)),
  'ticket.resent': (payload, context) => ticketEmail(payload, context, false),
  'order.created': paymentEmails,
  'order.paid': confirmationEmail,
  'order.refunded': (payload) => [
    toBuyer(payload, REFUND_TEMPLATES[payload.reason], {
      amount: payload.amount,
      // A paid boleto's money has no way back: the buyer gives a bank account on the provider's page.
      ...(payload.bankDetailsUrl && payload.reason !== 'chargeback' ? { bankDetailsUrl: payload.bankDetailsUrl } : {}),
      // The buyer asked for it: the e-mail answers the request.
      ...(payload.reason === 'withdrawal' ? { withdrawal: true } : {}),
      // The event is gone: the e-mail says which one, when and where it would have been.
      ...(payload.reason === 'event_cancelled'
        ? { eventDate: payload.event.date, location: payload.event.location }
        : {}),
    }),
  ],
  // A withdrawal refused because the door admitted the ticket first; a void ticket is followed by order.refunded.
  'ticket.withdrawal-decided': (payload) =>
    payload.outcome === 'admitted' && payload.usedAt
      ? [
          {
            template: 'withdrawal-refused',
            to: payload.buyer.email,
            userId: payload.userId,
            data: {
              name: payload.buyer.name,
              orderNumber: payload.orderNumber,
              eventTitle: payload.event.title,
              usedAt: payload.usedAt,
            },
          },
        ]
      : [],
  'courtesy.invited': (payload, { courtesyUrl }) => {
    const attachment = payload.attachment && courtesyAttachment(courtesyUrl, payload.attachment);
    return [
      {
        template: 'courtesy-invitation',
        to: payload.recipient.email,
        // The guest may have no account yet: the invitation belongs to none.
        userId: null,
        data: {
          name: payload.recipient.name,
          eventTitle: payload.event.title,
          eventDate: payload.event.date,
          location: payload.event.location,
          code: payload.code,
          redeemUrl: payload.redeemUrl,
          ticketCount: payload.ticketCount,
          overridePrice: payload.overridePrice,
          attachmentName: attachment ? attachment.filename : null,
        },
        attachments: attachment ? [attachment] : [],
      },
    ];
  },
  'invoice.changed': invoiceEmail,
  'certificate.issued': (payload, { certificatesUrl }) => [
    {
      template: 'certificate',
      to: payload.holder.email,
      userId: payload.userId,
      data: {
        name: payload.holder.name,
        eventTitle: payload.event.title,
        hours: payload.hours,
        code: payload.code,
        verifyUrl: payload.verifyUrl,
        corrected: payload.replaces !== null,
      },
      attachments: [
        {
          filename: `certificado-${payload.code}.pdf`,
          contentType: 'application/pdf',
          href: certificatePdfUrl(certificatesUrl, payload.certificateId),
        },
      ],
    },
  ],
};
