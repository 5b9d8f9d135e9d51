import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting, longDate, timeOfDay } from './format.ts';
import { details, heading, note, paragraph } from './layout.ts';

const isoDate = z.iso.datetime({ offset: true });

/**
 * The buyer withdrew from a purchase whose ticket the door had already admitted: the withdrawal is refused, the
 * order stays confirmed and no money goes back. Says when the ticket was used, so a buyer who did not go can tell.
 */
export const withdrawalRefused = defineTemplate({
  data: z.object({
    name: z.string(),
    orderNumber: z.string(),
    eventTitle: z.string(),
    usedAt: isoDate,
  }),
  subject: ({ eventTitle }) => `Não foi possível concluir sua desistência: ${eventTitle}`,
  preheader: () => 'O ingresso já tinha sido usado na entrada do evento.',
  text: ({ name, orderNumber, eventTitle, usedAt }) => `${greeting(name)}

Recebemos seu pedido de desistência do pedido ${orderNumber} (${eventTitle}), mas o ingresso já tinha sido usado na entrada do evento ${usedWhen(usedAt)}. Por isso, não foi possível desistir da compra: o pedido continua confirmado e nenhum valor foi estornado.

Se você não reconhece essa entrada, fale com a organização: ${brand.supportEmail} ou ${brand.supportPhone}.`,
  body: ({ name, orderNumber, eventTitle, usedAt }) => [
    heading('Desistência não concluída'),
    paragraph(greeting(name)),
    paragraph(
      `Recebemos seu pedido de desistência, mas o ingresso já tinha sido usado na entrada do evento ${usedWhen(usedAt)}. Por isso, não foi possível desistir da compra: o pedido continua confirmado e nenhum valor foi estornado.`,
    ),
    details([
      ['Evento', eventTitle],
      ['Pedido', orderNumber],
      ['Entrada', `${longDate(usedAt)}, às ${timeOfDay(usedAt)}`],
    ]),
    note(`Se você não reconhece essa entrada, fale com a organização: ${brand.supportEmail} ou ${brand.supportPhone}.`),
  ],
});

const usedWhen = (usedAt: string) => `em ${longDate(usedAt)}, às ${timeOfDay(usedAt)} (horário de Brasília)`;
