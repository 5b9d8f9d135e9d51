import { allowedInstallments, fromCents, installmentCents, type InstallmentTerms } from '@ticketing/proto';
import { formatBRL } from '@ticketing/shared/format';

export interface InstallmentOption {
  count: number;
  label: string;
}

/**
 * The 'Parcelas' a card total may be paid in under the event's terms: '1x de R$ 1.295,00 (à vista)', '3x de
 * R$ 431,67', … (each installment as the provider splits it).
 */
export function installmentOptions(totalCents: number, terms: InstallmentTerms): InstallmentOption[] {
  return allowedInstallments(totalCents, terms).map((count) => ({
    count,
    label:
      count === 1
        ? `1x de ${formatBRL(fromCents(totalCents))} (à vista)`
        : `${count}x de ${formatBRL(fromCents(installmentCents(totalCents, count)))}`,
  }));
}
