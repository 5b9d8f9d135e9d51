import { CALENDAR_CONTENT_TYPE, calendarFileName, eventCalendar } from '@ticketing/platform';
import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { eventFacts, greeting, longDate, timeOfDay } from './format.ts';
import { details, heading, inlineImage, note, paragraph } from './layout.ts';

const QR_CID = 'ingresso-qr';

/**
 * The ticket, to its holder: the QR code shown in the message and attached as a file, with the event's day, time and
 * place, the ticket's type, and the event as a calendar file to add to the holder's agenda. Says who bought it when
 * someone else did, and, when it was issued again to a new holder, that the QR code sent before no longer works.
 */
export const ticket = defineTemplate({
  data: z.object({
    name: z.string(),
    orderNumber: z.string(),
    eventId: z.uuid(),
    eventTitle: z.string(),
    eventDate: z.iso.datetime({ offset: true }),
    location: z.string(),
    /** The QR code PNG, base64. */
    qrPng: z.base64(),
    /** The site, for the event's link and the calendar entry's id. */
    publicUrl: z.url(),
    /** The ticket's type; null on tickets issued before types existed. */
    ticketType: z.string().nullable().default(null),
    /** The door checks a document with this ticket. */
    requiresDocument: z.boolean().default(false),
    /** Who bought it, when not the holder. */
    boughtBy: z.string().nullable().default(null),
    /** Issued again (to a new holder): the QR code sent before no longer works. */
    reissued: z.boolean().default(false),
  }),
  subject: ({ eventTitle }) => `Seu ingresso: ${eventTitle}`,
  preheader: ({ eventDate, location }) => `${longDate(eventDate)}, ${timeOfDay(eventDate)} — ${location}`,
  text: (data) => `${greeting(data.name)}

${intro(data).join(' ')}

Evento: ${data.eventTitle}
Data: ${longDate(data.eventDate)}
Horário: ${timeOfDay(data.eventDate)}
Local: ${data.location}${data.ticketType ? `\nTipo: ${data.ticketType}` : ''}
Pedido: ${data.orderNumber}${data.requiresDocument ? `\n\n${DOCUMENT}` : ''}

O QR Code do ingresso está anexado a este e-mail (ingresso-${data.orderNumber}.png) e também na sua área de acesso em ${brand.name}. Apresente-o na entrada do evento, no celular ou impresso. Cada ingresso vale uma entrada.

Para adicionar o evento à sua agenda, abra o arquivo ${calendarFileName(data.eventTitle)}, também anexado.`,
  body: (data) => [
    paragraph(greeting(data.name)),
    heading(data.reissued ? 'Seu ingresso foi emitido novamente' : 'Seu ingresso está confirmado'),
    ...intro(data)
      .slice(1)
      .map((line) => paragraph(line)),
    details([
      ...eventFacts(data.eventTitle, data.eventDate, data.location),
      ...(data.ticketType ? [['Tipo', data.ticketType] as [string, string]] : []),
      ['Pedido', data.orderNumber],
    ]),
    ...(data.requiresDocument ? [paragraph(DOCUMENT)] : []),
    inlineImage(QR_CID, `QR Code do ingresso do pedido ${data.orderNumber}`, 240),
    paragraph('Apresente este QR Code na entrada do evento, no celular ou impresso. Cada ingresso vale uma entrada.'),
    note('O QR Code também está anexado a este e-mail e disponível na sua área de acesso, em "Meus Ingressos".'),
    note(`Para adicionar o evento à sua agenda, abra o arquivo ${calendarFileName(data.eventTitle)}, também anexado.`),
  ],
  attachments: ({ orderNumber, qrPng, eventId, eventTitle, eventDate, location, publicUrl }) => [
    { filename: `ingresso-${orderNumber}.png`, contentType: 'image/png', content: qrPng, cid: QR_CID },
    { filename: `ingresso-${orderNumber}.png`, contentType: 'image/png', content: qrPng },
    {
      filename: calendarFileName(eventTitle),
      contentType: CALENDAR_CONTENT_TYPE,
      content: Buffer.from(
        eventCalendar({ id: eventId, title: eventTitle, date: eventDate, location }, publicUrl),
      ).toString('base64'),
    },
  ],
});

const DOCUMENT = 'Leve um documento com foto: a entrada confere o documento deste tipo de ingresso.';

/** The opening lines: confirmed or issued again, and who bought it for the holder. */
function intro({ reissued, boughtBy }: { reissued: boolean; boughtBy: string | null }): string[] {
  return [
    reissued ? 'Seu ingresso foi emitido novamente.' : 'Seu ingresso está confirmado.',
    ...(boughtBy ? [`${boughtBy} comprou este ingresso para você.`] : []),
    ...(reissued ? ['O QR Code enviado antes não vale mais: use somente o deste e-mail.'] : []),
  ];
}
