import { z } from 'zod';
import { decimalAmount, toCents } from './money.ts';

/** The most card installments any event offers (the provider's and the market's limit). */
export const MAX_INSTALLMENTS = 12;
/** The smallest installment the provider accepts on a card: R$ 5,00. */
export const MIN_INSTALLMENT_VALUE = '5.00';

/** How an event sells by card in installments: at most `max` of them, each at least `minValue` ("100.00"). */
export interface InstallmentTerms {
  max: number;
  minValue: string;
}

/** Events that never said: paid by card at once (1x). */
export const DEFAULT_INSTALLMENT_TERMS: InstallmentTerms = { max: 1, minValue: MIN_INSTALLMENT_VALUE };

export const installmentMessages = {
  invalid: 'Número de parcelas inválido',
  maxInvalid: `O número máximo de parcelas deve ser de 1 a ${MAX_INSTALLMENTS}.`,
  minValueInvalid: `O valor mínimo da parcela deve ser de pelo menos R$ 5,00.`,
  cardOnly: 'Parcelamento disponível apenas no cartão de crédito.',
  notAllowed: (allowed: number[]) =>
    allowed.length === 1
      ? 'Este pedido só pode ser pago à vista.'
      : `Este pedido pode ser pago em até ${allowed[allowed.length - 1]}x.`,
} as const;

/** One installment's value in cents: the total split evenly, rounded to the cent (the provider adjusts the last). */
export const installmentCents = (totalCents: number, count: number): number => Math.round(totalCents / count);

/** The counts a total may be paid in: 1 (à vista), and each up to `max` whose installment is at least `minValue`. */
export function allowedInstallments(totalCents: number, terms: InstallmentTerms): number[] {
  const minCents = toCents(terms.minValue);
  const counts = [1];
  for (let count = 2; count <= Math.min(terms.max, MAX_INSTALLMENTS); count++) {
    if (Math.floor(totalCents / count) >= minCents) counts.push(count);
  }
  return counts;
}

/** The event's terms as the organiser sets them (`maxInstallments`, `minInstallmentValue`). */
export const installmentTermsFields = {
  maxInstallments: z
    .number({ error: installmentMessages.maxInvalid })
    .int(installmentMessages.maxInvalid)
    .min(1, installmentMessages.maxInvalid)
    .max(MAX_INSTALLMENTS, installmentMessages.maxInvalid),
  minInstallmentValue: decimalAmount(installmentMessages.minValueInvalid).refine(
    (value) => toCents(value) >= toCents(MIN_INSTALLMENT_VALUE),
    installmentMessages.minValueInvalid,
  ),
};

/** The terms as events answer them. */
export const installmentTermsSchema = z.object({ max: z.number().int(), minValue: z.string() });
