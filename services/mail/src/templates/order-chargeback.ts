import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting, reais } from './format.ts';
import { details, heading, note, paragraph } from './layout.ts';

/** The card holder disputed the payment with the card issuer: the order and its ticket are cancelled. */
export const orderChargeback = defineTemplate({
  data: z.object({ name: z.string(), orderNumber: z.string(), eventTitle: z.string(), amount: z.string() }),
  subject: ({ eventTitle }) => `Pedido cancelado por contestação do pagamento: ${eventTitle}`,
  preheader: ({ amount }) => `O pagamento de ${reais(amount)} foi contestado junto à operadora do cartão.`,
  text: ({ name, orderNumber, eventTitle, amount }) => `${greeting(name)}

A operadora do cartão nos informou que o pagamento do pedido ${orderNumber} (${eventTitle}), no valor de ${reais(amount)}, foi contestado.

Por isso o pedido foi cancelado, e o ingresso dele não dá mais acesso ao evento. A devolução do valor segue o processo da operadora do cartão.

Se você não reconhece essa contestação, fale com a gente: ${brand.supportEmail} ou ${brand.supportPhone}.`,
  body: ({ name, orderNumber, eventTitle, amount }) => [
    heading('Pagamento contestado'),
    paragraph(greeting(name)),
    paragraph('A operadora do cartão nos informou que o pagamento deste pedido foi contestado.'),
    details([
      ['Evento', eventTitle],
      ['Pedido', orderNumber],
      ['Valor contestado', reais(amount)],
    ]),
    paragraph('Por isso o pedido foi cancelado, e o ingresso dele não dá mais acesso ao evento.'),
    note(
      `A devolução do valor segue o processo da operadora do cartão. Se você não reconhece essa contestação, fale com a gente: ${brand.supportEmail} ou ${brand.supportPhone}.`,
    ),
  ],
});
