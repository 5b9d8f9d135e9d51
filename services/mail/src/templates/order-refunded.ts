import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting, reais } from './format.ts';
import { details, heading, note, paragraph } from './layout.ts';

/**
 * A paid order refunded: the money goes back and the ticket no longer gets anyone in. `withdrawal` when it was the
 * buyer who withdrew from the purchase (CDC art. 49), so the e-mail answers their request.
 */
export const orderRefunded = defineTemplate({
  data: z.object({
    name: z.string(),
    orderNumber: z.string(),
    eventTitle: z.string(),
    amount: z.string(),
    withdrawal: z.boolean().optional(),
  }),
  subject: ({ eventTitle, withdrawal }) =>
    withdrawal ? `Sua desistência foi atendida: ${eventTitle}` : `Seu pedido foi reembolsado: ${eventTitle}`,
  preheader: ({ amount }) => `Devolvemos ${reais(amount)} e cancelamos o ingresso do pedido.`,
  text: ({ name, orderNumber, eventTitle, amount, withdrawal }) => `${greeting(name)}

${
  withdrawal
    ? `Seu pedido de desistência foi atendido: o pedido ${orderNumber} (${eventTitle}) foi cancelado e o valor de ${reais(amount)} foi estornado para a mesma forma de pagamento.`
    : `O pedido ${orderNumber} (${eventTitle}) foi reembolsado: o valor de ${reais(amount)} foi estornado para a mesma forma de pagamento.`
}

O ingresso deste pedido foi cancelado e não dá mais acesso ao evento.

O prazo para o valor aparecer no extrato depende do seu banco ou da operadora do cartão.

Dúvidas: ${brand.supportEmail} ou ${brand.supportPhone}.`,
  body: ({ name, orderNumber, eventTitle, amount, withdrawal }) => [
    heading(withdrawal ? 'Desistência atendida' : 'Pedido reembolsado'),
    paragraph(greeting(name)),
    paragraph(
      withdrawal
        ? 'Seu pedido de desistência foi atendido: o valor foi estornado para a mesma forma de pagamento.'
        : 'O seu pedido foi reembolsado: o valor foi estornado para a mesma forma de pagamento.',
    ),
    details([
      ['Evento', eventTitle],
      ['Pedido', orderNumber],
      ['Valor estornado', reais(amount)],
    ]),
    paragraph('O ingresso deste pedido foi cancelado e não dá mais acesso ao evento.'),
    note('O prazo para o valor aparecer no extrato depende do seu banco ou da operadora do cartão.'),
  ],
});
