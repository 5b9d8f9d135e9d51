import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting, longDate, payOrderSubject, reais, timeOfDay } from './format.ts';
import { button, buttonFallback, details, heading, paragraph } from './layout.ts';
import { inInstallments } from './order-total.ts';
import { awaitingPaymentText, pendingOrderData, pendingOrderFacts } from './pending-order.ts';

/** What paying an order by card takes: the provider's payment page, and how long the spots are kept. */
export const cardInstructionsData = {
  invoiceUrl: z.url({ protocol: /^https?$/ }),
  /** When the order stops holding the spot: a day away, or sooner when the event starts sooner. */
  expiresAt: z.iso.datetime({ offset: true }),
};
type CardInstructions = { invoiceUrl: string; expiresAt: string; amount: string; installments?: number };

/**
 * How to pay by card, in every e-mail that asks for it: a card purchase is paid on the provider's page, in the
 * installments the order chose. The body's button is followed, at the end, by `buttonFallback`.
 */
export const cardInstructions = {
  text: ({ invoiceUrl, expiresAt, ...total }: CardInstructions) =>
    `Pague${inInstallments(total)} com cartão de crédito pelo link seguro:
${invoiceUrl}

${heldUntil(expiresAt)}`,
  body: ({ invoiceUrl, expiresAt }: CardInstructions) => [
    button(invoiceUrl, 'Pagar com cartão'),
    paragraph(heldUntil(expiresAt)),
  ],
};

/** A card order waiting for payment, to the buyer: the link to the payment page. */
export const cardPaymentLink = defineTemplate({
  data: z.object({ ...pendingOrderData, ...cardInstructionsData }),
  subject: ({ eventTitle }) => payOrderSubject(eventTitle),
  preheader: (order) => `Pague ${reais(order.amount)}${inInstallments(order)} com cartão de crédito pelo link seguro.`,
  text: (order) => `${greeting(order.name)}

${awaitingPaymentText(order, `de ${reais(order.amount)}${inInstallments(order)}`)}

${cardInstructions.text(order)} Assim que o pagamento for confirmado, você receberá o ingresso por e-mail.`,
  body: (order) => [
    heading('Finalize o pagamento'),
    paragraph(greeting(order.name)),
    paragraph('Seu pedido está aguardando o pagamento com cartão de crédito.'),
    details(pendingOrderFacts(order)),
    ...cardInstructions.body(order),
    paragraph('Assim que o pagamento for confirmado, você receberá o ingresso por e-mail.'),
    ...buttonFallback(order.invoiceUrl),
  ],
});

const heldUntil = (expiresAt: string) =>
  `A vaga fica reservada até as ${timeOfDay(expiresAt)} (horário de Brasília) de ${longDate(expiresAt)}.`;
