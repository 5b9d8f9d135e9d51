import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting, longDate, payOrderSubject, reais } from './format.ts';
import { button, copyCode, details, heading, linkText, note, paragraph } from './layout.ts';
import { awaitingPaymentText, pendingOrderData, pendingOrderFacts } from './pending-order.ts';

/**
 * A boleto order waiting for payment: the digitable line to pay in a bank's app and the PDF to print, with its due
 * date (the spot is kept until then).
 */
export const boletoPayment = defineTemplate({
  data: z.object({
    ...pendingOrderData,
    /** The boleto's last day: seven business days away, or earlier near the event (it must clear before it). */
    expiresAt: z.iso.datetime({ offset: true }),
    boletoUrl: z.url({ protocol: /^https?$/ }),
    /** The digitable line; null when the provider did not give it (the PDF has it). */
    boletoLine: z.string().min(1).nullable(),
    /** The buyer's orders, where the same boleto is shown until the order is paid. */
    profileUrl: z.url({ protocol: /^https?$/ }),
  }),
  subject: ({ eventTitle }) => payOrderSubject(eventTitle),
  preheader: ({ amount, expiresAt }) =>
    `Pague ${reais(amount)} até ${longDate(expiresAt)} pelo app do banco ou com o boleto em PDF.`,
  text: ({ expiresAt, boletoUrl, boletoLine, profileUrl, ...order }) => `${greeting(order.name)}

${awaitingPaymentText(order, `do boleto de ${reais(order.amount)}`)}
${
  boletoLine
    ? `
Pague pelo app ou site do seu banco com a linha digitável:

${boletoLine}
`
    : ''
}
Boleto em PDF, para imprimir ou pagar em uma agência ou lotérica:
${boletoUrl}

${dueText(expiresAt)}

Assim que o pagamento for compensado (o que pode levar até 3 dias úteis), você receberá o ingresso por e-mail.

A linha digitável e o boleto também estão na sua área de acesso, em "Meus Ingressos": ${profileUrl}`,
  body: ({ expiresAt, boletoUrl, boletoLine, profileUrl, ...order }) => [
    heading('Pague o boleto'),
    paragraph(greeting(order.name)),
    paragraph('Seu pedido está aguardando o pagamento do boleto.'),
    details([...pendingOrderFacts(order), ['Vencimento', longDate(expiresAt)]]),
    ...(boletoLine
      ? [
          paragraph('Pague pelo app ou site do seu banco com a linha digitável abaixo, ou baixe o boleto em PDF.'),
          copyCode('Linha digitável', boletoLine),
        ]
      : []),
    button(boletoUrl, 'Baixar boleto (PDF)'),
    paragraph(dueText(expiresAt)),
    paragraph(
      'Assim que o pagamento for compensado (o que pode levar até 3 dias úteis), você receberá o ingresso por e-mail.',
    ),
    note('A linha digitável e o boleto também estão na sua área de acesso, em "Meus Ingressos": '),
    note(linkText(profileUrl)),
    note('Se o botão não funcionar, copie este endereço no navegador: '),
    note(linkText(boletoUrl)),
  ],
});

const dueText = (expiresAt: string) =>
  `O boleto vence em ${longDate(expiresAt)}. Depois do vencimento, o pedido expira e a vaga é liberada.`;
