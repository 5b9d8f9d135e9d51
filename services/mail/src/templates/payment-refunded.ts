import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting, reais } from './format.ts';
import { details, heading, note, paragraph } from './layout.ts';

/** A payment that arrived after the order expired, when no spot was left: the buyer gets the money back. */
export const paymentRefunded = defineTemplate({
  data: z.object({ name: z.string(), orderNumber: z.string(), eventTitle: z.string(), amount: z.string() }),
  subject: () => 'Seu pagamento foi estornado',
  preheader: ({ amount }) => `Devolvemos ${reais(amount)}: as vagas do evento esgotaram antes do pagamento.`,
  text: ({ name, orderNumber, eventTitle, amount }) => `${greeting(name)}

Recebemos o pagamento do pedido ${orderNumber} (${eventTitle}) depois do prazo de reserva, e as vagas do evento já estavam esgotadas.

Por isso o valor de ${reais(amount)} foi estornado para a mesma forma de pagamento. O prazo para aparecer no extrato depende do seu banco ou da operadora do cartão.

Dúvidas: ${brand.supportEmail} ou ${brand.supportPhone}.`,
  body: ({ name, orderNumber, eventTitle, amount }) => [
    heading('Pagamento estornado'),
    paragraph(greeting(name)),
    paragraph(
      'Recebemos o pagamento depois do prazo de reserva do pedido, e as vagas do evento já estavam esgotadas. Por isso o valor foi estornado para a mesma forma de pagamento.',
    ),
    details([
      ['Evento', eventTitle],
      ['Pedido', orderNumber],
      ['Valor estornado', reais(amount)],
    ]),
    note('O prazo para o valor aparecer no extrato depende do seu banco ou da operadora do cartão.'),
  ],
});
