import { CALENDAR_CONTENT_TYPE, calendarFileName, eventCalendar } from '@ticketing/platform';
import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { eventFacts, greeting, longDate, timeOfDay } from './format.ts';
import { details, heading, inlineImage, note, paragraph } from './layout.ts';

const QR_CID = 'ingresso-qr';

/**
 * The ticket: the QR code shown in the message and attached as a file, with the event's day, time and place, and
 * the event as a calendar file to add to the buyer's agenda.
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
  }),
  subject: ({ eventTitle }) => `Seu ingresso: ${eventTitle}`,
  preheader: ({ eventDate, location }) => `${longDate(eventDate)}, ${timeOfDay(eventDate)} — ${location}`,
  text: ({ name, orderNumber, eventTitle, eventDate, location }) => `${greeting(name)}

Seu ingresso está confirmado.

Evento: ${eventTitle}
Data: ${longDate(eventDate)}
Horário: ${timeOfDay(eventDate)}
Local: ${location}
Pedido: ${orderNumber}

O QR Code do ingresso está anexado a este e-mail (ingresso-${orderNumber}.png) e também na sua área de acesso em ${brand.name}. Apresente-o na entrada do evento, no celular ou impresso. Cada ingresso vale uma entrada.

Para adicionar o evento à sua agenda, abra o arquivo ${calendarFileName(eventTitle)}, também anexado.`,
  body: ({ name, orderNumber, eventTitle, eventDate, location }) => [
    paragraph(greeting(name)),
    heading('Seu ingresso está confirmado'),
    details([...eventFacts(eventTitle, eventDate, location), ['Pedido', orderNumber]]),
    inlineImage(QR_CID, `QR Code do ingresso do pedido ${orderNumber}`, 240),
    paragraph('Apresente este QR Code na entrada do evento, no celular ou impresso. Cada ingresso vale uma entrada.'),
    note('O QR Code também está anexado a este e-mail e disponível na sua área de acesso, em "Meus Ingressos".'),
    note(`Para adicionar o evento à sua agenda, abra o arquivo ${calendarFileName(eventTitle)}, também anexado.`),
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
