import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { eventFacts, greeting, longDate, reais, tickets } from './format.ts';
import { button, details, heading, note, paragraph } from './layout.ts';
import { describeLine, orderLineData, orderLineFacts } from './order-lines.ts';
import { paidOrderData } from './order-data.ts';
import { orderTotalData, orderTotalFacts, orderTotalText } from './order-total.ts';

/**
 * The buyer's confirmation of a paid order of several tickets, or of one for someone else: every ticket with its type,
 * holder and price, and that each holder gets their own ticket e-mail (the buyer's own ticket comes the same way).
 */
export const orderConfirmed = defineTemplate({
  data: z.object({
    ...paidOrderData,
    lines: z.array(orderLineData).min(1),
    ...orderTotalData,
    /** The buyer's orders, where each ticket's QR code is shown too. */
    profileUrl: z.url({ protocol: /^https?$/ }),
  }),
  subject: ({ eventTitle }) => `Pedido confirmado: ${eventTitle}`,
  preheader: ({ lines, amount }) => `${tickets(lines.length)} — total de ${reais(amount)}`,
  text: ({ name, orderNumber, eventTitle, eventDate, location, lines, profileUrl, ...total }) => `${greeting(name)}

Seu pagamento foi confirmado. O pedido ${orderNumber} para ${eventTitle} (${longDate(eventDate)}, ${location}) tem ${tickets(lines.length)}:

${lines.map((line, i) => `${i + 1}. ${describeLine(line)}`).join('\n')}

${orderTotalText(total)}

${EACH_HOLDER}

Os ingressos do pedido também estão na sua área de acesso, em "Meus Ingressos": ${profileUrl}`,
  body: ({ name, orderNumber, eventTitle, eventDate, location, lines, profileUrl, ...total }) => [
    heading('Pedido confirmado'),
    paragraph(greeting(name)),
    paragraph(`Seu pagamento foi confirmado. O pedido tem ${tickets(lines.length)}.`),
    details([
      ...eventFacts(eventTitle, eventDate, location),
      ['Pedido', orderNumber],
      ...orderLineFacts(lines),
      ...orderTotalFacts(total),
    ]),
    paragraph(EACH_HOLDER),
    button(profileUrl, 'Ver meus ingressos'),
    note('Os ingressos do pedido também estão na sua área de acesso, em "Meus Ingressos".'),
  ],
});

const EACH_HOLDER =
  'Cada pessoa recebe o próprio ingresso, com o QR Code, no e-mail informado no pedido. Cada ingresso vale uma entrada.';
