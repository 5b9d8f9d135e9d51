import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { eventFacts, greeting, longDate, reais, tickets, timeOfDay } from './format.ts';
import { html } from './html.ts';
import { button, details, heading, linkText, note, paragraph } from './layout.ts';

const money = z.string().regex(/^\d+\.\d{2}$/);

/** What the invitation says the link is worth: free, or a promotional price for each ticket. */
function priceLine(overridePrice: string | null, ticketCount: number): [label: string, value: string] {
  if (overridePrice === null) return ['Valor', 'Cortesia (grátis)'];
  return ['Preço promocional', `${reais(overridePrice)}${ticketCount > 1 ? ' por ingresso' : ''}`];
}

/** An invitation of a mass send: the event, the code and the link to redeem it, and the file the sender attached. */
export const courtesyInvitation = defineTemplate({
  data: z.object({
    name: z.string(),
    eventTitle: z.string(),
    eventDate: z.iso.datetime({ offset: true }),
    location: z.string(),
    code: z.string().min(1),
    redeemUrl: z.url({ protocol: /^https?$/ }),
    ticketCount: z.number().int().min(1),
    /** Null: the tickets are free. */
    overridePrice: money.nullable(),
    /** The name of the file attached to the e-mail, if any. */
    attachmentName: z.string().nullable(),
  }),
  subject: ({ eventTitle }) => `Você recebeu uma cortesia: ${eventTitle}`,
  preheader: ({ eventTitle, eventDate, ticketCount, code }) =>
    `${tickets(ticketCount)} para ${eventTitle}, ${longDate(eventDate)}. Resgate com o código ${code}.`,
  text: ({ name, eventTitle, eventDate, location, code, redeemUrl, ticketCount, overridePrice, attachmentName }) => {
    const [priceLabel, price] = priceLine(overridePrice, ticketCount);
    return `${greeting(name)}

Você recebeu um convite para o evento ${eventTitle}.

Evento: ${eventTitle}
Data: ${longDate(eventDate)}
Horário: ${timeOfDay(eventDate)}
Local: ${location}
Ingressos: ${tickets(ticketCount)}
${priceLabel}: ${price}

Seu código de cortesia: ${code}

Resgate sua cortesia pelo link:
${redeemUrl}

Para resgatar, você precisará entrar na sua conta ou criar uma.${
      attachmentName ? `\n\nEnviamos junto a este e-mail o arquivo ${attachmentName}.` : ''
    }`;
  },
  body: ({ name, eventTitle, eventDate, location, code, redeemUrl, ticketCount, overridePrice, attachmentName }) => [
    paragraph(greeting(name)),
    heading('Você recebeu uma cortesia'),
    paragraph(html`Você recebeu um convite para o evento <strong>${eventTitle}</strong>.`),
    details([
      ...eventFacts(eventTitle, eventDate, location),
      ['Ingressos', tickets(ticketCount)],
      priceLine(overridePrice, ticketCount),
      ['Código', code],
    ]),
    button(redeemUrl, 'Resgatar cortesia'),
    paragraph('Para resgatar, você precisará entrar na sua conta ou criar uma.'),
    ...(attachmentName ? [paragraph(`Enviamos junto a este e-mail o arquivo ${attachmentName}.`)] : []),
    note(html`Se o botão não funcionar, copie e cole este endereço no seu navegador:<br />${linkText(redeemUrl)}`),
  ],
});
