import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting, reais } from './format.ts';
import { details, heading, paragraph } from './layout.ts';
import { refundDestinationData, refundGoes, refundNextSteps, refundNextStepsText } from './refund-destination.ts';

/**
 * A payment that arrived after the order expired, when no spot was left: the buyer gets the money back (a paid boleto's,
 * to the bank account they give).
 */
export const paymentRefunded = defineTemplate({
  data: z.object({
    name: z.string(),
    orderNumber: z.string(),
    eventTitle: z.string(),
    amount: z.string(),
    ...refundDestinationData,
  }),
  subject: () => 'Seu pagamento foi estornado',
  preheader: ({ amount }) => `Devolvemos ${reais(amount)}: as vagas do evento esgotaram antes do pagamento.`,
  text: ({ name, orderNumber, eventTitle, amount, bankDetailsUrl }) => `${greeting(name)}

Recebemos o pagamento do pedido ${orderNumber} (${eventTitle}) depois do prazo de reserva, e as vagas do evento já estavam esgotadas.

Por isso o valor de ${reais(amount)} ${refundGoes(bankDetailsUrl)}.

${refundNextStepsText(bankDetailsUrl)}

Dúvidas: ${brand.supportEmail} ou ${brand.supportPhone}.`,
  body: ({ name, orderNumber, eventTitle, amount, bankDetailsUrl }) => [
    heading('Pagamento estornado'),
    paragraph(greeting(name)),
    paragraph(
      `Recebemos o pagamento depois do prazo de reserva do pedido, e as vagas do evento já estavam esgotadas. Por isso o valor ${refundGoes(bankDetailsUrl)}.`,
    ),
    details([
      ['Evento', eventTitle],
      ['Pedido', orderNumber],
      [bankDetailsUrl ? 'Valor a devolver' : 'Valor estornado', reais(amount)],
    ]),
    ...refundNextSteps(bankDetailsUrl),
  ],
});
