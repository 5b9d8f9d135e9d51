import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { button, buttonFallback, heading, note, paragraph } from './layout.ts';

/**
 * An order's nota fiscal (NFS-e) authorized by the city: the link to its PDF, to whom the charge was made out (the
 * buyer, or a company's finance department, whose razão social is the name).
 */
export const invoiceAuthorized = defineTemplate({
  data: z.object({
    name: z.string(),
    /** Null on orders made before order numbers. */
    orderNumber: z.string().nullable(),
    pdfUrl: z.url({ protocol: /^https?$/ }),
  }),
  subject: ({ orderNumber }) => (orderNumber ? `Nota fiscal do pedido ${orderNumber}` : 'Nota fiscal do seu pedido'),
  preheader: () => 'A nota fiscal de serviço (NFS-e) foi emitida: baixe o PDF.',
  text: ({ name, orderNumber, pdfUrl }) => `${salutation(name)}

${issued(orderNumber)}

Baixe a nota fiscal em PDF:
${pdfUrl}

${KEEP}`,
  body: ({ name, orderNumber, pdfUrl }) => [
    heading('Nota fiscal emitida'),
    paragraph(salutation(name)),
    paragraph(issued(orderNumber)),
    button(pdfUrl, 'Baixar nota fiscal (PDF)'),
    note(KEEP),
    ...buttonFallback(pdfUrl),
  ],
});

/** The whole name: it may be a company's razão social, whose first word says nothing. */
const salutation = (name: string) => (name.trim() ? `Olá, ${name.trim()}!` : 'Olá!');

const issued = (orderNumber: string | null) =>
  `A nota fiscal de serviço (NFS-e) ${orderNumber ? `do pedido ${orderNumber}` : 'do seu pedido'} foi emitida.`;

const KEEP = 'Guarde o arquivo: ele é o documento fiscal da compra.';
