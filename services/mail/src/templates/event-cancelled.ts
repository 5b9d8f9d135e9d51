import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { eventFacts, greeting, longDate, reais, timeOfDay } from './format.ts';
import { details, heading, paragraph } from './layout.ts';
import { paidOrderData } from './order-data.ts';
import { refundDestinationData, refundGoes, refundNextSteps, refundNextStepsText } from './refund-destination.ts';

const hasRefund = (amount: string) => Number(amount) > 0;
const SAME_WAY = 'será estornado para a mesma forma de pagamento da compra';

/**
 * The organizers cancelled the event: the holder's ticket no longer gets anyone in and, for a paid order, the money
 * goes back to how it was paid. A courtesy (R$ 0,00) has nothing to give back, so no refund is mentioned.
 */
export const eventCancelled = defineTemplate({
  data: z.object({ ...paidOrderData, ...refundDestinationData }),
  subject: ({ eventTitle }) => `Evento cancelado: ${eventTitle}`,
  preheader: ({ amount }) =>
    hasRefund(amount)
      ? `O evento foi cancelado pelos organizadores. Vamos devolver ${reais(amount)}.`
      : 'O evento foi cancelado pelos organizadores e o seu ingresso não vale mais.',
  text: ({ name, orderNumber, eventTitle, eventDate, location, amount, bankDetailsUrl }) => `${greeting(name)}

O evento ${eventTitle}, marcado para ${longDate(eventDate)}, às ${timeOfDay(eventDate)}, em ${location}, foi cancelado pelos organizadores.

O ingresso do pedido ${orderNumber} foi cancelado e não dá mais acesso ao evento.${
    hasRefund(amount)
      ? `

O valor de ${reais(amount)} ${refundGoes(bankDetailsUrl, SAME_WAY)}.

${refundNextStepsText(bankDetailsUrl)}`
      : ''
  }

Dúvidas: ${brand.supportEmail} ou ${brand.supportPhone}.`,
  body: ({ name, orderNumber, eventTitle, eventDate, location, amount, bankDetailsUrl }) => [
    heading('Evento cancelado'),
    paragraph(greeting(name)),
    paragraph('O evento abaixo foi cancelado pelos organizadores.'),
    details([
      ...eventFacts(eventTitle, eventDate, location),
      ['Pedido', orderNumber],
      ...(hasRefund(amount) ? [['Valor a estornar', reais(amount)] as [string, string]] : []),
    ]),
    paragraph('O ingresso deste pedido foi cancelado e não dá mais acesso ao evento.'),
    ...(hasRefund(amount)
      ? [
          paragraph(`O valor de ${reais(amount)} ${refundGoes(bankDetailsUrl, SAME_WAY)}.`),
          ...refundNextSteps(bankDetailsUrl),
        ]
      : []),
  ],
});
