import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting, longDate, payOrderSubject, reais, timeOfDay } from './format.ts';
import { button, copyCode, details, heading, inlineImage, note, paragraph } from './layout.ts';
import { awaitingPaymentText, pendingOrderData, pendingOrderFacts } from './pending-order.ts';

const QR_CID = 'pix-qr';

/** What paying an order by PIX takes: the copy-paste code, its QR code and the deadline that keeps the spots. */
export const pixInstructionsData = {
  expiresAt: z.iso.datetime({ offset: true }),
  pixPayload: z.string().min(1),
  /** The QR code of `pixPayload`, a PNG in base64. */
  qrPng: z.base64(),
};
type PixInstructions = { orderNumber: string; expiresAt: string; pixPayload: string; qrPng: string };

/**
 * How to pay by PIX, in every e-mail that asks for it: the QR code shown in the message and the copy-paste code
 * written out (for a client that hides images, or a phone that cannot scan its own screen), with the deadline.
 */
export const pixInstructions = {
  text: ({ pixPayload, expiresAt }: PixInstructions) =>
    `Abra o app do seu banco, escolha pagar com PIX copia e cola e cole este código:

${pixPayload}

${deadline(expiresAt)} Depois disso, o pedido expira e a vaga é liberada.`,
  body: ({ orderNumber, pixPayload, expiresAt }: PixInstructions) => [
    inlineImage(QR_CID, `QR Code PIX do pedido ${orderNumber}`, 220),
    paragraph(
      'Abra o app do seu banco, escolha pagar com PIX e escaneie o QR Code, ou copie o código abaixo e cole na opção PIX copia e cola.',
    ),
    copyCode('PIX copia e cola', pixPayload),
    paragraph(`${deadline(expiresAt)} Depois disso, o pedido expira e a vaga é liberada.`),
  ],
  attachments: ({ orderNumber, qrPng }: PixInstructions) => [
    { filename: `pix-${orderNumber}.png`, contentType: 'image/png', content: qrPng, cid: QR_CID },
  ],
};

/** A PIX order waiting for payment, to the buyer: how to pay it, and where the code stays until it is paid. */
export const pixPayment = defineTemplate({
  data: z.object({
    ...pendingOrderData,
    ...pixInstructionsData,
    /** The buyer's orders, where the same code is shown until the order is paid. */
    profileUrl: z.url({ protocol: /^https?$/ }),
  }),
  subject: ({ eventTitle }) => payOrderSubject(eventTitle),
  preheader: ({ amount, expiresAt }) =>
    `Pague ${reais(amount)} com PIX até as ${timeOfDay(expiresAt)}: use o QR Code ou o código copia e cola.`,
  text: ({ profileUrl, ...order }) => `${greeting(order.name)}

${awaitingPaymentText(order, `de ${reais(order.amount)} por PIX`)}

${pixInstructions.text(order)}

Assim que o pagamento for confirmado, você receberá o ingresso por e-mail.

O QR Code e o código também estão na sua área de acesso, em "Meus Ingressos": ${profileUrl}`,
  body: ({ profileUrl, ...order }) => [
    heading('Pague com PIX'),
    paragraph(greeting(order.name)),
    paragraph('Seu pedido está aguardando o pagamento por PIX.'),
    details(pendingOrderFacts(order)),
    ...pixInstructions.body(order),
    paragraph('Assim que o pagamento for confirmado, você receberá o ingresso por e-mail.'),
    button(profileUrl, 'Ver meus ingressos'),
    note('O QR Code e o código também estão na sua área de acesso, em "Meus Ingressos".'),
  ],
  attachments: pixInstructions.attachments,
});

/**
 * "O código PIX vale até as 14:32 (horário de Brasília) de quinta-feira, 26 de …": the deadline itself, as the window
 * is shorter than usual when the event starts sooner.
 */
const deadline = (expiresAt: string) =>
  `O código PIX vale até as ${timeOfDay(expiresAt)} (horário de Brasília) de ${longDate(expiresAt)}.`;
