import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting, longDate, payOrderSubject, reais, timeOfDay } from './format.ts';
import { button, details, heading, linkText, note, paragraph } from './layout.ts';
import { awaitingPaymentText, pendingOrderData, pendingOrderFacts } from './pending-order.ts';

/** A card purchase is paid on the provider's page: the link goes to the buyer by e-mail. */
export const cardPaymentLink = defineTemplate({
  data: z.object({
    ...pendingOrderData,
    invoiceUrl: z.url({ protocol: /^https?$/ }),
    /** When the order stops holding the spot: a day away, or sooner when the event starts sooner. */
    expiresAt: z.iso.datetime({ offset: true }),
  }),
  subject: ({ eventTitle }) => payOrderSubject(eventTitle),
  preheader: ({ amount }) => `Pague ${reais(amount)} com cartão de crédito pelo link seguro.`,
  text: ({ invoiceUrl, expiresAt, ...order }) => `${greeting(order.name)}

${awaitingPaymentText(order, `de ${reais(order.amount)}`)}

Pague com cartão de crédito pelo link seguro:
${invoiceUrl}

${heldUntil(expiresAt)} Assim que o pagamento for confirmado, você receberá o ingresso por e-mail.`,
  body: ({ invoiceUrl, expiresAt, ...order }) => [
    heading('Finalize o pagamento'),
    paragraph(greeting(order.name)),
    paragraph('Seu pedido está aguardando o pagamento com cartão de crédito.'),
    details(pendingOrderFacts(order)),
    button(invoiceUrl, 'Pagar com cartão'),
    paragraph(`${heldUntil(expiresAt)} Assim que o pagamento for confirmado, você receberá o ingresso.`),
    note(`Se o botão não funcionar, copie este endereço no navegador: `),
    note(linkText(invoiceUrl)),
  ],
});

const heldUntil = (expiresAt: string) =>
  `A vaga fica reservada até as ${timeOfDay(expiresAt)} (horário de Brasília) de ${longDate(expiresAt)}.`;
