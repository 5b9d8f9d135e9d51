import { formatCnpj } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { longDate, reais } from './format.ts';
import { boletoInstructions, boletoInstructionsData } from './boleto-payment.ts';
import { cardInstructions, cardInstructionsData } from './card-payment-link.ts';
import { buttonFallback, details, heading, note, paragraph } from './layout.ts';
import { orderLinesText } from './order-lines.ts';
import { inInstallments, orderTotalText } from './order-total.ts';
import { pendingOrderData, pendingOrderFacts } from './pending-order.ts';
import { pixInstructions, pixInstructionsData } from './pix-payment.ts';

const companyBillingData = z
  .object(pendingOrderData)
  .omit({ name: true })
  .extend({
    company: z.object({ cnpj: z.string(), name: z.string(), purchaseOrder: z.string().nullable() }),
    /** Who placed the order for the company. */
    buyerName: z.string(),
    payment: z.discriminatedUnion('method', [
      z.object({ method: z.literal('pix'), ...pixInstructionsData }),
      z.object({ method: z.literal('boleto'), ...boletoInstructionsData }),
      z.object({ method: z.literal('credit_card'), ...cardInstructionsData }),
    ]),
  });
type CompanyBilling = z.infer<typeof companyBillingData>;

/**
 * An order bought for a company, to its finance department: whom the charge is made out to (razão social, CNPJ, its
 * purchase order), what was bought and how to pay it, by the same instructions the buyer gets for the method.
 */
export const companyBilling = defineTemplate({
  data: companyBillingData,
  subject: ({ orderNumber, eventTitle }) => `Cobrança do pedido ${orderNumber} – ${eventTitle}`,
  preheader: (order) =>
    `${order.company.name}: pagamento de ${reais(order.amount)}${inInstallments(order)} ${METHOD[order.payment.method]}.`,
  text: (order) => `Ao setor financeiro de ${order.company.name},

${intro(order)}

${companyFacts(order)
  .map(([label, value]) => `${label}: ${value}`)
  .join('\n')}
Evento: ${order.eventTitle}
Data: ${longDate(order.eventDate)}${orderLinesText(order.lines)}

${orderTotalText(order)}

${instructions(order).text}

${AFTER_PAYMENT}`,
  body: (order) => {
    const { body, facts, fallback } = instructions(order);
    return [
      heading('Cobrança do pedido'),
      paragraph(`Ao setor financeiro de ${order.company.name},`),
      paragraph(intro(order)),
      details([...companyFacts(order), ...pendingOrderFacts(order), ...facts]),
      ...body,
      paragraph(AFTER_PAYMENT),
      note(`O pedido foi feito por ${order.buyerName}. Dúvidas sobre a compra podem ser tratadas com essa pessoa.`),
      ...fallback,
    ];
  },
  attachments: (order) => instructions(order).attachments,
});

const METHOD = { pix: 'por PIX', boleto: 'por boleto', credit_card: 'por cartão de crédito' } as const;

const AFTER_PAYMENT =
  'Assim que o pagamento for confirmado, cada participante recebe o próprio ingresso no e-mail informado no pedido, e a nota fiscal é enviada a este endereço quando for emitida.';

const intro = ({ buyerName, orderNumber, eventTitle, company, payment }: CompanyBilling) =>
  `${buyerName} fez o pedido ${orderNumber} para ${eventTitle} em nome da empresa, com pagamento ${METHOD[payment.method]}. A cobrança foi emitida para o CNPJ ${formatCnpj(company.cnpj)}.`;

/** The charge's customer: the razão social, the CNPJ, and the company's purchase order when it gave one. */
const companyFacts = ({ company, orderNumber }: CompanyBilling): [string, string][] => [
  ['Razão social', company.name],
  ['CNPJ', formatCnpj(company.cnpj)],
  ...(company.purchaseOrder ? [['Pedido de compra', company.purchaseOrder] as [string, string]] : []),
  ['Pedido', orderNumber],
];

/** The buyer's instructions for the order's method: text, blocks, extra details, links written out, files. */
function instructions(order: CompanyBilling) {
  const { payment } = order;
  if (payment.method === 'pix') {
    const pix = { ...payment, orderNumber: order.orderNumber };
    return {
      text: pixInstructions.text(pix),
      body: pixInstructions.body(pix),
      facts: [],
      fallback: [],
      attachments: pixInstructions.attachments(pix),
    };
  }
  if (payment.method === 'boleto') {
    return {
      text: boletoInstructions.text(payment),
      body: boletoInstructions.body(payment),
      facts: [boletoInstructions.dueFact(payment)],
      fallback: buttonFallback(payment.boletoUrl),
      attachments: [],
    };
  }
  const card = { ...payment, amount: order.amount, installments: order.installments };
  return {
    text: cardInstructions.text(card),
    body: cardInstructions.body(card),
    facts: [],
    fallback: buttonFallback(payment.invoiceUrl),
    attachments: [],
  };
}
