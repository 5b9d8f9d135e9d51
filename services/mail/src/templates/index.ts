import type { EmailAttachment } from '../domain/attachments.ts';
import type { EmailTemplate } from './define.ts';
import { boletoPayment } from './boleto-payment.ts';
import { cardPaymentLink } from './card-payment-link.ts';
import { certificate } from './certificate.ts';
import { companyBilling } from './company-billing.ts';
import { courtesyInvitation } from './courtesy-invitation.ts';
import { eventCancelled } from './event-cancelled.ts';
import { invoiceAuthorized } from './invoice-authorized.ts';
import { orderChargeback } from './order-chargeback.ts';
import { orderConfirmed } from './order-confirmed.ts';
import { orderRefunded } from './order-refunded.ts';
import { passwordReset } from './password-reset.ts';
import { paymentRefunded } from './payment-refunded.ts';
import { pixPayment } from './pix-payment.ts';
import { registrationAttempted } from './registration-attempted.ts';
import { signInLink } from './sign-in-link.ts';
import { ticket } from './ticket.ts';
import { verificationCode } from './verification-code.ts';
import { withdrawalRefused } from './withdrawal-refused.ts';

/**
 * Every e-mail the product sends, by name. A new e-mail is a file beside these (`defineTemplate`: data schema,
 * subject, preheader, text, body, optional attachments) plus a line here.
 */
export const templates = {
  'verification-code': verificationCode,
  'password-reset': passwordReset,
  'sign-in-link': signInLink,
  'registration-attempted': registrationAttempted,
  ticket,
  'order-confirmed': orderConfirmed,
  'pix-payment': pixPayment,
  'boleto-payment': boletoPayment,
  'card-payment-link': cardPaymentLink,
  'company-billing': companyBilling,
  'invoice-authorized': invoiceAuthorized,
  'payment-refunded': paymentRefunded,
  'order-refunded': orderRefunded,
  'order-chargeback': orderChargeback,
  'withdrawal-refused': withdrawalRefused,
  'event-cancelled': eventCancelled,
  'courtesy-invitation': courtesyInvitation,
  certificate,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each template has data of its own
} satisfies Record<string, EmailTemplate<any, any>>;

export type TemplateName = keyof typeof templates;
/** The data a template is queued with (before its schema's defaults). */
export type TemplateData<N extends TemplateName> =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever the rendered data, only the input is read
  (typeof templates)[N] extends EmailTemplate<any, infer I> ? I : never;

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  attachments: EmailAttachment[];
}

/** Checks the data against the template's schema, then renders every part of the message. */
export function renderEmail<N extends TemplateName>(name: N, input: TemplateData<N>): RenderedEmail {
  const template = templates[name] as unknown as EmailTemplate<unknown, TemplateData<N>>;
  if (!template) throw new Error(`unknown e-mail template ${name}`);
  const data = template.data.parse(input);
  return {
    subject: template.subject(data),
    text: template.text(data),
    html: template.html(data),
    attachments: template.attachments(data),
  };
}

export { defineTemplate, type EmailTemplate, type TemplateSpec } from './define.ts';
export { html, blocks, escapeHtml, safeUrl, SafeHtml } from './html.ts';
export { button, codeBox, heading, linkText, note, paragraph, layoutHtml, layoutText } from './layout.ts';
export { duration, greeting, minutesBetween, tickets } from './format.ts';
