import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting, reais } from './format.ts';
import { details, heading, paragraph } from './layout.ts';
import { refundDestinationData, refundGoes, refundNextSteps, refundNextStepsText } from './refund-destination.ts';

/**
 * A paid order refunded: the money goes back (or, for a paid boleto, to the bank account the buyer gives) and the
 * ticket no longer gets anyone in. `withdrawal` when it was the buyer who withdrew from the purchase (CDC art. 49),
 * so the e-mail answers their request.
 */
export const orderRefunded = defineTemplate({
  data: z.object({
    name: z.string(),
    orderNumber: z.string(),
    eventTitle: z.string(),
    amount: z.string(),
    withdrawal: z.boolean().optional(),
    ...refundDestinationData,
  }),
  subject: ({ eventTitle, withdrawal }) =>
    withdrawal ? `Sua desistência foi atendida: ${eventTitle}` : `Seu pedido foi reembolsado: ${eventTitle}`,
  preheader: ({ amount, bankDetailsUrl }) =>
    bankDetailsUrl
      ? `Vamos devolver ${reais(amount)}: informe seus dados bancários para receber o reembolso.`
      : `Devolvemos ${reais(amount)} e cancelamos o ingresso do pedido.`,
  text: ({ name, orderNumber, eventTitle, amount, withdrawal, bankDetailsUrl }) => `${greeting(name)}

${
  withdrawal
    ? `Seu pedido de desistência foi atendido: o pedido ${orderNumber} (${eventTitle}) foi cancelado e o valor de ${reais(amount)} ${refundGoes(bankDetailsUrl)}.`
    : `O pedido ${orderNumber} (${eventTitle}) foi reembolsado: o valor de ${reais(amount)} ${refundGoes(bankDetailsUrl)}.`
}

O ingresso deste pedido foi cancelado e não dá mais acesso ao evento.

${refundNextStepsText(bankDetailsUrl)}

Dúvidas: ${brand.supportEmail} ou ${brand.supportPhone}.`,
  body: ({ name, orderNumber, eventTitle, amount, withdrawal, bankDetailsUrl }) => [
    heading(withdrawal ? 'Desistência atendida' : 'Pedido reembolsado'),
    paragraph(greeting(name)),
    paragraph(
      withdrawal
        ? `Seu pedido de desistência foi atendido: o valor ${refundGoes(bankDetailsUrl)}.`
        : `O seu pedido foi reembolsado: o valor ${refundGoes(bankDetailsUrl)}.`,
    ),
    details([
      ['Evento', eventTitle],
      ['Pedido', orderNumber],
      [bankDetailsUrl ? 'Valor a devolver' : 'Valor estornado', reais(amount)],
    ]),
    paragraph('O ingresso deste pedido foi cancelado e não dá mais acesso ao evento.'),
    ...refundNextSteps(bankDetailsUrl),
  ],
});
