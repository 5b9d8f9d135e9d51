import { z } from 'zod';
import { reais } from './format.ts';

/** One ticket of an order as the buyer's e-mails list it: its type, its holder and the price its lot gave. */
export const orderLineData = z.object({
  typeName: z.string(),
  holderName: z.string(),
  price: z.string(),
});
export type OrderLine = z.infer<typeof orderLineData>;

/** "Profissional — Ana Souza Lima — R$ 390,00". */
export const describeLine = ({ typeName, holderName, price }: OrderLine) =>
  `${typeName} — ${holderName} — ${reais(price)}`;

/** The order's tickets in an e-mail's details, one row each ("Ingresso 1"); none for an order of no lines. */
export const orderLineFacts = (lines: OrderLine[]): [string, string][] =>
  lines.map((line, i) => [`Ingresso ${i + 1}`, describeLine(line)]);

/** The order's tickets in plain text, one line each, after a blank line; empty for an order of no lines. */
export const orderLinesText = (lines: OrderLine[]) =>
  lines.length === 0 ? '' : `\n\nIngressos do pedido:\n${lines.map((line) => `- ${describeLine(line)}`).join('\n')}`;
