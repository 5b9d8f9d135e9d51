import { fromCents, installmentCents, toCents } from '@ticketing/proto';
import { z } from 'zod';
import { reais } from './format.ts';

/** What a coupon took off and how many card installments: absent on orders without them (and before they existed). */
export const orderTotalData = {
  /** Already taken off `amount`; null or "0.00" without a coupon. */
  discountAmount: z.string().nullable().default(null),
  installments: z.number().int().min(1).default(1),
};

interface OrderTotal {
  amount: string;
  discountAmount?: string | null;
  installments?: number;
}

const discountOf = ({ discountAmount }: OrderTotal) =>
  discountAmount && toCents(discountAmount) > 0 ? discountAmount : null;

/** "3x de R$ 131,67": each installment of the total, as the provider splits it. */
export const installmentsText = (amount: string, count: number) =>
  `${count}x de ${reais(fromCents(installmentCents(toCents(amount), count)))}`;

/** The order's total in an e-mail's details: the discount before it and the installments after it, when any. */
export const orderTotalFacts = (order: OrderTotal): [string, string][] => {
  const discount = discountOf(order);
  const installments = order.installments ?? 1;
  return [
    ...(discount ? [['Desconto', `− ${reais(discount)}`] as [string, string]] : []),
    ['Total', reais(order.amount)],
    ...(installments > 1
      ? [['Parcelamento', `em ${installmentsText(order.amount, installments)}`] as [string, string]]
      : []),
  ];
};

/** The same rows in plain text, one "Label: value" a line. */
export const orderTotalText = (order: OrderTotal) =>
  orderTotalFacts(order)
    .map(([label, value]) => `${label}: ${value}`)
    .join('\n');

/** " em 3x de R$ 131,67" after an amount paid in installments; nothing when paid at once. */
export const inInstallments = ({ amount, installments = 1 }: OrderTotal) =>
  installments > 1 ? ` em ${installmentsText(amount, installments)}` : '';
