import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting, longDate, payOrderSubject, reais } from './format.ts';
import { button, buttonFallback, copyCode, details, heading, linkText, note, paragraph } from './layout.ts';
import { awaitingPaymentText, pendingOrderData, pendingOrderFacts } from './pending-order.ts';

/** What paying an order by boleto takes: its PDF, its digitable line and its due date. */
export const boletoInstructionsData = {
  /** The boleto's last day: seven business days away, or earlier near the event (it must clear before it). */
  expiresAt: z.iso.datetime({ offset: true }),
  boletoUrl: z.url({ protocol: /^https?$/ }),
  /** The digitable line; null when the provider did not give it (the PDF has it). */
  boletoLine: z.string().min(1).nullable(),
};
type BoletoInstructions = { expiresAt: string; boletoUrl: string; boletoLine: string | null };

/**
 * How to pay a boleto, in every e-mail that asks for it: the digitable line to pay in a bank's app, the PDF to print
 * and its due date (the spots are kept until then). The body's button is followed, at the end, by `buttonFallback`.
 */
export const boletoInstructions = {
  text: ({ expiresAt, boletoUrl, boletoLine }: BoletoInstructions) =>
    `${
      boletoLine
        ? `Pague pelo app ou site do seu banco com a linha digitável:

${boletoLine}

`
        : ''
    }Boleto em PDF, para imprimir ou pagar em uma agência ou lotérica:
${boletoUrl}

${dueText(expiresAt)}`,
  body: ({ expiresAt, boletoUrl, boletoLine }: BoletoInstructions) => [
    ...(boletoLine
      ? [
          paragraph('Pague pelo app ou site do seu banco com a linha digitável abaixo, ou baixe o boleto em PDF.'),
          copyCode('Linha digitável', boletoLine),
        ]
      : []),
    button(boletoUrl, 'Baixar boleto (PDF)'),
    paragraph(dueText(expiresAt)),
  ],
  dueFact: ({ expiresAt }: BoletoInstructions): [string, string] => ['Vencimento', longDate(expiresAt)],
};

/** A boleto order waiting for payment, to the buyer: how to pay it, and where the boleto stays until it is paid. */
export const boletoPayment = defineTemplate({
  data: z.object({
    ...pendingOrderData,
    ...boletoInstructionsData,
    /** The buyer's orders, where the same boleto is shown until the order is paid. */
    profileUrl: z.url({ protocol: /^https?$/ }),
  }),
  subject: ({ eventTitle }) => payOrderSubject(eventTitle),
  preheader: ({ amount, expiresAt }) =>
    `Pague ${reais(amount)} até ${longDate(expiresAt)} pelo app do banco ou com o boleto em PDF.`,
  text: ({ profileUrl, ...order }) => `${greeting(order.name)}

${awaitingPaymentText(order, `do boleto de ${reais(order.amount)}`)}

${boletoInstructions.text(order)}

Assim que o pagamento for compensado (o que pode levar até 3 dias úteis), você receberá o ingresso por e-mail.

A linha digitável e o boleto também estão na sua área de acesso, em "Meus Ingressos": ${profileUrl}`,
  body: ({ profileUrl, ...order }) => [
    heading('Pague o boleto'),
    paragraph(greeting(order.name)),
    paragraph('Seu pedido está aguardando o pagamento do boleto.'),
    details([...pendingOrderFacts(order), boletoInstructions.dueFact(order)]),
    ...boletoInstructions.body(order),
    paragraph(
      'Assim que o pagamento for compensado (o que pode levar até 3 dias úteis), você receberá o ingresso por e-mail.',
    ),
    note('A linha digitável e o boleto também estão na sua área de acesso, em "Meus Ingressos": '),
    note(linkText(profileUrl)),
    ...buttonFallback(order.boletoUrl),
  ],
});

const dueText = (expiresAt: string) =>
  `O boleto vence em ${longDate(expiresAt)}. Depois do vencimento, o pedido expira e a vaga é liberada.`;
